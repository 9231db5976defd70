/**
 * The parser of the small POSIX shell (shell.ts): tokens (words with quoting and `$VAR`
 * parts, operators) and a tree of lists, and-or lists, pipelines, loops, `if`, `for` and
 * simple commands with redirections, following the grammar of POSIX.1-2017 XCU 2.10 as
 * busybox ash accepts it. Throws on syntax the interpreter does not model (`$(…)`, globs),
 * which makes the process *assumed*.
 */
export type Part = { lit: string } | { v: string; quoted: boolean };
export type Word = Part[];
export interface Redir {
  fd: number;
  op: '>' | '>>' | '<' | '>&';
  target: Word;
}
export type Node =
  | { t: 'cmd'; words: Word[]; redirs: Redir[] }
  | { t: 'and' | 'or'; a: Node; b: Node }
  | { t: 'seq'; list: Node[] }
  | { t: 'pipe'; list: Node[] }
  | { t: 'not'; a: Node }
  | { t: 'loop'; until: boolean; cond: Node; body: Node }
  | { t: 'if'; cond: Node; thenPart: Node; else?: Node }
  | { t: 'for'; v: string; items: Word[]; body: Node };

type Tok = { k: 'w'; w: Word; raw: string } | { k: 'op'; v: string };

/** Splits a script into tokens. Throws on syntax this shell does not model. */
function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === ' ' || ch === '\t' || (ch === '\\' && s[i + 1] === '\n')) {
      i += ch === '\\' ? 2 : 1;
      continue;
    }
    if (ch === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    const two = s.slice(i, i + 2);
    if (['&&', '||', '>>', ';;'].includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if (/^[0-9]>/.test(two) && (s[i + 2] === '&' || true)) {
      const fd = two[0];
      if (s[i + 2] === '&') {
        out.push({ k: 'op', v: `${fd}>&` });
        i += 3;
        continue;
      }
      if (s[i + 2] === '>') {
        out.push({ k: 'op', v: `${fd}>>` });
        i += 3;
        continue;
      }
      out.push({ k: 'op', v: `${fd}>` });
      i += 2;
      continue;
    }
    if (';|&<>\n()'.includes(ch)) {
      out.push({ k: 'op', v: ch === '\n' ? ';' : ch });
      i++;
      continue;
    }
    const w: Word = [];
    let raw = '';
    let lit = '';
    const flush = () => {
      if (lit) w.push({ lit });
      lit = '';
    };
    const readVar = (quoted: boolean) => {
      i++;
      if (s[i] === '{') {
        const j = s.indexOf('}', i);
        if (j < 0) throw new Error('bad substitution');
        flush();
        w.push({ v: s.slice(i + 1, j), quoted });
        i = j + 1;
      } else if (s[i] === '(' || s[i] === '`') throw new Error('command substitution');
      else {
        const m = /^([A-Za-z_][A-Za-z0-9_]*|[?$#0-9])/.exec(s.slice(i));
        if (!m) {
          lit += '$';
          return;
        }
        flush();
        w.push({ v: m[1], quoted });
        i += m[1].length;
      }
    };
    while (i < s.length && !' \t\n;|&<>()'.includes(s[i])) {
      const c = s[i];
      if (c === "'") {
        const j = s.indexOf("'", i + 1);
        if (j < 0) throw new Error('unterminated quoted string');
        lit += s.slice(i + 1, j);
        raw += s.slice(i, j + 1);
        i = j + 1;
      } else if (c === '"') {
        const start = i;
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && '"\\$`\n'.includes(s[i + 1] ?? '')) {
            lit += s[i + 1];
            i += 2;
          } else if (s[i] === '$') readVar(true);
          else if (s[i] === '`') throw new Error('command substitution');
          else lit += s[i++];
        }
        if (i >= s.length) throw new Error('unterminated quoted string');
        i++;
        raw += s.slice(start, i);
        if (!w.length && !lit) w.push({ lit: '' });
      } else if (c === '\\') {
        lit += s[i + 1] ?? '';
        raw += s.slice(i, i + 2);
        i += 2;
      } else if (c === '$') {
        const st = i;
        readVar(false);
        raw += s.slice(st, i);
      } else if (c === '`' || c === '*' || c === '?') throw new Error('unsupported syntax');
      else {
        lit += c;
        raw += c;
        i++;
      }
    }
    flush();
    out.push({ k: 'w', w, raw });
  }
  return out;
}

const RESERVED = new Set(['do', 'done', 'then', 'else', 'elif', 'fi', 'in', '{', '}']);

/** Parses a script into a tree. Throws on syntax this shell does not model. */
export function parse(script: string): Node {
  const toks = tokenize(script);
  let p = 0;
  const peekWord = (): string | undefined => {
    const t = toks[p];
    return t && t.k === 'w' && t.w.length === 1 && 'lit' in t.w[0] ? t.w[0].lit : t && t.k === 'w' && t.w.length === 0 ? '' : undefined;
  };
  const isOp = (v: string) => toks[p]?.k === 'op' && (toks[p] as { v: string }).v === v;
  const skipSeps = () => {
    while (isOp(';')) p++;
  };
  const expect = (kw: string) => {
    skipSeps();
    if (peekWord() !== kw) throw new Error(`syntax error: expected ${kw}`);
    p++;
  };
  function list(stops: string[]): Node {
    const items: Node[] = [];
    for (;;) {
      skipSeps();
      if (p >= toks.length || isOp(')')) break;
      const w = peekWord();
      if (w !== undefined && stops.includes(w)) break;
      items.push(andOr());
      if (isOp(';') || isOp('&')) p++;
      else if (p < toks.length && !(peekWord() !== undefined && stops.includes(peekWord()!))) {
        if (!isOp(')')) throw new Error('syntax error');
      }
    }
    return items.length === 1 ? items[0] : { t: 'seq', list: items };
  }
  function andOr(): Node {
    let n = pipeline();
    while (isOp('&&') || isOp('||')) {
      const op = (toks[p++] as { v: string }).v;
      skipSeps();
      n = { t: op === '&&' ? 'and' : 'or', a: n, b: pipeline() };
    }
    return n;
  }
  function pipeline(): Node {
    let neg = false;
    if (peekWord() === '!') {
      neg = true;
      p++;
    }
    const list: Node[] = [command()];
    while (isOp('|')) {
      p++;
      skipSeps();
      list.push(command());
    }
    const n: Node = list.length === 1 ? list[0] : { t: 'pipe', list };
    return neg ? { t: 'not', a: n } : n;
  }
  function command(): Node {
    const w = peekWord();
    if (w === 'while' || w === 'until') {
      p++;
      const cond = list(['do']);
      expect('do');
      const body = list(['done']);
      expect('done');
      return { t: 'loop', until: w === 'until', cond, body };
    }
    if (w === 'if') {
      p++;
      const cond = list(['then']);
      expect('then');
      const then = list(['else', 'elif', 'fi']);
      let els: Node | undefined;
      if (peekWord() === 'elif') {
        toks[p] = { k: 'w', w: [{ lit: 'if' }], raw: 'if' };
        els = command();
        return { t: 'if', cond, thenPart: then, else: els };
      }
      if (peekWord() === 'else') {
        p++;
        els = list(['fi']);
      }
      expect('fi');
      return { t: 'if', cond, thenPart: then, else: els };
    }
    if (w === 'for') {
      p++;
      const v = peekWord();
      if (!v) throw new Error('syntax error: bad for loop variable');
      p++;
      const items: Word[] = [];
      if (peekWord() === 'in') {
        p++;
        while (toks[p]?.k === 'w') items.push((toks[p++] as { w: Word }).w);
      }
      expect('do');
      const body = list(['done']);
      expect('done');
      return { t: 'for', v, items, body };
    }
    if (isOp('(')) {
      p++;
      const n = list([]);
      if (!isOp(')')) throw new Error('syntax error');
      p++;
      return n;
    }
    if (w === '{') {
      p++;
      const n = list(['}']);
      expect('}');
      return n;
    }
    const words: Word[] = [];
    const redirs: Redir[] = [];
    while (p < toks.length) {
      const t = toks[p];
      if (t.k === 'op') {
        const m = /^([0-9]?)(>>|>&|>|<)$/.exec(t.v);
        if (!m) break;
        p++;
        const target = toks[p++];
        if (!target || target.k !== 'w') throw new Error('syntax error: redirection');
        redirs.push({ fd: m[1] ? Number(m[1]) : m[2] === '<' ? 0 : 1, op: m[2] as Redir['op'], target: target.w });
        continue;
      }
      if (!words.length && RESERVED.has(peekWord() ?? '\0')) break;
      words.push(t.w);
      p++;
    }
    if (!words.length && !redirs.length) throw new Error('syntax error: unexpected token');
    return { t: 'cmd', words, redirs };
  }
  const n = list([]);
  if (p < toks.length) throw new Error('syntax error');
  return n;
}
