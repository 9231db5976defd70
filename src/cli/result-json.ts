/**
 * Writes a large JSON value in pieces, byte for byte the text of `JSON.stringify(value, null,
 * 2)`, so that a result with a million relay hops never has to exist as one string (V8's
 * strings stop at 2^29 characters, about 512 MiB, and `JSON.stringify` would throw).
 */

/** JSON.stringify(v, null, 2) of one value, indented to sit at `depth`. */
function leaf(v: unknown, depth: number): string {
  const s = JSON.stringify(v, null, 2) ?? 'null';
  return depth ? s.replace(/\n/g, `\n${'  '.repeat(depth)}`) : s;
}

const isPlain = (v: unknown): v is Record<string, unknown> | unknown[] =>
  typeof v === 'object' && v !== null && (Array.isArray(v) || (Object.getPrototypeOf(v) === Object.prototype && typeof (v as { toJSON?: unknown }).toJSON !== 'function'));

function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function emit(v: unknown, depth: number, streamDepth: number, write: (s: string) => void): void {
  if (depth >= streamDepth || !isPlain(v)) {
    write(leaf(v, depth));
    return;
  }
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(v)) {
    if (v.length === 0) return write('[]');
    write('[\n');
    v.forEach((x, i) => {
      write(pad);
      if (skipped(x)) write('null');
      else emit(x, depth + 1, streamDepth, write);
      write(i < v.length - 1 ? ',\n' : '\n');
    });
    write(`${'  '.repeat(depth)}]`);
    return;
  }
  const keys = Object.keys(v).filter((k) => !skipped(v[k]));
  if (keys.length === 0) return write('{}');
  write('{\n');
  keys.forEach((k, i) => {
    write(`${pad}${JSON.stringify(k)}: `);
    emit(v[k], depth + 1, streamDepth, write);
    write(i < keys.length - 1 ? ',\n' : '\n');
  });
  write(`${'  '.repeat(depth)}}`);
}

/**
 * Writes `JSON.stringify(value, null, 2) + "\n"` through `write`, in pieces of about
 * `chunk` characters; lists and mappings down to `streamDepth` levels are written element
 * by element.
 */
export function writeJSON(value: unknown, write: (s: string) => void, streamDepth = 3, chunk = 1 << 20): void {
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
  emit(value, 0, streamDepth, push);
  push('\n');
  if (buf.length) write(buf.join(''));
}
