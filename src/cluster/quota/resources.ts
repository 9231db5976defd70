/**
 * Resource lists for quota arithmetic, after k8s.io/kubernetes pkg/quota/v1/resources.go
 * (Add, Mask, LessThanOrEqual, RemoveZeros, SubtractWithNonNegativeResult, IsNegative) over
 * resource.Quantity: amounts are exact milli-scale integers with the Quantity format that
 * Quantity.Add keeps (the first non-zero operand's), printed as Quantity.String() does.
 */
import { formatMillis, quantityFormat, quantityMillis, type QuantityFormat } from '../api/quantity';

/** One quantity: a signed amount in thousandths and its format. */
export interface Amount {
  /** Signed thousandths of the base unit (millicores, millibytes, milli-objects). */
  milli: bigint;
  format: QuantityFormat;
}

/** A ResourceList: resource name → amount. Keys are user data, hence a Map. */
export type Usage = Map<string, Amount>;

/** Parses a quantity text (or number); undefined when it is not a quantity. */
export function amountOf(v: unknown): Amount | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    const { milli, negative } = quantityMillis(v);
    return { milli: negative ? -milli : milli, format: quantityFormat(v) };
  } catch {
    return undefined;
  }
}

/** An amount of whole units (resource.NewQuantity(n, DecimalSI)). */
export function units(n: number): Amount {
  return { milli: BigInt(n) * 1000n, format: 'DecimalSI' };
}

/** Quantity.String(). */
export function formatAmount(a: Amount): string {
  return formatMillis(a.milli < 0n ? -a.milli : a.milli, a.milli < 0n, a.format);
}

/** Quantity.Add: a zero left operand takes the right one's format. */
export function addAmount(a: Amount, b: Amount): Amount {
  return { milli: a.milli + b.milli, format: a.milli === 0n ? b.format : a.format };
}

/** A ResourceList object (status.used, spec.hard) as a Usage; values that are not quantities are skipped. */
export function usageOf(list: unknown): Usage {
  const out: Usage = new Map();
  if (!list || typeof list !== 'object' || Array.isArray(list)) return out;
  for (const [k, v] of Object.entries(list)) {
    const a = amountOf(v);
    if (a) out.set(k, a);
  }
  return out;
}

/** A Usage as a ResourceList object (null-prototype, keys sorted as Go's JSON encoder prints a map). */
export function usageToList(u: Usage): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const k of [...u.keys()].sort()) out[k] = formatAmount(u.get(k)!);
  return out;
}

/** quota.Add: the union, summing shared keys. */
export function add(a: Usage, b: Usage): Usage {
  const out: Usage = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addAmount(cur, v) : v);
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult. */
export function subtractNonNegative(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [k, v] of a) {
    const o = b.get(k);
    const milli = o ? v.milli - o.milli : v.milli;
    out.set(k, { milli: milli < 0n ? 0n : milli, format: v.format });
  }
  return out;
}

/** quota.Mask: only the named keys. */
export function mask(u: Usage, names: Iterable<string>): Usage {
  const out: Usage = new Map();
  for (const n of names) {
    const v = u.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** quota.RemoveZeros. */
export function removeZeros(u: Usage): Usage {
  return new Map([...u].filter(([, v]) => v.milli !== 0n));
}

/** quota.IsNegative: the names with a negative amount. */
export function negativeNames(u: Usage): string[] {
  return [...u].filter(([, v]) => v.milli < 0n).map(([k]) => k);
}

/** quota.LessThanOrEqual(a, b): every key of b that a has is ≤; the names that are not. */
export function lessThanOrEqual(a: Usage, b: Usage): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of b) {
    const o = a.get(k);
    if (o && o.milli > v.milli) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** prettyPrint (admission): `name=value` sorted by name, joined by ",". */
export function prettyPrint(u: Usage): string {
  return [...u.keys()]
    .sort()
    .map((k) => `${k}=${formatAmount(u.get(k)!)}`)
    .join(',');
}

/** True when two usages hold the same keys and amounts (quota.Equals). */
export function usageEquals(a: Usage, b: Usage): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k)?.milli !== v.milli) return false;
  return true;
}
