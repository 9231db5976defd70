/**
 * Writes a large JSON value in pieces, byte for byte the text of `JSON.stringify(value)` (compact,
 * what `npm run scenario` prints) or of `JSON.stringify(value, null, 2)` (its `--pretty`), so that a
 * result with a million relay hops never has to exist as one string (V8's strings stop at 2^29
 * characters, about 512 MiB, and `JSON.stringify` would throw). Pieces are joined into chunks of
 * about `chunk` characters before each write.
 */

/** JSON.stringify(v, null, indent) of one value, indented to sit at `depth`. */
function leaf(v: unknown, depth: number, indent: number): string {
  if (!indent) return JSON.stringify(v) ?? 'null';
  const s = JSON.stringify(v, null, indent) ?? 'null';
  return depth ? s.replace(/\n/g, `\n${' '.repeat(indent * depth)}`) : s;
}

const isPlain = (v: unknown): v is Record<string, unknown> | unknown[] =>
  typeof v === 'object' &&
  v !== null &&
  (Array.isArray(v) || (Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function'));

function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function emit(v: unknown, depth: number, streamDepth: number, indent: number, write: (s: string) => void): void {
  if (depth >= streamDepth || !isPlain(v)) {
    write(leaf(v, depth, indent));
    return;
  }
  // the separators JSON.stringify puts between members: ",\n" + padding, or "," when compact
  const open = indent ? `\n${' '.repeat(indent * (depth + 1))}` : '';
  const sep = indent ? `,${open}` : ',';
  const close = indent ? `\n${' '.repeat(indent * depth)}` : '';
  if (Array.isArray(v)) {
    if (v.length === 0) return write('[]');
    write(`[${open}`);
    v.forEach((x, i) => {
      if (skipped(x)) write('null');
      else emit(x, depth + 1, streamDepth, indent, write);
      write(i < v.length - 1 ? sep : close);
    });
    write(']');
    return;
  }
  const keys = Object.keys(v).filter((k) => !skipped(v[k]));
  if (keys.length === 0) return write('{}');
  write(`{${open}`);
  keys.forEach((k, i) => {
    write(`${JSON.stringify(k)}:${indent ? ' ' : ''}`);
    emit(v[k], depth + 1, streamDepth, indent, write);
    write(i < keys.length - 1 ? sep : close);
  });
  write('}');
}

/**
 * Writes `JSON.stringify(value, null, indent) + "\n"` through `write`, in pieces of about
 * `chunk` characters; lists and mappings down to `streamDepth` levels are written element
 * by element. `indent` 2 (the default) is `--pretty`'s layout, 0 the compact one.
 */
export function writeJSON(value: unknown, write: (s: string) => void, streamDepth = 3, chunk = 1 << 20, indent = 2): void {
  let buf: string[] = [];
  let size = 0;
  const push = (s: string) => {
    buf.push(s);
    size += s.length;
    if (size >= chunk) {
      write(buf.join(''));
      buf = [];
      size = 0;
    }
  };
  emit(value, 0, streamDepth, indent, push);
  push('\n');
  if (buf.length) write(buf.join(''));
}
