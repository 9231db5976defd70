/**
 * Quantity helpers for validation and QoS, over the engine's resource.Quantity
 * (api/quantity.ts, after k8s.io/apimachinery/pkg/api/resource/quantity.go).
 */
import { isQuantity as isQ, parseQuantity as parseQ, QUANTITY_FORMAT_ERROR } from '../../api/quantity';

export { QUANTITY_FORMAT_ERROR };

/** The numeric value of a quantity (string or number), or undefined when ParseQuantity rejects it. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined;
  try {
    const v = parseQ(q);
    return (v.negative ? -1 : 1) * (Number(v.num) / Number(v.den));
  } catch {
    return undefined;
  }
}

/** True when `q` is a syntactically valid quantity. */
export function isQuantity(q: unknown): boolean {
  return (typeof q === 'string' || typeof q === 'number') && isQ(q);
}
