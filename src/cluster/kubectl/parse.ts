/**
 * Manifest parsing as kubectl's resource builder does it
 * (k8s.io/apimachinery/pkg/util/yaml YAMLReader splits on `---` lines; each chunk goes
 * through sigs.k8s.io/yaml, i.e. go-yaml v2 (YAML 1.1) to JSON; empty and `null` chunks
 * are skipped; a syntax error stops the stream with
 * `error parsing STDIN: error converting YAML to JSON: yaml: line N: …`, N counted from
 * the start of the chunk).
 *
 * Duplicate mapping keys are accepted and the last one wins, as in kubectl (its builder's
 * sigs.k8s.io/yaml is not strict; golden: testdata/golden/kubectl-decode.json).
 *
 * Hardening: aliases are bounded (maxAliasCount), `__proto__` keys become inert own
 * properties that the caller reports as unknown fields, timestamps become RFC 3339 strings.
 */
import { parseDocument, type YAMLError } from 'yaml';

/** One `---`-separated chunk. */
export interface ManifestChunk {
  /** 0-based index among non-empty chunks. */
  index: number;
  /** 1-based line (in the whole text) where the chunk starts. */
  line: number;
  /** The JSON value, when it parsed. */
  value?: unknown;
  /** go-yaml-style message without the `error parsing SRC: ` prefix, when it did not. */
  error?: string;
  /** 1-based line and column of the error in the whole text (editor markers). */
  errorLine?: number;
  errorColumn?: number;
}

/** Largest number of alias expansions per document (billion-laughs guard). */
export const MAX_ALIAS_COUNT = 100;
/** Largest manifest accepted, in characters (kubectl has no limit; the UI must not freeze). */
export const MAX_MANIFEST_CHARS = 3 * 1024 * 1024;

/** Splits the text as YAMLReader does: a line starting with `---` (then nothing or a comment) ends the current document (YAML text) */
export function splitYAMLDocuments(text: string): { text: string; line: number }[] {
  const lines = text.split('\n');
  const out: { text: string; line: number }[] = [];
  let buf: string[] = [];
  let start = 1;
  lines.forEach((l, i) => {
    if (l.startsWith('---')) {
      const rest = l.slice(3).trim();
      if (rest.length === 0 || rest.startsWith('#')) {
        out.push({ text: buf.join('\n'), line: start });
        buf = [];
        start = i + 2;
        return;
      }
    }
    buf.push(l);
  });
  out.push({ text: buf.join('\n'), line: start });
  return out;
}

/**
 * The line go-yaml reports: where its scanner stands when it fails. For a key that runs over
 * two lines ("a: 1\n   b: 2"), that is the line of the offending `:` — the end of the yaml
 * library's MULTILINE_IMPLICIT_KEY range — not where the key starts.
 */
function goYamlLine(err: YAMLError): number | undefined {
  if (err.code === 'MULTILINE_IMPLICIT_KEY') return err.linePos?.[1]?.line ?? err.linePos?.[0].line;
  return err.linePos?.[0].line;
}

/** The error go-yaml would hit first: a multi-line implicit key wins over the compact-mapping error it implies. */
function firstGoYamlError(errors: YAMLError[]): YAMLError | undefined {
  return errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY') ?? errors[0];
}

function goYamlMessage(err: YAMLError): string {
  const line = goYamlLine(err);
  const at = line !== undefined ? `line ${line}: ` : '';
  const m = err.message;
  switch (err.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return `yaml: ${at}mapping values are not allowed in this context`;
    case 'TAB_AS_INDENT':
      return `yaml: ${at}found character that cannot start any token`;
    case 'MISSING_CHAR':
      if (/quote/.test(m)) return `yaml: ${at}found unexpected end of stream`;
      if (/\]/.test(m)) return `yaml: ${at}did not find expected ',' or ']'`;
      if (/\}/.test(m)) return `yaml: ${at}did not find expected ',' or '}'`;
      return `yaml: ${at}did not find expected key`;
    case 'BAD_INDENT':
      if (/Flow sequence/.test(m)) return `yaml: ${at}did not find expected ',' or ']'`;
      if (/Flow mapping/.test(m)) return `yaml: ${at}did not find expected ',' or '}'`;
      return `yaml: ${at}did not find expected key`;
    case 'UNEXPECTED_TOKEN':
      if (/@|`/.test(m)) return `yaml: ${at}found character that cannot start any token`;
      return `yaml: ${at}did not find expected key`;
    case 'DUPLICATE_KEY':
      return `yaml: ${at}did not find expected key`;
    default:
      return `yaml: ${at}did not find expected key`;
  }
}

/** Converts yaml's JS values to what sigs.k8s.io/yaml produces (timestamps as RFC 3339, byte arrays as base64). */
function normalize(v: unknown, depth = 0): unknown {
  if (depth > 200) throw new Error('yaml: exceeded max depth of 200');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Uint8Array) {
    let s = '';
    for (const b of v) s += String.fromCharCode(b);
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => normalize(x, depth + 1));
  if (v instanceof Map) {
    // keys as sigs.k8s.io/yaml prints them (true → "true", 1 → "1"); defineProperty keeps
    // "__proto__" an inert own key instead of a prototype
    const out: Record<string, unknown> = {};
    for (const [k, val] of v) {
      Object.defineProperty(out, String(k), { value: normalize(val, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const val = normalize((v as Record<string, unknown>)[k], depth + 1);
      Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/**
 * Parses a manifest into chunks. Stops after the first chunk with a syntax error (kubectl
 * stops the stream there). Chunks that are empty or `null` are dropped.
 */
export function parseManifest(text: string): ManifestChunk[] {
  const out: ManifestChunk[] = [];
  if (text.length > MAX_MANIFEST_CHARS) {
    return [
      {
        index: 0,
        line: 1,
        error: `yaml: manifest too large (${text.length} characters; at most ${MAX_MANIFEST_CHARS})`,
        errorLine: 1,
        errorColumn: 1,
      },
    ];
  }
  for (const chunk of splitYAMLDocuments(text)) {
    const doc = parseDocument(chunk.text, {
      version: '1.1',
      uniqueKeys: false,
      prettyErrors: true,
      merge: true,
      customTags: (tags) => tags.filter((t) => (t as { format?: string }).format !== 'TIME'),
    });
    const err = firstGoYamlError(doc.errors);
    if (err) {
      const ln = err.linePos?.[0];
      const goLine = goYamlLine(err);
      out.push({
        index: out.length,
        line: chunk.line,
        error: `error converting YAML to JSON: ${goYamlMessage(err)}`,
        errorLine: goLine ? chunk.line + goLine - 1 : chunk.line,
        errorColumn: goLine === ln?.line ? (ln?.col ?? 1) : 1,
      });
      return out;
    }
    let value: unknown;
    try {
      value = normalize(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT, mapAsMap: true }));
    } catch (e) {
      const msg = String((e as Error).message ?? e);
      const alias = msg.match(/Unresolved alias[^:]*: (.*)$/);
      const error = alias
        ? `error converting YAML to JSON: yaml: unknown anchor '${alias[1]}' referenced`
        : /alias/i.test(msg)
          ? 'error converting YAML to JSON: yaml: document contains excessive aliasing'
          : `error converting YAML to JSON: ${msg}`;
      out.push({ index: out.length, line: chunk.line, error, errorLine: chunk.line, errorColumn: 1 });
      return out;
    }
    if (value === null || value === undefined) continue;
    // a chunk of only comments is null; whitespace-only text also parses to null
    out.push({ index: out.length, line: firstContentLine(chunk.text, chunk.line), value });
  }
  return out;
}

function firstContentLine(text: string, start: number): number {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t && !t.startsWith('#')) return start + i;
  }
  return start;
}
