/**
 * YAML output exactly as kustomize prints a resource: `Resource.AsYAML` marshals to JSON and
 * converts with sigs.k8s.io/yaml JSONToYAML, i.e. go-yaml v2 `yaml.Marshal` of the decoded
 * value. So: map keys in go-yaml v2's key order (keyList.Less, a natural sort), 2-space
 * indent, block sequences not indented under their key, best width 80 (long scalars folded at
 * spaces), strings that would resolve to another type double-quoted, strings that cannot be
 * plain single-quoted, multi-line strings as literal blocks.
 */

type Obj = Record<string, unknown>;

const WIDTH = 80;

/** go-yaml v2 keyList.Less for string keys. */
export function goYamlKeyLess(a: string, b: string): number {
  const ar = Array.from(a);
  const br = Array.from(b);
  const isDigit = (c: string) => c >= '0' && c <= '9';
  const isLetter = (c: string) => /\p{L}/u.test(c);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i] ? -1 : 1;
    if (al || bl) return (digits ? al : bl) ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai].charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ar[i] < br[i] ? -1 : 1;
  }
  return ar.length - br.length;
}

const SPECIAL = new Set([
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'true',
  'True',
  'TRUE',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
  'false',
  'False',
  'FALSE',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GOINT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)$/;
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]| )[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:Z|[-+][0-9]{1,2}(?::?[0-9]{2})?)?)?$/;

/** Whether go-yaml v2 would resolve the plain scalar `s` to something other than a string. */
function resolvesNonString(s: string): boolean {
  if (s === '' || SPECIAL.has(s)) return true;
  if (!/^[-+.0-9]/.test(s)) return false;
  const plain = s.replace(/_/g, '');
  if (GOINT.test(plain) || FLOAT.test(plain)) return true;
  if (BASE60.test(s)) return true;
  return /^[0-9]/.test(s) && TIMESTAMP.test(s);
}

const isBreak = (c: string | undefined) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlankz = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || isBreak(c);
function isPrintable(c: string): boolean {
  const x = c.codePointAt(0)!;
  return (
    x === 0x0a ||
    (x >= 0x20 && x <= 0x7e) ||
    x === 0x85 ||
    (x >= 0xa0 && x <= 0xd7ff) ||
    (x >= 0xe000 && x <= 0xfffd && x !== 0xfeff) ||
    x >= 0x10000
  );
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

/** yaml_emitter_analyze_scalar (block context only). */
function analyze(v: string): Analysis {
  if (v === '') return { multiline: false, blockPlain: true, single: true, block: false };
  const ch = Array.from(v);
  let blockInd = v.startsWith('---') || v.startsWith('...');
  let special = false;
  let leadingSpace = false,
    leadingBreak = false,
    trailingSpace = false,
    trailingBreak = false;
  let breakSpace = false,
    spaceBreak = false,
    prevSpace = false,
    prevBreak = false,
    lineBreaks = false;
  let precededByWs = true;
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i];
    const followedByWs = isBlankz(ch[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockInd = true;
      else if ((c === '?' || c === ':' || c === '-') && followedByWs) blockInd = true;
    } else if ((c === ':' && followedByWs) || (c === '#' && precededByWs)) blockInd = true;
    if (!isPrintable(c)) special = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === ch.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === ch.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlankz(c);
  }
  const a: Analysis = { multiline: lineBreaks, blockPlain: true, single: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) a.blockPlain = a.single = false;
  if (spaceBreak || special) a.blockPlain = a.single = a.block = false;
  if (lineBreaks) a.blockPlain = false;
  if (blockInd) a.blockPlain = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

function styleOf(s: string, simpleKey: boolean): Style {
  let style: Style = s.includes('\n') ? 'literal' : resolvesNonString(s) || BASE60.test(s) ? 'double' : 'plain';
  const a = analyze(s);
  if (style === 'plain' && (!a.blockPlain || (s === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

/** Writes a scalar that starts at `column` on the current line; `indent` is the continuation indent. */
function scalar(s: string, column: number, indent: number, simpleKey: boolean): string {
  const style = styleOf(s, simpleKey);
  const pad = ' '.repeat(indent);
  const ch = Array.from(s);
  if (style === 'literal') {
    let hint = '';
    if (ch[0] === ' ' || isBreak(ch[0])) hint += '2';
    if (!isBreak(ch[ch.length - 1])) hint += '-';
    else if (ch.length === 1 || isBreak(ch[ch.length - 2])) hint += '+';
    const body = s.endsWith('\n') ? s.slice(0, -1) : s;
    return (
      `|${hint}\n` +
      body
        .split('\n')
        .map((l) => (l === '' ? '' : pad + l))
        .join('\n')
    );
  }
  let out = style === 'single' ? "'" : style === 'double' ? '"' : '';
  let col = column + out.length;
  let spaces = false;
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i];
    if (c === ' ') {
      const breakOk =
        !simpleKey &&
        !spaces &&
        col > WIDTH &&
        (style === 'plain' ? ch[i + 1] !== ' ' : i !== 0 && i !== ch.length - 1 && (style === 'double' || ch[i + 1] !== ' '));
      if (breakOk) {
        out += '\n' + pad;
        col = indent;
        if (style === 'double' && ch[i + 1] === ' ') {
          out += '\\';
          col++;
        }
      } else {
        out += ' ';
        col++;
      }
      spaces = true;
      continue;
    }
    spaces = false;
    let w = c;
    if (style === 'single' && c === "'") w = "''";
    else if (style === 'double') w = doubleEscape(c);
    out += w;
    col += Array.from(w).length;
  }
  if (style === 'single') out += "'";
  if (style === 'double') out += '"';
  return out;
}

function doubleEscape(c: string): string {
  switch (c) {
    case '\0':
      return '\\0';
    case '\x07':
      return '\\a';
    case '\b':
      return '\\b';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\x0b':
      return '\\v';
    case '\f':
      return '\\f';
    case '\r':
      return '\\r';
    case '\x1b':
      return '\\e';
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\u0085':
      return '\\N';
    case '\u00a0':
      return '\\_';
    case '\u2028':
      return '\\L';
    case '\u2029':
      return '\\P';
  }
  if (!isPrintable(c)) {
    const x = c.codePointAt(0)!;
    if (x <= 0xff) return '\\x' + x.toString(16).toUpperCase().padStart(2, '0');
    if (x <= 0xffff) return '\\u' + x.toString(16).toUpperCase().padStart(4, '0');
    return '\\U' + x.toString(16).toUpperCase().padStart(8, '0');
  }
  return c;
}

/** strconv.FormatFloat(f, 'g', -1, 64) as go-yaml v2 prints a float64. */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (!Number.isFinite(n)) return n > 0 ? '+.inf' : '-.inf';
  if (Number.isInteger(n)) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function leaf(v: unknown, column: number, indent: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goFloat(v);
  return scalar(String(v), column, indent, false);
}

/** Lines of a node placed after a key (`key:` already written at `indent`). */
function afterKey(v: unknown, indent: number, column: number): string {
  if (isObj(v)) return Object.keys(v).length ? '\n' + mapping(v, indent + 2) : ' {}';
  if (Array.isArray(v)) return v.length ? '\n' + sequence(v, indent) : ' []';
  return ' ' + leaf(v, column + 1, indent + 2);
}

function mapping(o: Obj, indent: number, firstInline = false): string {
  const keys = Object.keys(o).sort(goYamlKeyLess);
  const pad = ' '.repeat(indent);
  return keys
    .map((k, i) => {
      const head = (firstInline && i === 0 ? '' : pad) + scalar(k, indent, indent, true) + ':';
      return head + afterKey(o[k], indent, indent + Array.from(head.trimStart()).length);
    })
    .join('\n');
}

function sequence(a: unknown[], indent: number): string {
  const pad = ' '.repeat(indent);
  return a
    .map((v) => {
      if (isObj(v)) return pad + '- ' + (Object.keys(v).length ? mapping(v, indent + 2, true) : '{}');
      if (Array.isArray(v)) return pad + '- ' + (v.length ? sequence(v, indent + 2).trimStart() : '[]');
      return pad + '- ' + leaf(v, indent + 2, indent + 2);
    })
    .join('\n');
}

/** One document as go-yaml v2 Marshal prints it (ends with a newline). */
export function toGoYaml(doc: unknown): string {
  if (isObj(doc)) return (Object.keys(doc).length ? mapping(doc, 0) : '{}') + '\n';
  if (Array.isArray(doc)) return (doc.length ? sequence(doc, 0) : '[]') + '\n';
  return leaf(doc, 0, 0) + '\n';
}
