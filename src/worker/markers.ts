/**
 * Where in the editor kubectl's answers belong: turns apply / dry-run results into editor
 * markers (line, column, message). Runs in the worker — the UI never parses YAML.
 *
 * A result names the line its document starts on; the field path in the apiserver's message
 * (`spec.template.metadata.labels: Invalid value: …`, `unknown field "spec.replica"`) is looked
 * up in that document's YAML AST, and the marker goes on the deepest key of the path that
 * exists. YAML syntax errors carry their own line and column.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { ApplyResult } from '../cluster/kubectl/apply';
import { MAX_MANIFEST_CHARS, parseManifest, splitYAMLDocuments } from '../cluster/kubectl/parse';

export interface EditorMarker {
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  severity: 'error' | 'warning';
}

/** End column used for "the whole line" (Monaco clamps it to the line's length). */
const LINE_END = 10_000;

const FIELD_ERROR =
  /((?:[A-Za-z_$][\w$-]*(?:\[[^\]]*\])*)(?:\.[A-Za-z_$][\w$-]*(?:\[[^\]]*\])*)*): (?:Invalid value|Required value|Unsupported value|Forbidden|Duplicate value|Too many|Too long|Not found|Internal error)/g;
const UNKNOWN_FIELD = /unknown field "([^"]+)"/g;

/** Field paths mentioned in an apiserver message, in order. */
export function fieldPaths(message: string): string[] {
  const out: string[] = [];
  for (const re of [FIELD_ERROR, UNKNOWN_FIELD]) {
    re.lastIndex = 0;
    for (let m = re.exec(message); m; m = re.exec(message)) if (!out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/** "spec.containers[0].image" → ["spec", "containers", 0, "image"]; map keys in brackets stay strings. */
export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = part.match(/^([^[]*)((?:\[[^\]]*\])*)$/);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const b of m[2].match(/\[[^\]]*\]/g) ?? []) {
      const inner = b.slice(1, -1);
      out.push(/^\d+$/.test(inner) ? Number(inner) : inner);
    }
  }
  return out;
}

interface Chunk {
  text: string;
  line: number;
  doc?: { contents: Node | null };
  counter?: LineCounter;
}

/** The range (offsets in the chunk) of the deepest key of `path` present in the document. */
function locate(contents: Node | null, path: (string | number)[]): [number, number] | null {
  let node: unknown = contents;
  let found: [number, number] | null = null;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) break;
      const k = pair.key as Node;
      if (k?.range) found = [k.range[0], k.range[1]];
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) break;
      if (item.range) found = [item.range[0], item.range[0] + 1];
      node = item;
    } else break;
  }
  return found;
}

/** Markers for the results of an apply or dry run of `text`. */
export function markersFor(text: string, results: readonly ApplyResult[]): EditorMarker[] {
  const chunks: Chunk[] | null = text.length <= MAX_MANIFEST_CHARS ? splitYAMLDocuments(text) : null;
  const chunkAt = (line: number): Chunk | undefined => {
    if (!chunks) return undefined;
    let c: Chunk | undefined;
    for (const x of chunks) if (x.line <= line) c = x;
    return c;
  };
  const whole = (line: number, message: string, severity: EditorMarker['severity']): EditorMarker => ({
    line,
    column: 1,
    endLine: line,
    endColumn: LINE_END,
    message,
    severity,
  });
  const at = (r: ApplyResult, message: string, severity: EditorMarker['severity']): EditorMarker => {
    const chunk = chunkAt(r.line);
    const paths = fieldPaths(message);
    if (chunk && paths.length) {
      if (!chunk.doc) {
        chunk.counter = new LineCounter();
        chunk.doc = parseDocument(chunk.text, { lineCounter: chunk.counter, uniqueKeys: false, version: '1.1' }) as {
          contents: Node | null;
        };
      }
      for (const p of paths) {
        const range = locate(chunk.doc.contents, splitPath(p));
        if (!range) continue;
        const a = chunk.counter!.linePos(range[0]);
        const b = chunk.counter!.linePos(range[1]);
        return { line: chunk.line + a.line - 1, column: a.col, endLine: chunk.line + b.line - 1, endColumn: b.col, message, severity };
      }
    }
    return whole(r.line, message, severity);
  };

  const out: EditorMarker[] = [];
  for (const r of results) {
    for (const w of r.warnings) out.push(at(r, `Warning: ${w}`, 'warning'));
    if (r.action !== 'error' || !r.message) continue;
    if (r.message.includes('error converting YAML to JSON') || r.message.includes('yaml: ')) {
      // a syntax error: parse again for the column (the result has the line only)
      const bad = text.length <= MAX_MANIFEST_CHARS ? parseManifest(text).find((c) => c.error !== undefined) : undefined;
      const line = bad?.errorLine ?? r.line;
      const col = bad?.errorColumn ?? 1;
      out.push({ line, column: col, endLine: line, endColumn: LINE_END, message: r.message, severity: 'error' });
      continue;
    }
    out.push(at(r, r.message, 'error'));
  }
  return out;
}
