/**
 * The repository owns its design docs (docs/README.md): comments and READMEs cite documents in
 * the repository, never the design brief outside it (its CONTRACTS, STYLE, TOOLCHAIN, DESIGN and
 * DIGEST documents, or the `shared` folder beside the repository); every `docs/FILE.md#section`
 * they cite exists; and every repository path the docs name exists, so the docs keep
 * describing the code as it is.
 *
 * Scanned: src/, e2e/, e2e-bench/, the root's *.ts, *.json and README.md. Skipped: src/examples/real and testdata/
 * folders (verbatim copies and recordings of real manifests and kubectl sessions) and
 * node_modules. In code files only comments are read (a line's `//` or `/*` part, and the
 * lines of a block comment); Markdown is read whole; YAML only its `#` comments.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
/** `NAME.md`, spelled so that this file does not itself cite the brief. */
const md = (name: string) => `${name}.md`;
const SHARED = ['..', 'shared'].join('/');

/** A design-brief document (or the seed's original note), or a path into the folder beside the repository. */
const OUTSIDE = /\b(?:CONTRACTS|TOOLCHAIN|DIGEST)\b|\b(?:STYLE|DESIGN)\.md\b|\.\.\/shared\b|apply-to-pod-relay\.ko/;
/**
 * A citation of a repository doc, with an optional section anchor. Not one of another
 * repository's docs, which comments name after the repository (`kubernetes/dns docs/specification.md`).
 */
const DOCS_CITATION = /(?<![\w/.-])(?<![\w-]+\/[\w.-]+ )docs\/([\w.-]+\.md)(?:#([\w-]+))?/g;

const CODE = new Set(['.ts', '.tsx', '.js', '.mjs', '.css']);

/** The comment text of a code file's lines (other text blanked), or the whole text for Markdown/JSON. */
export function commentLines(path: string, text: string): string[] {
  const ext = extname(path);
  const lines = text.split('\n');
  if (ext === '.md' || ext === '.json') return lines;
  if (ext === '.yaml' || ext === '.yml') return lines.map((l) => (/^\s*#/.test(l) ? l : (/\s#\s.*$/.exec(l)?.[0] ?? '')));
  if (!CODE.has(ext)) return [];
  let inBlock = false;
  return lines.map((l) => {
    if (inBlock) {
      if (l.includes('*/')) inBlock = false;
      return l;
    }
    const t = l.trimStart();
    if (t.startsWith('//')) return l;
    if (t.startsWith('/*')) {
      inBlock = !l.includes('*/', l.indexOf('/*') + 2);
      return l;
    }
    const line = / \/\/ (.*)$/.exec(l);
    if (line) return line[1];
    const open = l.indexOf(' /*');
    if (open >= 0) {
      inBlock = !l.includes('*/', open + 3);
      return l.slice(open);
    }
    return '';
  });
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', file), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1])));
}

/** Folders of verbatim copies outside a testdata/ folder: the gallery's real manifests (src/examples/real, with SOURCES.md). */
const VERBATIM = new Set([join(ROOT, 'src/examples/real')]);

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'testdata' || name.startsWith('.') || VERBATIM.has(p)) continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

function scannedFiles(): string[] {
  const files = ['src', 'e2e', 'e2e-bench'].flatMap((d) => walk(join(ROOT, d), []));
  for (const name of readdirSync(ROOT)) {
    if (/\.(ts|json)$/.test(name) && name !== 'package-lock.json') files.push(join(ROOT, name));
  }
  files.push(join(ROOT, 'README.md'));
  // this file names the forbidden documents on purpose
  return files.filter((f) => f !== join(ROOT, 'src/docs.test.ts'));
}

/** `file:line: text` for every comment line that cites a document outside the repository. */
function outsideCitations(files: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    commentLines(f, readFileSync(f, 'utf8')).forEach((l, i) => {
      if (OUTSIDE.test(l)) found.push(`${relative(ROOT, f)}:${i + 1}: ${l.trim()}`);
    });
  }
  return found;
}

/** `file:line: docs/X.md#y` for every docs citation whose file or section does not exist. */
function brokenDocsCitations(files: string[]): string[] {
  const docs = new Map<string, Set<string> | null>();
  const anchors = (file: string) => {
    if (!docs.has(file)) docs.set(file, existsSync(join(ROOT, 'docs', file)) ? anchorsOf(file) : null);
    return docs.get(file)!;
  };
  const broken: string[] = [];
  for (const f of files) {
    commentLines(f, readFileSync(f, 'utf8')).forEach((l, i) => {
      for (const m of l.matchAll(DOCS_CITATION)) {
        const a = anchors(m[1]);
        if (!a || (m[2] !== undefined && !a.has(m[2]))) broken.push(`${relative(ROOT, f)}:${i + 1}: ${m[0]}`);
      }
    });
  }
  return broken;
}

describe('the comment scanner', () => {
  it.each([
    ['a line comment', 'a.ts', `const x = 1; // see ${md('CONTRACTS')} §2`, true],
    ['a block comment line', 'a.ts', `/**\n * the hooks (${md('STYLE')} Part D §7)\n */`, true],
    ['a path into the shared folder', 'a.tsx', `/* from ${SHARED}/manifests/real */`, true],
    ['a brief name without .md', 'README.md', 'participants beyond CONTRACTS §1', true],
    ['a YAML comment', 'x.yaml', `# the seed (seed/${md('DIGEST')})\nkind: Pod`, true],
    ['code, not a comment', 'a.ts', `const REAL = resolve(ROOT, '${SHARED}/manifests/real');`, false],
    ['the seed note', 'ko.ts', '/**\n * Vocabulary of the seed (seed/apply-to-pod-relay.ko.md)\n */', true],
    ['a YAML value', 'x.yaml', `note: see ${md('DESIGN')}`, false],
    ['a repository doc', 'a.ts', '// docs/ui-hooks.md#share-links', false],
  ])('%s', (_name, path, text, flagged) => {
    expect(commentLines(path, text).some((l) => OUTSIDE.test(l))).toBe(flagged);
  });

  it.each([
    ['a doc and its section', ' * (docs/ui-hooks.md#share-links)', [['ui-hooks.md', 'share-links']]],
    ['a doc without a section', '// format: docs/scenario-format.md.', [['scenario-format.md', undefined]]],
    ["another repository's doc", ' * (kubernetes/dns docs/specification.md)', []],
    ['a path inside another folder', ' * src/cluster/kustomize/docs/x.md', []],
  ])('docs citation: %s', (_name, line, cited) => {
    expect([...line.matchAll(DOCS_CITATION)].map((m) => [m[1], m[2]])).toEqual(cited);
  });

  it.each([
    ['window.__kubeRelay', 'window__kuberelay'],
    ['The HTTP server', 'the-http-server'],
    ['Boot and time zero', 'boot-and-time-zero'],
    ['settle', 'settle'],
  ])('anchor of "%s" is %s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });
});

describe('the repository owns its design docs', () => {
  const files = scannedFiles();

  it('scans the source tree', () => {
    expect(files.some((f) => f.endsWith('src/cluster/cluster.ts'))).toBe(true);
    expect(files.some((f) => f.includes('/testdata/'))).toBe(false);
  });

  it('no comment or README cites a document outside the repository', () => {
    expect(outsideCitations(files)).toEqual([]);
  });

  it('every docs/ citation names a file and a section that exist', () => {
    expect(brokenDocsCitations(files)).toEqual([]);
  });

  it('every repository path the docs name exists', () => {
    const missing: string[] = [];
    for (const doc of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
      for (const m of text.matchAll(/`((?:src|e2e|e2e-bench|docs)\/[\w./-]+)`/g)) {
        if (!existsSync(join(ROOT, m[1]))) missing.push(`docs/${doc}: ${m[1]}`);
      }
      for (const m of text.matchAll(/\]\(([\w.-]+\.md)\)/g)) {
        if (!existsSync(join(ROOT, 'docs', m[1]))) missing.push(`docs/${doc}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
