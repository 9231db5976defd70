/**
 * Perl one-liners as containers run them (`perl -Mbignum=bpi -wle "print bpi(2000)"`, the
 * Kubernetes docs' pi Job; `perl -e 'print "hi\n"'`; `perl -E 'say 42; sleep 5; exit 3'`):
 * the switches of perlrun(1) that matter (-e/-E program lines, -l, -w, -M/-m modules,
 * clustered as in `-wle`) and a program of `;`-separated statements: print/say of string
 * literals, numbers and bpi(N) (when imported: `-Mbignum=bpi`, `-Mbigrat=bpi`,
 * `Math::BigFloat->bpi(N)` with `-MMath::BigFloat`), sleep N and exit N. Output is written at
 * exit (stdout to a pipe is block-buffered), after the simulated compute time.
 *
 * A program outside this subset (loops, variables, a script file) returns null: the caller
 * then treats the process as *assumed* (a long-lived app), as before.
 * Durations are simulated ms.
 */
import { bpi, bpiComputeMs } from './pi-digits';

/** One action of a modelled one-liner. */
export type PerlStep = { out: string } | { err: string } | { sleepMs: number } | { exit: number };

/** Splits `a; b; "c;d"` into statements (quotes respected). */
function statements(prog: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < prog.length; i++) {
    const ch = prog[i];
    if (ch === '"' || ch === "'") {
      const j = prog.indexOf(ch, i + 1);
      if (j < 0) return null;
      cur += prog.slice(i, j + 1);
      i = j;
    } else if (ch === ';') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out.filter(Boolean);
}

/** Splits a print list on top-level commas. */
function listItems(s: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"' || ch === "'") {
      const j = s.indexOf(ch, i + 1);
      if (j < 0) return null;
      cur += s.slice(i, j + 1);
      i = j;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  '\\': '\\',
  '"': '"',
  $: '$',
  '@': '@',
  e: '\x1b',
  a: '\x07',
  r: '\r',
  '0': '\0',
};

/** The value of one term, or null when it is not modelled; `undef` for an unknown sub. */
function term(t: string, imports: Set<string>): { v: string; ms: number } | { undef: string } | null {
  let m: RegExpExecArray | null;
  if ((m = /^"((?:[^"\\$@]|\\.)*)"$/.exec(t))) return { v: m[1].replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c), ms: 0 };
  if ((m = /^'((?:[^'\\]|\\.)*)'$/.exec(t))) return { v: m[1].replace(/\\([\\'])/g, '$1'), ms: 0 };
  if (/^-?\d+$/.test(t)) return { v: String(Number(t)), ms: 0 };
  if ((m = /^(?:(Math::BigFloat)\s*->\s*)?bpi\s*\(\s*(\d*)\s*\)$/.exec(t)) || (m = /^(?:(Math::BigFloat)\s*->\s*)?bpi\s+(\d+)$/.exec(t))) {
    if (m[1] ? !imports.has('Math::BigFloat') : !imports.has('bpi')) return m[1] ? null : { undef: 'bpi' };
    const n = m[2] ? Number(m[2]) : 0;
    return { v: bpi(n), ms: bpiComputeMs(n) };
  }
  return null;
}

/**
 * The steps of `perl ARGS` when the program is a modelled one-liner, else null.
 * @param args the arguments after `perl`
 */
export function perlOneLiner(args: string[]): PerlStep[] | null {
  const lines: string[] = [];
  const imports = new Set<string>();
  let newline = false;
  let feature = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    let j = 1;
    while (j < a.length) {
      const c = a[j];
      if (c === 'e' || c === 'E') {
        if (c === 'E') feature = true;
        const rest = a.slice(j + 1);
        if (rest) lines.push(rest);
        else if (i + 1 < args.length) lines.push(args[++i]);
        else return [{ err: 'No code specified for -e.\n' }, { exit: 25 }];
        break;
      }
      if (c === 'M' || c === 'm') {
        const mod = a.slice(j + 1);
        const [name, list] = mod.split('=');
        imports.add(name);
        if (list) for (const s of list.split(',')) imports.add(s);
        if (name === 'bignum' || name === 'bigrat' || name === 'bigint') imports.add('Math::BigFloat');
        break;
      }
      if (c === 'l') newline = true;
      else if (!'wWsntaTUX'.includes(c)) return null;
      j++;
    }
  }
  if (!lines.length) return null; // a script file or stdin: not modelled
  const stmts = statements(lines.join('\n'));
  if (!stmts) return null;
  const steps: PerlStep[] = [];
  let out = '';
  const flush = () => {
    if (out) steps.push({ out });
    out = '';
  };
  for (const s of stmts) {
    let m: RegExpExecArray | null;
    if ((m = /^(print|say)\b\s*(.*)$/s.exec(s))) {
      if (m[1] === 'say' && !feature) return null;
      let body = m[2].trim();
      if (body.startsWith('(') && body.endsWith(')')) body = body.slice(1, -1);
      const items = listItems(body);
      if (!items) return null;
      let text = '';
      for (const it of items) {
        const v = term(it, imports);
        if (!v) return null;
        if ('undef' in v) {
          flush();
          steps.push({ err: `Undefined subroutine &main::${v.undef} called at -e line 1.\n` }, { exit: 255 });
          return steps;
        }
        if (v.ms) steps.push({ sleepMs: v.ms });
        text += v.v;
      }
      out += text + (m[1] === 'say' || newline ? '\n' : '');
    } else if ((m = /^sleep\s*\(?\s*(\d+)\s*\)?$/.exec(s))) {
      steps.push({ sleepMs: Number(m[1]) * 1000 });
    } else if ((m = /^exit\s*\(?\s*(\d*)\s*\)?$/.exec(s))) {
      flush();
      steps.push({ exit: m[1] ? Number(m[1]) % 256 : 0 });
      return steps;
    } else return null;
  }
  flush();
  steps.push({ exit: 0 });
  return steps;
}
