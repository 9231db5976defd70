/**
 * Durations as scenario files and kubectl flags write them: "500ms", "90s", "6m", "1h",
 * "1m30s", "1.5h". Parsed by the rules and with the error messages of Go's
 * time.ParseDuration (src/time/format.go): a sequence of decimal numbers, each with an
 * optional fraction and a unit (ns, us, µs, μs, ms, s, m, h); an optional sign; "0" alone
 * needs no unit; more than 2^63-1 nanoseconds overflows (`time: invalid duration`).
 */

const NS_PER: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5 micro sign
  ['μs', 1_000n], // U+03BC Greek mu
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const LIMIT = 1n << 63n;

/** Go's strconv.Quote for the texts a duration holds (printable text, `"` and `\` escaped). */
function quote(s: string): string {
  return JSON.stringify(s);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Go's time.ParseDuration: the duration in nanoseconds (negative allowed, as in Go).
 * @throws Error with Go's message: `time: invalid duration "x"`, `time: missing unit in
 * duration "90"`, `time: unknown unit "d" in duration "1d"`.
 */
export function parseGoDurationNs(orig: string): bigint {
  let s = orig;
  const invalid = () => new Error(`time: invalid duration ${quote(orig)}`);
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    // leadingInt
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw invalid();
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // leadingFraction: digits after the dot; stops gaining precision on overflow, never fails
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > (LIMIT - 1n) / 10n) overflow = true;
          else {
            f = f * 10n + BigInt(s.charCodeAt(j) - 48);
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) throw new Error(`time: missing unit in duration ${quote(orig)}`);
    const unitText = s.slice(0, u);
    s = s.slice(u);
    const unit = NS_PER.get(unitText);
    if (unit === undefined) throw new Error(`time: unknown unit ${quote(unitText)} in duration ${quote(orig)}`);
    if (v > LIMIT / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw invalid();
    }
    d += v;
    if (d > LIMIT) throw invalid();
  }
  if (neg) return -d;
  if (d > LIMIT - 1n) throw invalid();
  return d;
}

/**
 * Parses a scenario duration to simulated milliseconds (nanoseconds rounded to the nearest
 * millisecond, the simulated clock's unit). Accepts what Go's time.ParseDuration accepts,
 * except negative durations; the YAML number 0 is accepted as "0".
 * @throws Error with Go's message (see {@link parseGoDurationNs}), or
 * `must not be negative (got "-5s")`.
 */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number') {
    if (text === 0) return 0;
    // a YAML number such as `advance: 90` has no unit, as Go would say of "90"
    throw new Error(`time: missing unit in duration ${quote(String(text))}`);
  }
  if (typeof text !== 'string')
    throw new Error(
      `must be a duration string such as 500ms, 90s, 6m or 1h (got ${text === null ? 'null' : Array.isArray(text) ? 'a list' : typeof text})`,
    );
  const ns = parseGoDurationNs(text);
  if (ns < 0n) throw new Error(`must not be negative (got ${quote(text)})`);
  return Number((ns + 500_000n) / 1_000_000n);
}

/** Go's time.Duration.String for whole milliseconds: 0s, 500ms, 1.5s, 1m30s, 24h0m0s. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(Math.round(ms));
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  const frac = rest - sec * 1000;
  const secText = frac ? `${sec}.${String(frac).padStart(3, '0').replace(/0+$/, '')}s` : `${sec}s`;
  if (h) return `${sign}${h}h${m}m${secText}`;
  if (m) return `${sign}${m}m${secText}`;
  return `${sign}${secText}`;
}
