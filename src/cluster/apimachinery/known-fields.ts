/**
 * Unknown-field detection for server-side field validation (`kubectl apply --validate=
 * strict|warn`, KEP-2885): the strict decoder of sigs.k8s.io/json (UnmarshalStrict) over the
 * Go types of every built-in kind the engine serves (apimachinery/go-types.generated.ts, from
 * kubernetes-types plus the v1.33 additions listed in src/cli/gen-go-types.ts). Paths print as
 * the apiserver's strict decoder prints them: `spec.template.spec.containers[0].imagePullPolcy`.
 *
 * Only struct fields are fields: the keys of Go maps (labels, annotations, ConfigMap `data`,
 * ResourceList…) are data, so `data: {__proto__: x, toString: y}` or an annotation named
 * `constructor` decode fine, as on a real apiserver (map values are still walked when the map
 * holds structs). A `__proto__` key where a struct is expected is an unknown field like any
 * other (the struct has no such field); it never reaches a prototype because the parser and
 * `deepCopy` keep it an own data property.
 *
 * Not checked: opaque fields (RawExtension, FieldsV1, `interface{}`), custom resources, and the
 * top-level `status` (written by the engine's own components; kubectl manifests rarely carry one).
 */
import { goKindKey, goStructFields, type GoType } from './go-types';
import { parseApiVersion } from '../api/resources';

/** Paths of fields the kind's Go type does not know, in document order (`spec.containers[0].imagee`). */
export function unknownFields(kind: string, obj: unknown): string[] {
  const out: string[] = [];
  const apiVersion = obj && typeof obj === 'object' ? (obj as { apiVersion?: unknown }).apiVersion : undefined;
  const [group, version] = typeof apiVersion === 'string' ? parseApiVersion(apiVersion) : ['', ''];
  const key = goKindKey(group, version, kind);
  if (key) walkStruct(obj, key, '', out, true);
  return out;
}

function walkStruct(v: unknown, key: string, path: string, out: string[], top = false): void {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return;
  const fields = goStructFields(key);
  for (const k of Object.keys(v)) {
    const p = path ? `${path}.${k}` : k;
    const t = fields?.get(k);
    if (!t) out.push(p);
    else if (!(top && k === 'status')) walkType((v as Record<string, unknown>)[k], t, p, out);
  }
}

function walkType(v: unknown, t: GoType, path: string, out: string[]): void {
  if (t.k === 'struct') walkStruct(v, t.key, path, out);
  else if (t.k === 'slice' && Array.isArray(v)) v.forEach((e, i) => walkType(e, t.elem, `${path}[${i}]`, out));
  else if (t.k === 'map' && v && typeof v === 'object' && !Array.isArray(v)) {
    // keys are data, not fields: only the values are decoded against the element type
    for (const k of Object.keys(v)) walkType((v as Record<string, unknown>)[k], t.elem, `${path}.${k}`, out);
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
