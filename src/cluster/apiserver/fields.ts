/**
 * Field selectors (`?fieldSelector=spec.nodeName=node-1`, `kubectl get --field-selector`),
 * as k8s.io/apimachinery/pkg/fields with each resource's supported fields
 * (pkg/registry/core/pod/strategy.go ToSelectableFields and friends).
 */
import type { KObject } from '../api/types';
import { getOwn } from '../api/safe-object';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** Parses `a=b,c!=d` (also `==`). Throws Error on bad syntax. */
export function parseFieldSelector(text: string | undefined): FieldRequirement[] {
  if (!text || !text.trim()) return [];
  return text.split(',').map((part) => {
    const m = part.trim().match(/^([^=!]+?)\s*(==|=|!=)\s*(.*)$/);
    if (!m) throw new Error(`invalid selector: '${part}'; can't understand '${part}'`);
    return { field: m[1], op: m[2] === '!=' ? '!=' : '=', value: m[3] };
  });
}

/** Reads a selectable field's value ("" when absent), e.g. spec.nodeName or involvedObject.name. */
export function fieldValue(obj: KObject, field: string): string {
  let cur: unknown = obj;
  for (const p of field.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = getOwn(cur as Record<string, unknown>, p);
  }
  if (cur === undefined || cur === null) return '';
  return String(cur);
}

/** True when the object satisfies every requirement. */
export function fieldsMatch(obj: KObject, reqs: FieldRequirement[]): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.field);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

/**
 * The name a list/watch's field selector pins, as endpoints/request/requestinfo.go reads it
 * into the request info (fieldSelector.RequiresExactMatch("metadata.name"), kept only when
 * path.IsValidPathSegmentName: not "." or "..", no "/" or "%"); "" when none. The authorizers
 * see it as the request's name (RBAC resourceNames, the Node authorizer's own-Node check).
 */
export function requestInfoName(reqs: FieldRequirement[] | undefined): string {
  const r = reqs?.find((q) => q.field === 'metadata.name' && q.op === '=');
  if (!r || r.value === '.' || r.value === '..' || /[/%]/.test(r.value)) return '';
  return r.value;
}
