/**
 * kubectl's object printers: YAML (k8s.io/cli-runtime/pkg/printers/yaml.go, via
 * sigs.k8s.io/yaml: keys sorted, sequences not indented), JSON (json.go: MarshalIndent with
 * four spaces and Go's HTML escaping), and the List wrapper kubectl builds for several objects.
 */
import { stringify } from 'yaml';
import type { KObject } from '../../api/types';

/** Deep copy with every map's keys sorted (Go's map marshalling order). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

/** What `-o yaml` prints for an object. */
export function toYAML(obj: unknown): string {
  return stringify(sortKeys(obj), { indentSeq: false, lineWidth: 0, minContentWidth: 0 });
}

/** What `-o json` prints for an object. */
export function toJSON(obj: unknown): string {
  return JSON.stringify(sortKeys(obj), null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

/** The v1 List kubectl prints for several objects. */
export function listOf(items: KObject[]): KObject {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } } as unknown as KObject;
}
