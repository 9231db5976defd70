/**
 * Structural-schema validation of custom resources against a CRD's openAPIV3Schema, with
 * the messages kube-apiserver prints (k8s.io/apiextensions-apiserver/pkg/apiserver/validation,
 * backed by go-openapi/validate): type, required, enum, minimum/maximum, minLength/maxLength,
 * pattern, minItems/maxItems; unknown fields are pruned unless
 * x-kubernetes-preserve-unknown-fields is set (pkg/apiserver/schema/pruning).
 */
import type { FieldError } from '../api/errors';
import { getOwn, hasOwn, setOwn } from '../api/safe-object';

export interface JSONSchemaProps {
  type?: string;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  format?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/**
 * Validates `value` at `path` (e.g. "spec") against `schema`, pushing field errors.
 * Returns the pruned value (unknown fields removed).
 */
export function validateAgainstSchema(value: unknown, schema: JSONSchemaProps | undefined, path: string, errs: FieldError[]): unknown {
  if (!schema) return value;
  if (value === null && schema.nullable) return value;
  const t = typeOf(value);
  const intOrString = schema['x-kubernetes-int-or-string'];
  if (schema.type && !intOrString) {
    const ok = schema.type === t || (schema.type === 'number' && t === 'integer');
    if (!ok) {
      errs.push({
        type: 'Invalid',
        field: path,
        value,
        rawValue: `"${t}"`,
        detail: `${path} in body must be of type ${schema.type}: "${t}"`,
      });
      return value;
    }
  } else if (intOrString && t !== 'integer' && t !== 'string') {
    errs.push({
      type: 'Invalid',
      field: path,
      value,
      rawValue: `"${t}"`,
      detail: `${path} in body must be of type integer,string: "${t}"`,
    });
    return value;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.push({
      type: 'NotSupported',
      field: path,
      value,
      supported: schema.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
    });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body should be greater than or equal to ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum)
      errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body should be less than or equal to ${schema.maximum}` });
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength)
      errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body should be at least ${schema.minLength} chars long` });
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength)
      errs.push({ type: 'TooLong', field: path, value, detail: `may not be more than ${schema.maxLength} bytes` });
    if (schema.pattern !== undefined) {
      let re: RegExp | null = null;
      try {
        re = new RegExp(schema.pattern);
      } catch {
        re = null;
      }
      if (re && !re.test(value))
        errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body should match '${schema.pattern}'` });
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body should have at least ${schema.minItems} items` });
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errs.push({ type: 'TooMany', field: path, value, detail: `must have at most ${schema.maxItems} items` });
    return value.map((v, i) => validateAgainstSchema(v, schema.items, `${path}[${i}]`, errs));
  }
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!hasOwn(obj, r)) errs.push({ type: 'Required', field: path ? `${path}.${r}` : r });
    const out: Record<string, unknown> = {};
    const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
    for (const [k, v] of Object.entries(obj)) {
      const sub =
        getOwn(schema.properties, k) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      const childPath = path ? `${path}.${k}` : k;
      if (sub) setOwn(out, k, validateAgainstSchema(v, sub, childPath, errs));
      else if (preserve || schema.additionalProperties === true || (!schema.properties && !schema.type)) setOwn(out, k, v);
      // else: pruned, as the apiserver prunes unknown fields of structural schemas
    }
    return out;
  }
  return value;
}
