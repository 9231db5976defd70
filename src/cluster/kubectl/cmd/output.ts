/**
 * kubectl's object printers: YAML (k8s.io/cli-runtime/pkg/printers/yaml.go, via
 * sigs.k8s.io/yaml: keys sorted, sequences not indented), JSON (json.go: MarshalIndent with
 * four spaces and Go's HTML escaping), and the List wrapper kubectl builds for several objects.
 */
import { Document, Scalar, visit } from 'yaml';
import type { KObject } from '../../api/types';
import { goYamlNeedsDoubleQuotes } from './go-yaml-resolve';

/** Deep copy with every map's keys sorted (Go's map marshalling order). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      // defineProperty: a "__proto__" map key (ConfigMap data…) stays an own key, not a prototype
      if (x !== undefined) Object.defineProperty(out, k, { value: sortKeys(x), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v;
}

/**
 * What `-o yaml` prints for an object: sigs.k8s.io/yaml (goyaml.v2) style. Strings that YAML 1.1
 * would read as another type are double-quoted (go-yaml-resolve.ts: `creationTimestamp:
 * "2026-01-01T00:00:20Z"`, `"yes"`, `"80"`), multi-line strings are literal blocks, and a
 * string plain style cannot hold is single-quoted, as libyaml's emitter does (`'*'`).
 */
export function toYAML(obj: unknown): string {
  const doc = new Document(sortKeys(obj), { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (node.value.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
      else if (goYamlNeedsDoubleQuotes(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ indentSeq: false, lineWidth: 0, minContentWidth: 0, singleQuote: true });
}

/** What `-o json` prints for an object. */
export function toJSON(obj: unknown): string {
  return JSON.stringify(sortKeys(obj), null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

/** The v1 List kubectl prints for several objects. */
export function listOf(items: KObject[]): KObject {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } } as unknown as KObject;
}
