/**
 * The dependency rules of docs/architecture.md#dependency-rules, checked over the import graph
 * of every .ts/.tsx file under src/:
 *
 * - **layers** (src/layers.json): a file imports its own folder and the layers below it, never a
 *   member of its own layer (a sideways import between components: controllers → scheduler) nor
 *   of a higher one (apiserver → kubectl). Type imports count: they couple folders too. Test
 *   files (`*.test.ts`) and test fixtures may import anything.
 * - **fixtures** (shared test setup: a fake cluster, a kubelet test environment, objects) are named
 *   `<what>.fixture.ts`, one rule for every folder; no product file imports one (only tests and the
 *   golden recorders in src/cli/record-*.ts), and the engine's build (tsconfig.cluster.json) leaves
 *   them out.
 * - **no import cycles**: no loop of value imports anywhere (module evaluation order); in the
 *   engine, the server and the worker no loop of type imports either. The UI's zustand slices
 *   (src/ui/store) need the whole store's type in every slice, a type-only loop allowed there.
 *
 * The graph is read from the import statements' text (`import … from`, `export … from`,
 * `import '…'`, `import('…')`), resolved as the bundler resolves relative specifiers
 * (extensionless, `.ts`/`.tsx`, `index.ts`). Bare package specifiers are other rules' business
 * (.oxlintrc.json).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** One import of a file: the repo-relative target and whether only types cross it. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
  line: number;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'testdata') walk(p, out);
    } else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const IMPORT =
  /^[ \t]*(?:(import|export)\s+(type\s+)?((?:[\w$*{}\s,]|\btype\b)*?)\s*from\s*(['"])([^'"]+)\4|import\s*(['"])([^'"]+)\6)|\bimport\(\s*(['"])([^'"]+)\8\s*\)(\.)?/gm;

/** Whether `{ type A, type B }` names only types. */
const onlyTypes = (clause: string): boolean => {
  const m = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!m) return false;
  const names = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
};

function resolve(fromFile: string, spec: string, files: Set<string>): string | undefined {
  const bare = spec.split('?')[0];
  const base = normalize(join(dirname(fromFile), bare));
  const cands = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
  return cands.find((c) => files.has(c));
}

/** Blank out block comments that start a line (docstrings), so examples in them are not imports. */
function stripDocComments(text: string): string {
  return text.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, (c) => c.replace(/[^\n]/g, ' '));
}

/** Every relative import of every source file under src/. */
export function importGraph(): { files: string[]; edges: ImportEdge[] } {
  const files = walk('src').sort();
  const set = new Set(files);
  const edges: ImportEdge[] = [];
  for (const f of files) {
    const text = stripDocComments(readFileSync(join(ROOT, f), 'utf8'));
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[5] ?? m[7] ?? m[9];
      if (!spec.startsWith('.')) continue;
      const to = resolve(f, spec, set);
      if (!to) continue;
      const typeOnly = m[5] !== undefined ? Boolean(m[2]) || onlyTypes(m[3]) : m[9] !== undefined && m[10] === '.';
      edges.push({ from: f, to, typeOnly, line: text.slice(0, m.index).split('\n').length });
    }
  }
  return { files, edges };
}

interface Layers {
  layers: { name: string; members: string[] }[];
  exceptions: { from: string; to: string; why: string }[];
  typeCycleExceptions: { files: string[]; why: string }[];
}
const layers = JSON.parse(readFileSync(join(ROOT, 'src/layers.json'), 'utf8')) as Layers;

/** The member (folder or file of src/layers.json) a file belongs to, with its layer's index. */
export function memberOf(file: string): { member: string; layer: number } | undefined {
  let best: { member: string; layer: number } | undefined;
  layers.layers.forEach((l, layer) => {
    for (const m of l.members) {
      if ((file === m || file.startsWith(`${m}/`)) && (!best || m.length > best.member.length)) best = { member: m, layer };
    }
  });
  return best;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f);
/** Test fixtures: `<what>.fixture.ts` (docs/architecture.md#dependency-rules). */
const isFixture = (f: string) => /\.fixture\.tsx?$/.test(f);

/** Why an import breaks the layer rule, in words that say what may import what; undefined when it does not. */
export function layerViolation(from: string, to: string): string | undefined {
  const a = memberOf(from);
  const b = memberOf(to);
  if (!a || !b || a.member === b.member || b.layer < a.layer) return undefined;
  const la = layers.layers[a.layer];
  const lb = layers.layers[b.layer];
  const below = layers.layers.slice(0, a.layer).map((l) => l.name);
  const how =
    b.layer === a.layer
      ? `a sideways import: ${a.member} and ${b.member} are both in layer "${la.name}", whose members never import each other`
      : `an upward import: ${b.member} is in layer "${lb.name}", above ${a.member}'s layer "${la.name}"`;
  return (
    `${from} imports ${to}: ${how}. ${a.member} may import its own files and the layers below "${la.name}": ` +
    `${below.map((n) => `"${n}"`).join(', ') || 'none'} (src/layers.json lists their folders). ` +
    `Move the shared code below both (cluster/util, cluster/apimachinery, cluster/component-helpers …) or inject it through ComponentContext.`
  );
}

/** The strongly connected components (size > 1, or a self-import) of a graph, each sorted. */
export function cycles(nodes: string[], edges: [string, string][]): string[][] {
  const adj = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const [a, b] of edges) adj.get(a)?.push(b);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  // Iterative Tarjan (the graph is ~600 files deep enough to matter for recursion).
  for (const root of nodes) {
    if (idx.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length) {
      const top = work[work.length - 1];
      const [v, i] = top;
      if (i === 0) {
        idx.set(v, index);
        low.set(v, index++);
        stack.push(v);
        on.add(v);
      }
      const next = adj.get(v) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i];
        if (!idx.has(w)) work.push([w, 0]);
        else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1][0];
        low.set(u, Math.min(low.get(u)!, low.get(v)!));
      }
      if (low.get(v) === idx.get(v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          comp.push(w);
        } while (w !== v);
        if (comp.length > 1 || next.includes(v)) out.push(comp.sort());
      }
    }
  }
  return out.sort((x, y) => x[0].localeCompare(y[0]));
}

/** A readable loop through a strongly connected component: `a.ts → b.ts → a.ts`. */
function loopText(comp: string[], edges: [string, string][]): string {
  const inComp = new Set(comp);
  const adj = new Map<string, string[]>();
  for (const [a, b] of edges) if (inComp.has(a) && inComp.has(b)) adj.set(a, [...(adj.get(a) ?? []), b]);
  // Shortest path from comp[0] back to itself (BFS).
  const start = comp[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of adj.get(v) ?? []) {
      if (w === start) {
        const path = [start];
        for (let x: string | undefined = v; x && x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start].join(' → ');
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp.join(' ↔ ');
}

const typeLoopsAllowed = (f: string) => f.startsWith('src/ui/');

describe('architecture (src/layers.json, docs/architecture.md#dependency-rules)', () => {
  const { files, edges } = importGraph();

  it('reads the import graph (sanity: known edges are found, type-only ones marked)', () => {
    const find = (from: string, to: string) => edges.find((e) => e.from === from && e.to === to);
    expect(find('src/cluster/cluster.ts', 'src/cluster/apiserver/apiserver.ts')).toBeDefined();
    expect(find('src/cluster/component-context.ts', 'src/cluster/apiserver/apiserver.ts')?.typeOnly).toBe(true);
    expect(find('src/cluster/component-context.ts', 'src/cluster/client/clientset.ts')?.typeOnly).toBe(false);
    expect(edges.length).toBeGreaterThan(1500);
  });

  it('keeps test fixtures out of the product', () => {
    // a fixture is imported only by tests, other fixtures and the golden recorders
    const isRecorder = (f: string) => /^src\/cli\/record-[^/]+\.ts$/.test(f);
    const bad = edges.filter((e) => isFixture(e.to) && !isTest(e.from) && !isFixture(e.from) && !isRecorder(e.from));
    expect(bad.map((e) => `${e.from}:${e.line} imports ${e.to}`)).toEqual([]);
  });

  it('names test fixtures <what>.fixture.ts', () => {
    // the old styles (test-fixture.ts, test-env.ts, testing.ts, apply-fixture.ts) are gone
    const oldStyle = files.filter((f) => /\/(test-fixture|test-env|testing|[a-z-]+-fixture)\.tsx?$/.test(f));
    expect(oldStyle).toEqual([]);
  });

  it('places every source file in a layer', () => {
    expect(files.filter((f) => !isTest(f) && !memberOf(f))).toEqual([]);
  });

  it('lists only members, fixtures and exceptions that exist', () => {
    const missing = [...layers.layers.flatMap((l) => l.members), ...layers.exceptions.flatMap((e) => [e.from, e.to])].filter(
      (p) => !existsSync(join(ROOT, p)),
    );
    expect(missing).toEqual([]);
  });

  it('has no sideways or upward import between folders', () => {
    const allowed = new Set(layers.exceptions.map((e) => `${e.from} ${e.to}`));
    const used = new Set<string>();
    const bad: string[] = [];
    for (const e of edges) {
      if (isTest(e.from) || isFixture(e.from)) continue;
      const why = layerViolation(e.from, e.to);
      if (!why) continue;
      if (allowed.has(`${e.from} ${e.to}`)) used.add(`${e.from} ${e.to}`);
      else bad.push(`${e.from}:${e.line}: ${why}`);
    }
    expect(bad, bad.join('\n')).toEqual([]);
    const stale = [...allowed].filter((k) => !used.has(k));
    expect(stale, 'exceptions no longer needed: remove them from src/layers.json').toEqual([]);
  });

  it('has no import cycle', () => {
    const pairs = (keep: (e: ImportEdge) => boolean): [string, string][] => edges.filter(keep).map((e) => [e.from, e.to]);
    const valueEdges = pairs((e) => !e.typeOnly);
    const allEdges = pairs((e) => !typeLoopsAllowed(e.from));
    const valueLoops = cycles(files, valueEdges);
    const known = new Map(layers.typeCycleExceptions.map((c) => [[...c.files].sort().join(), c.why]));
    const seen = new Set<string>();
    const typeLoops = cycles(files, allEdges).filter((c) => {
      if (valueLoops.some((v) => v.join() === c.join())) return false;
      if (known.has(c.join())) {
        seen.add(c.join());
        return false;
      }
      return true;
    });
    const loops = [
      ...valueLoops.map((c) => `value imports: ${loopText(c, valueEdges)}`),
      ...typeLoops.map((c) => `type imports: ${loopText(c, allEdges)} (move the shared types into a file both import)`),
    ];
    expect(loops, loops.join('\n')).toEqual([]);
    expect(
      [...known.keys()].filter((k) => !seen.has(k)),
      'typeCycleExceptions no longer needed: remove them from src/layers.json',
    ).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it.each([
    { name: 'no edges', edges: [] as [string, string][], want: [] as string[][] },
    {
      name: 'a chain',
      edges: [
        ['a', 'b'],
        ['b', 'c'],
      ] as [string, string][],
      want: [],
    },
    {
      name: 'a two-file loop',
      edges: [
        ['a', 'b'],
        ['b', 'a'],
      ] as [string, string][],
      want: [['a', 'b']],
    },
    {
      name: 'a three-file loop and a tail',
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ] as [string, string][],
      want: [['a', 'b', 'c']],
    },
    { name: 'a self-import', edges: [['a', 'a']] as [string, string][], want: [['a']] },
  ])('$name', ({ edges, want }) => {
    expect(cycles(['a', 'b', 'c', 'd'], edges)).toEqual(want);
  });

  it('names the layers in a sideways message', () => {
    expect(layerViolation('src/cluster/controllers/x.ts', 'src/cluster/scheduler/y.ts')).toMatch(
      /^src\/cluster\/controllers\/x\.ts imports src\/cluster\/scheduler\/y\.ts: a sideways import: src\/cluster\/controllers and src\/cluster\/scheduler are both in layer "components", whose members never import each other\. src\/cluster\/controllers may import its own files and the layers below "components": "ground", "api", /,
    );
    expect(layerViolation('src/cluster/apiserver/x.ts', 'src/cluster/kubectl/y.ts')).toMatch(
      /an upward import: src\/cluster\/kubectl is in layer "components", above src\/cluster\/apiserver's layer "apiserver"/,
    );
    expect(layerViolation('src/cluster/kubectl/y.ts', 'src/cluster/apiserver/x.ts')).toBeUndefined();
  });
});
