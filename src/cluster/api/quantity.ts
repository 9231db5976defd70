/**
 * resource.Quantity in miniature: parses the string forms Kubernetes accepts for resource
 * amounts ("500m", "1", "2Gi", "128974848", "129e6", "1.5", "100M") exactly, with BigInt
 * arithmetic, and converts them to the integer units the scheduler and kubelet use.
 *
 * Mirrors k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity, Value,
 * MilliValue — both round up, as Quantity.ScaledValue does) and suffix.go (binary suffixes
 * Ki…Ei = 2^10…2^60, decimal suffixes n u m "" k M G T P E, and e/E exponents).
 */

/** An exact quantity: value = sign · num / den. `den` is a power of ten (or 1). */
export interface Quantity {
  /** Numerator, ≥ 0. */
  num: bigint;
  /** Denominator, > 0. */
  den: bigint;
  negative: boolean;
  /** The text as given (trimmed). */
  text: string;
}

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};

/** Decimal suffixes as powers of ten. */
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** The error text of resource.ErrFormatWrong. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const QUANTITY_RE = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/**
 * Parses a quantity (resource.ParseQuantity). Numbers are accepted too (YAML `cpu: 2`).
 * @throws Error with {@link QUANTITY_FORMAT_ERROR} when the text is not a quantity.
 */
export function parseQuantity(input: string | number): Quantity {
  let q = parsedMemo.get(input);
  if (q === undefined) {
    q = Object.freeze(parse(input));
    if (parsedMemo.size >= MEMO_LIMIT) parsedMemo.clear();
    parsedMemo.set(input, q);
  }
  return q;
}

// Parsed quantities by their input, frozen and shared (validation, defaulting, the QoS class
// and the scheduler's requests parse the same few texts for every Pod); bounded, cleared when
// full. Parse errors are not cached: they throw every time.
const parsedMemo = new Map<string | number, Readonly<Quantity>>();

function parse(input: string | number): Quantity {
  const text = String(input).trim();
  const m = QUANTITY_RE.exec(text);
  if (!m) throw new Error(QUANTITY_FORMAT_ERROR);
  const negative = m[1] === '-';
  const [intPart, fracPart = ''] = m[2].split('.');
  let num = BigInt((intPart || '0') + fracPart);
  let den = 10n ** BigInt(fracPart.length);
  const suffix = m[3] ?? '';
  if (suffix in BINARY) {
    num *= BINARY[suffix];
  } else {
    const exp = suffix.startsWith('e') || suffix.startsWith('E') ? Number(suffix.slice(1)) : DECIMAL[suffix];
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  return { num, den, negative: negative && num !== 0n, text };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function scaled(q: Quantity, factor: bigint): number {
  // round away from zero for positives (up), toward zero magnitude-wise for negatives, as ScaledValue
  const mag = q.negative ? (q.num * factor) / q.den : ceilDiv(q.num * factor, q.den);
  return Number(q.negative ? -mag : mag);
}

/** Quantity.Value(): the amount in base units (bytes, cores, pods), rounded up. */
export function quantityValue(q: Quantity | string | number): number {
  if (typeof q === 'object') return scaled(q, 1n);
  return memo(valueMemo, q, 1n);
}

/** Quantity.MilliValue(): the amount in thousandths (millicores), rounded up. */
export function quantityMilliValue(q: Quantity | string | number): number {
  if (typeof q === 'object') return scaled(q, 1000n);
  return memo(milliMemo, q, 1000n);
}

// Values of quantity texts, memoized (the same few requests are read for every Pod on every
// scheduling cycle and status computation); bounded, cleared when full. Parse errors are not
// cached: they throw every time.
const MEMO_LIMIT = 4096;
const valueMemo = new Map<string | number, number>();
const milliMemo = new Map<string | number, number>();

function memo(m: Map<string | number, number>, q: string | number, factor: bigint): number {
  let v = m.get(q);
  if (v === undefined) {
    v = scaled(parseQuantity(q), factor);
    if (m.size >= MEMO_LIMIT) m.clear();
    m.set(q, v);
  }
  return v;
}

/** CPU in millicores: "500m" → 500, "1.5" → 1500, "2" → 2000. Missing → 0. */
export function cpuMillis(v: string | number | undefined | null): number {
  return v === undefined || v === null ? 0 : quantityMilliValue(v);
}

/** Bytes (memory, ephemeral-storage): "2Gi" → 2147483648, "129e6" → 129000000. Missing → 0. */
export function bytesOf(v: string | number | undefined | null): number {
  return v === undefined || v === null ? 0 : quantityValue(v);
}

/** True when the text parses as a quantity. */
export function isQuantity(v: string | number): boolean {
  try {
    parseQuantity(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * Formats millicores as kubectl prints CPU ("250m", "1", "1500m"), as Quantity.String()
 * does for a DecimalSI milli quantity.
 */
export function formatMilliCPU(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/**
 * Formats bytes in the largest binary suffix that divides them exactly ("128Mi", "2Gi",
 * "1000"), as Quantity.String() does for a BinarySI quantity.
 */
export function formatBytes(bytes: number): string {
  if (bytes === 0) return '0';
  const units: [string, number][] = [
    ['Ei', 2 ** 60],
    ['Pi', 2 ** 50],
    ['Ti', 2 ** 40],
    ['Gi', 2 ** 30],
    ['Mi', 2 ** 20],
    ['Ki', 2 ** 10],
  ];
  for (const [u, n] of units) if (bytes % n === 0) return `${bytes / n}${u}`;
  return String(bytes);
}

const DECIMAL_SUFFIX_OF: Record<number, string> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Canonical decimal text of sign·mant·10^exp (AsCanonicalBytes: exponent a multiple of 3). */
function decimalText(negative: boolean, mant: bigint, exp: number, exponentFormat: boolean): string {
  while (mant !== 0n && mant % 10n === 0n) {
    mant /= 10n;
    exp++;
  }
  const r = ((exp % 3) + 3) % 3;
  if (r !== 0) {
    mant *= 10n ** BigInt(r);
    exp -= r;
  }
  const sign = negative ? '-' : '';
  if (exponentFormat) return `${sign}${mant}${exp === 0 ? '' : `e${exp}`}`;
  const suffix = DECIMAL_SUFFIX_OF[exp];
  return suffix === undefined ? `${sign}${mant}e${exp}` : `${sign}${mant}${suffix}`;
}

/** A Quantity's serialization format (resource.Format). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** The format ParseQuantity gives a text: a binary suffix → BinarySI, e/E → DecimalExponent, else DecimalSI. */
export function quantityFormat(text: string | number): QuantityFormat {
  const m = /(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+)$/.exec(String(text).trim())?.[1] ?? '';
  return m.endsWith('i') ? 'BinarySI' : m ? 'DecimalExponent' : 'DecimalSI';
}

/** A quantity's magnitude in thousandths, rounded away from zero (RoundUp(-3)), with its sign. */
export function quantityMillis(text: string | number): { milli: bigint; negative: boolean } {
  const q = parseQuantity(text);
  return { milli: ceilDiv(q.num * 1000n, q.den), negative: q.negative };
}

/**
 * Quantity.String() of a milli-scale amount in a format (CanonicalizeBytes): BinarySI only for
 * integers of at least 1024 (else DecimalSI), decimal mantissas with exponents in multiples of 3.
 */
export function formatMillis(milli: bigint, negative: boolean, format: QuantityFormat): string {
  if (milli === 0n) return '0';
  if (format === 'BinarySI' && milli % 1000n === 0n && milli >= 1024000n) {
    let v = milli / 1000n;
    let i = 0;
    while (i < BINARY_SUFFIXES.length - 1 && v % 1024n === 0n) {
      v /= 1024n;
      i++;
    }
    return `${negative ? '-' : ''}${v}${BINARY_SUFFIXES[i]}`;
  }
  return decimalText(negative, milli, -3, format === 'DecimalExponent');
}

/**
 * What a ResourceList value becomes in a stored object: SetDefaults_ResourceList rounds it up
 * to milli scale (Quantity.RoundUp(-3), away from zero) and Quantity's JSON form is its
 * canonical text (Quantity.CanonicalizeBytes): "0.5" → "500m", "1000m" → "1", "2000" → "2k",
 * "1.5Gi" → "1536Mi", "1e3" → "1e3", "0.0001" → "1m", "1n" → "1m", "0Gi" → "0".
 * The format is the parsed one ({@link quantityFormat}). Upstream: pkg/apis/core/v1/defaults.go
 * SetDefaults_ResourceList and k8s.io/apimachinery/pkg/api/resource/quantity.go (RoundUp,
 * CanonicalizeBytes).
 * @returns the canonical text; the input unchanged (as a string) when it is not a quantity.
 */
export function canonicalResourceQuantity(input: string | number): string {
  if (!isQuantity(input)) return String(input);
  const { milli, negative } = quantityMillis(input);
  return formatMillis(milli, negative, quantityFormat(input));
}
