/**
 * Golden kubectl transcripts (src/server/testdata/*.txt): the format, and the normalisation
 * that makes two runs comparable. A transcript is a sequence of blocks:
 *
 *     $ kubectl get pods -o wide
 *     NAME                        READY   STATUS    …
 *     peekcart-57f6cd6664-xxxxx   1/1     Running   …
 *
 * (stdout then stderr, then `[exit N]` when the exit code is not 0). Normalised: ages (the
 * AGE / LAST SEEN / Age columns and `for 12s` style durations) become `<age>`, timestamps
 * `<time>`, the 5-character random suffixes of generated names `xxxxx`, uids `<uid>`, JWTs
 * (ServiceAccount tokens, signed per run) `<jwt>`.
 */

/** One recorded command and what kubectl printed. */
export interface GoldenBlock {
  /** kubectl's arguments, e.g. "get pods -o wide". */
  args: string;
  output: string;
  exitCode: number;
}

const RAND = /-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g;
const AGE = /^(<invalid>|\d+(\.\d+)?(y|d|h|m|s|ms)(\d+(d|h|m|s))*|<unknown>)$/;

/**
 * Replaces the cells of every age column (by cell index under a header line holding AGE,
 * LAST SEEN, Age…; cells are separated by 2+ spaces) with `<age>`, in tables and in the rows
 * `kubectl get -w` prints after the first (which have their own widths).
 */
function normaliseAgeColumns(text: string): string {
  const lines = text.split('\n');
  let ages: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const parts = lines[i].split(/(\s{2,})/);
    const lead = parts[0] === '' ? 2 : 0; // an indented line starts with a separator
    const cellsOf = parts.filter((_, j) => j % 2 === 0).slice(lead ? 1 : 0);
    if (
      /^\s*(NAME|LAST SEEN|Type|NAMESPACE|REVISION)\b/.test(lines[i]) &&
      cellsOf.some((c) => /^(AGE|LAST SEEN|Age|DURATION|SINCE)$/.test(c))
    ) {
      ages = cellsOf.flatMap((c, j) => (/^(AGE|LAST SEEN|Age|DURATION|SINCE)$/.test(c) ? [j] : []));
      continue;
    }
    if (!lines[i].trim()) {
      ages = [];
      continue;
    }
    for (const j of ages) {
      const at = lead + 2 * j;
      if (parts[at] !== undefined && AGE.test(parts[at])) parts[at] = '<age>';
    }
    lines[i] = parts.join('');
  }
  return lines.join('\n');
}

/** Normalises one command's output (see the module comment). */
export function normalise(text: string): string {
  let t = normaliseAgeColumns(text);
  t = t.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
  t = t.replace(
    /(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g,
    '<time>',
  );
  t = t.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>');
  t = t.replace(/\beyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g, '<jwt>'); // a JWT (a ServiceAccount token): signed per run
  t = t.replace(/\(x(\d+) over [^)]*\)/g, '(x$1 over <age>)');
  t = t.replace(/resourceVersion: "\d+"/g, 'resourceVersion: "<rv>"').replace(/"resourceVersion": "\d+"/g, '"resourceVersion": "<rv>"');
  return t.replace(RAND, '-xxxxx');
}

/** Writes blocks as a transcript. */
export function formatTranscript(title: string, blocks: GoldenBlock[]): string {
  const parts = [`# ${title}`];
  for (const b of blocks)
    parts.push(
      `$ kubectl ${b.args}\n${b.output}${b.output && !b.output.endsWith('\n') ? '\n' : ''}${b.exitCode ? `[exit ${b.exitCode}]\n` : ''}`,
    );
  return `${parts.join('\n')}`;
}

/** Reads a transcript back into blocks. */
export function parseTranscript(text: string): GoldenBlock[] {
  const out: GoldenBlock[] = [];
  for (const chunk of text.split(/^\$ kubectl /m).slice(1)) {
    const nl = chunk.indexOf('\n');
    let output = chunk.slice(nl + 1).replace(/\n+$/, '');
    let exitCode = 0;
    const m = /\n?\[exit (\d+)\]$/.exec(output);
    if (m) {
      exitCode = Number(m[1]);
      output = output.slice(0, m.index);
    }
    out.push({ args: chunk.slice(0, nl), output: output ? `${output}\n` : '', exitCode });
  }
  return out;
}

/** The cells of a kubectl table line (columns are separated by at least two spaces, or three). */
export function cells(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}
