/**
 * kubectl's JSONPath templates (`-o jsonpath='{…}'`, `-o custom-columns=…`), a useful subset
 * of k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go): text and `{…}` actions,
 * `.field`, `['field']`, `[n]`, `[n:m]`, `[*]`, `.*`, `..field`, filters
 * `[?(@.a=="x")]`, `range … end`, and string literals like `{"\n"}`. Missing keys print
 * nothing (kubectl sets AllowMissingKeys(true)).
 */
import { hasOwn } from '../api/safe-object';

type Step =
  | { t: 'field'; name: string }
  | { t: 'index'; start: number; end?: number; slice: boolean }
  | { t: 'all' }
  | { t: 'recursive'; name: string }
  | { t: 'filter'; path: Step[]; op?: string; value?: unknown };

type Node = { t: 'text'; text: string } | { t: 'path'; steps: Step[] } | { t: 'range'; steps: Step[]; body: Node[] };

function parseSteps(expr: string): Step[] {
  let s = expr.trim();
  if (s.startsWith('$')) s = s.slice(1);
  else if (s.startsWith('@')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('..', i)) {
      i += 2;
      const m = /^[A-Za-z0-9_\-/]+/.exec(s.slice(i));
      steps.push({ t: 'recursive', name: m ? m[0] : '' });
      i += m ? m[0].length : 0;
    } else if (s[i] === '.') {
      i++;
      if (s[i] === '*') {
        steps.push({ t: 'all' });
        i++;
        continue;
      }
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (m) {
        steps.push({ t: 'field', name: m[0] });
        i += m[0].length;
      }
    } else if (s[i] === '[') {
      const close = findClose(s, i);
      const inner = s.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ t: 'all' });
      else if (inner.startsWith("'") || inner.startsWith('"')) steps.push({ t: 'field', name: inner.slice(1, -1) });
      else if (inner.startsWith('?(')) steps.push(parseFilter(inner.slice(2, -1)));
      else if (inner.includes(':')) {
        const [a, b] = inner.split(':');
        steps.push({ t: 'index', start: a ? Number(a) : 0, end: b ? Number(b) : undefined, slice: true });
      } else if (/^-?\d+$/.test(inner)) steps.push({ t: 'index', start: Number(inner), slice: false });
      else throw new Error(`invalid array index ${inner}`);
    } else if (/\s/.test(s[i])) i++;
    else {
      const m = /^[^.[\]]+/.exec(s.slice(i));
      steps.push({ t: 'field', name: m![0] });
      i += m![0].length;
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new Error('unterminated array');
}

function parseFilter(expr: string): Step {
  const m = /^(@[^=!<>]*?)\s*(==|!=|<=|>=|<|>)\s*(.+)$/.exec(expr.trim());
  if (!m) return { t: 'filter', path: parseSteps(expr.trim()) };
  let raw = m[3].trim();
  let value: unknown;
  if (raw.startsWith("'") || raw.startsWith('"')) value = raw.slice(1, -1);
  else if (/^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else value = raw = raw.replace(/^@/, '');
  return { t: 'filter', path: parseSteps(m[1]), op: m[2], value };
}

function parseTemplate(tpl: string): Node[] {
  const root: Node[] = [];
  const stack: Node[][] = [root];
  let i = 0;
  while (i < tpl.length) {
    const open = tpl.indexOf('{', i);
    if (open < 0) {
      stack[stack.length - 1].push({ t: 'text', text: tpl.slice(i) });
      break;
    }
    if (open > i) stack[stack.length - 1].push({ t: 'text', text: tpl.slice(i, open) });
    let j = open + 1;
    let quote = '';
    for (; j < tpl.length; j++) {
      const c = tpl[j];
      if (quote) {
        if (c === '\\') j++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '}') break;
    }
    if (j >= tpl.length) throw new Error(`unclosed action`);
    const action = tpl.slice(open + 1, j).trim();
    i = j + 1;
    const cur = stack[stack.length - 1];
    if (action.startsWith('range ')) {
      const node: Node = { t: 'range', steps: parseSteps(action.slice(6)), body: [] };
      cur.push(node);
      stack.push(node.body);
    } else if (action === 'end') {
      if (stack.length === 1) throw new Error('not in range, nothing to end');
      stack.pop();
    } else if (action.startsWith('"')) {
      cur.push({ t: 'text', text: JSON.parse(action) as string });
    } else if (action.startsWith("'")) {
      cur.push({ t: 'text', text: action.slice(1, -1) });
    } else cur.push({ t: 'path', steps: parseSteps(action) });
  }
  return root;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function walk(values: unknown[], steps: Step[]): unknown[] {
  let cur = values;
  for (const st of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      switch (st.t) {
        case 'field':
          if (isObj(v) && hasOwn(v, st.name) && v[st.name] !== undefined) next.push(v[st.name]);
          break;
        case 'all':
          if (Array.isArray(v)) next.push(...v);
          else if (isObj(v))
            next.push(
              ...Object.keys(v)
                .sort()
                .map((k) => v[k]),
            );
          break;
        case 'index':
          if (Array.isArray(v)) {
            const norm = (k: number): number => (k < 0 ? v.length + k : k);
            if (st.slice) next.push(...v.slice(norm(st.start), st.end === undefined ? undefined : norm(st.end)));
            else if (norm(st.start) >= 0 && norm(st.start) < v.length) next.push(v[norm(st.start)]);
            else throw new Error(`array index out of bounds: index ${st.start}, length ${v.length}`);
          }
          break;
        case 'recursive': {
          const visit = (x: unknown): void => {
            if (isObj(x)) {
              if (hasOwn(x, st.name)) next.push(x[st.name]);
              for (const k of Object.keys(x).sort()) visit(x[k]);
            } else if (Array.isArray(x)) x.forEach(visit);
          };
          visit(v);
          break;
        }
        case 'filter': {
          const items = Array.isArray(v) ? v : [v];
          for (const it of items) {
            const got = walk([it], st.path);
            if (st.op === undefined) {
              if (got.length) next.push(it);
              continue;
            }
            if (!got.length) continue;
            const a = got[0];
            const b = st.value;
            const pass =
              st.op === '=='
                ? String(a) === String(b)
                : st.op === '!='
                  ? String(a) !== String(b)
                  : st.op === '<'
                    ? Number(a) < Number(b)
                    : st.op === '>'
                      ? Number(a) > Number(b)
                      : st.op === '<='
                        ? Number(a) <= Number(b)
                        : Number(a) >= Number(b);
            if (pass) next.push(it);
          }
          break;
        }
      }
    }
    cur = next;
  }
  return cur;
}

/** How jsonpath prints one value: strings raw, everything else as compact JSON. */
export function formatJSONPathValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'null';
  return JSON.stringify(v);
}

/** Every value a path (e.g. `.status.podIP`, `{.items[*].metadata.name}`) selects in `obj`. */
export function evalPath(obj: unknown, path: string): unknown[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  return walk([obj], parseSteps(p));
}

/** Back-compat helper: the values of a `{…}` template's first action. */
export function evalJSONPath(obj: unknown, template: string): unknown[][] {
  return [evalPath(obj, template)];
}

function exec(nodes: Node[], data: unknown): string {
  let out = '';
  for (const nd of nodes) {
    if (nd.t === 'text') out += nd.text;
    else if (nd.t === 'path') out += walk([data], nd.steps).map(formatJSONPathValue).join(' ');
    else for (const item of walk([data], nd.steps)) out += exec(nd.body, item);
  }
  return out;
}

/**
 * Renders a JSONPath template against an object (jsonpath.JSONPath.Execute).
 * @throws Error with jsonpath's parse message on a malformed template.
 */
export function renderJSONPath(obj: unknown, template: string): string {
  return exec(parseTemplate(template), obj);
}
