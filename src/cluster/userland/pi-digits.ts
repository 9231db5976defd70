/**
 * π to N significant digits, as Perl's Math::BigFloat->bpi(N) (what `perl -Mbignum=bpi -wle
 * "print bpi(2000)"` — the Kubernetes docs' pi Job — prints): the digits rounded to N
 * significant digits with Math::BigFloat's default round mode 'even'. bpi(1) is "3",
 * bpi(5) "3.1416"; N ≤ 0 means the default precision, 40 digits (div_scale).
 *
 * Computed exactly with BigInt by Machin's formula π = 16·atan(1/5) − 4·atan(1/239) in
 * fixed point with 10 guard digits (N up to ~10,000 in well under a second).
 */

/** Math::BigFloat's div_scale: the precision of bpi() without an argument. */
export const BPI_DEFAULT_DIGITS = 40;

const GUARD = 10;

/** atan(1/x) · scale, as an integer (scale a power of ten). */
function atanInv(x: bigint, scale: bigint): bigint {
  const x2 = x * x;
  let term = scale / x;
  let sum = term;
  for (let k = 1n; term !== 0n; k++) {
    term /= x2;
    const t = term / (2n * k + 1n);
    sum += k % 2n === 1n ? -t : t;
  }
  return sum;
}

/**
 * π rounded to `digits` significant digits, formatted as Perl prints it ("3.14159…").
 * @param digits significant digits (≤ 0: 40)
 */
export function bpi(digits: number): string {
  const n = digits > 0 ? Math.floor(digits) : BPI_DEFAULT_DIGITS;
  // π · 10^(n - 1 + GUARD): an integer of n + GUARD digits
  const scale = 10n ** BigInt(n - 1 + GUARD);
  const pi = 16n * atanInv(5n, scale) - 4n * atanInv(239n, scale);
  const unit = 10n ** BigInt(GUARD);
  let q = pi / unit;
  const r = pi % unit;
  const half = unit / 2n;
  if (r > half || (r === half && q % 2n === 1n)) q++;
  const s = q.toString();
  return s.length === 1 ? s : `${s[0]}.${s.slice(1)}`;
}

/**
 * Simulated CPU time of bpi(N) in Perl's pure-Perl Math::BigInt::Calc (roughly quadratic:
 * about 2 s for the docs' 2000 digits, 12.5 s for 5000), in ms; at least 10 ms.
 */
export function bpiComputeMs(digits: number): number {
  const n = digits > 0 ? digits : BPI_DEFAULT_DIGITS;
  return Math.max(10, Math.round((n * n) / 2000));
}
