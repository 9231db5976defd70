/**
 * Unknown-field detection for server-side field validation (`kubectl apply --validate=
 * strict|warn`, KEP-2885): the strict decoder of sigs.k8s.io/json (UnmarshalStrict) over the
 * Go types of every built-in kind the engine serves (apiserver/go-types.generated.ts, from
 * kubernetes-types plus the v1.33 additions listed in src/cli/gen-go-types.ts). Paths print as
 * the apiserver's strict decoder prints them: `spec.template.spec.containers[0].imagePullPolcy`.
 *
 * Not checked: map values (label values, ResourceList entries…), opaque fields (RawExtension,
 * FieldsV1), custom resources, and the top-level `status` (written by the engine's own
 * components; kubectl manifests rarely carry one). `__proto__`-like keys are reported anywhere.
 */
import { goKindKey, goStructFields, type GoType } from '../apiserver/decode';
import { parseApiVersion } from '../api/resources';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Paths of fields the kind's Go type does not know (plus any `__proto__`-like key anywhere). */
export function unknownFields(kind: string, obj: unknown): string[] {
  const out: string[] = [];
  const apiVersion = obj && typeof obj === 'object' ? (obj as { apiVersion?: unknown }).apiVersion : undefined;
  const [group, version] = typeof apiVersion === 'string' ? parseApiVersion(apiVersion) : ['', ''];
  const key = goKindKey(group, version, kind);
  if (key) walkStruct(obj, key, '', out, true);
  else walkForbidden(obj, '', out);
  return out;
}

function walkStruct(v: unknown, key: string, path: string, out: string[], top = false): void {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return;
  const fields = goStructFields(key);
  for (const k of Object.keys(v)) {
    const p = path ? `${path}.${k}` : k;
    const child = (v as Record<string, unknown>)[k];
    const t = FORBIDDEN_KEYS.has(k) ? undefined : fields?.get(k);
    if (!t) out.push(p);
    else if (top && k === 'status') walkForbidden(child, p, out);
    else walkType(child, t, p, out);
  }
}

function walkType(v: unknown, t: GoType, path: string, out: string[]): void {
  if (t.k === 'struct') walkStruct(v, t.key, path, out);
  else if (t.k === 'slice' && Array.isArray(v)) v.forEach((e, i) => walkType(e, t.elem, `${path}[${i}]`, out));
  else walkForbidden(v, path, out);
}

function walkForbidden(v: unknown, path: string, out: string[]): void {
  if (Array.isArray(v)) {
    v.forEach((e, i) => walkForbidden(e, `${path}[${i}]`, out));
    return;
  }
  if (!v || typeof v !== 'object') return;
  for (const k of Object.keys(v)) {
    const p = path ? `${path}.${k}` : k;
    if (FORBIDDEN_KEYS.has(k)) out.push(p);
    else walkForbidden((v as Record<string, unknown>)[k], p, out);
  }
}

/** Removes the given paths from the object (what the decoder drops with Warn/Ignore). */
export function dropFields(obj: Record<string, unknown>, paths: string[]): void {
  for (const p of paths) {
    const parts = p.match(/[^.[\]]+|\[\d+\]/g) ?? [];
    let cur: any = obj;
    for (let i = 0; i < parts.length - 1 && cur; i++) {
      const part = parts[i];
      cur = part.startsWith('[') ? cur[Number(part.slice(1, -1))] : cur[part];
    }
    const last = parts[parts.length - 1];
    if (cur && typeof cur === 'object' && last) delete cur[last];
  }
}
