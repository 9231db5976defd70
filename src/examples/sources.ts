/**
 * Where each real manifest comes from: the table of src/examples/real/SOURCES.md (origin
 * repository and commit, upstream paths, licence, what it shows), read from the file itself
 * so the gallery never drifts from it.
 */

/** One row of SOURCES.md. Markdown (`code`, **bold**) is kept as written. */
export interface ManifestSource {
  /** File name in src/examples/real, e.g. "guestbook-all-in-one.yaml". */
  file: string;
  /** "kubernetes/examples @ 279e8e4fe314" as the table writes it. */
  repository: string;
  /** GitHub address of the repository, e.g. "https://github.com/kubernetes/examples". */
  url: string;
  /** Upstream path(s) inside the repository. */
  paths: string;
  license: string;
  /** What the manifest is and what it exercises. */
  description: string;
}

const ROW = /^\|\s*`([^`]+\.yaml)`\s*\|(.*)\|\s*$/;

/** Splits a table row on `|` outside backticks. */
function cells(row: string): string[] {
  const out: string[] = [];
  let cur = '';
  let code = false;
  for (const ch of row) {
    if (ch === '`') code = !code;
    if (ch === '|' && !code) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** Parses the sources table (rows whose first cell is a backticked `*.yaml` file). */
export function parseSources(markdown: string): ManifestSource[] {
  const out: ManifestSource[] = [];
  for (const line of markdown.split('\n')) {
    const m = ROW.exec(line.trim());
    if (!m) continue;
    const [repository = '', paths = '', license = '', description = ''] = cells(m[2]);
    const repo = /^([\w.-]+\/[\w.-]+)/.exec(repository)?.[1] ?? '';
    out.push({ file: m[1], repository, url: repo ? `https://github.com/${repo}` : '', paths, license, description });
  }
  return out;
}
