/**
 * The writing machinery of `kubectl describe`: Go's text/tabwriter (column blocks of
 * consecutive tab-terminated cells; minwidth 0, padding 2 as describe.go tabbedString sets
 * it), describe.go's PrefixWriter (two spaces per level, Flush), and the shared helpers
 * printLabelsMultiline, printAnnotationsMultiline, printTolerationsMultiline,
 * printTaintsMultiline, DescribeEvents, and time.RFC1123Z formatting.
 */
import type { KObject } from '../../api/types';
import { since } from '../table';
import { parseQuantity, type Quantity } from '../../api/quantity';

/**
 * Go text/tabwriter over whole lines: a cell is text terminated by a tab; the trailing text
 * of a line is not part of any column. Widths are computed per column block as Writer.format does.
 */
export function goTabwriter(text: string, minwidth = 0, padding = 2): string {
  const lines = text.split('\n');
  const last = lines.pop();
  const cells = lines.map((l) => l.split('\t'));
  const width = (s: string): number => [...s].length;
  let out = '';
  const widths: number[] = [];
  const writeLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const line = cells[i];
      for (let j = 0; j < line.length; j++) {
        if (j < widths.length && j < line.length - 1) out += line[j] + ' '.repeat(Math.max(0, widths[j] - width(line[j])));
        else out += line[j];
      }
      out += '\n';
    }
  };
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= cells[t].length - 1) continue;
      writeLines(line0, t);
      line0 = t;
      let w = minwidth;
      for (; t < line1; t++) {
        const line = cells[t];
        if (column >= line.length - 1) break;
        w = Math.max(w, width(line[column]) + padding);
      }
      widths.push(w);
      format(line0, t);
      widths.pop();
      line0 = t;
      t--;
    }
    writeLines(line0, line1);
  };
  format(0, cells.length);
  return out + (last ?? '');
}

/** describe.go's PrefixWriter over a tabwriter (Write with a level, Flush). */
export class PrefixWriter {
  private buf = '';
  private done = '';
  /** Writes `text` with two spaces of indentation per level. */
  write(level: number, text: string): void {
    this.buf += '  '.repeat(level) + text;
  }
  /** Writes a whole line at level 0. */
  line(text: string): void {
    this.buf += `${text}\n`;
  }
  /** Formats what was written so far as its own set of columns (tabwriter Flush). */
  flush(): void {
    this.done += goTabwriter(this.buf);
    this.buf = '';
  }
  /** The formatted text. */
  toString(): string {
    this.flush();
    return this.done;
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** time.RFC1123Z in UTC: "Thu, 01 Jan 2026 00:00:00 +0000". */
export function rfc1123z(ts: string | number | undefined | null): string {
  if (ts === undefined || ts === null || ts === '') return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(typeof ts === 'number' ? ts : Date.parse(ts));
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** printLabelsMultilineWithIndent. */
export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = ''): void {
  w.write(0, `${initialIndent}${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort();
  if (!keys.length) return w.write(0, '<none>\n');
  keys.forEach((k, i) => {
    if (i) w.write(0, `${initialIndent}\t`);
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

/** printAnnotationsMultiline (skips last-applied-configuration, truncates values over 140 characters). */
export function printAnnotationsMultiline(w: PrefixWriter, title: string, ann: Record<string, string> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(ann ?? {})
    .filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration')
    .sort();
  if (!keys.length) return w.write(0, '<none>\n');
  keys.forEach((k, i) => {
    if (i) w.write(0, '\t');
    let v = ann![k];
    if (v.length > 140) v = `${v.slice(0, 137)}...`;
    w.write(0, `${k}: ${v}\n`);
  });
}

/** printTolerationsMultilineWithIndent. */
export function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: KObject[] | undefined): void {
  w.write(0, `${title}:\t`);
  const ts = [...(tolerations ?? [])].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  if (!ts.length) return w.write(0, '<none>\n');
  ts.forEach((t, i) => {
    if (i) w.write(0, '\t');
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

/** printTaintsMultilineWithIndent. */
export function printTaintsMultiline(w: PrefixWriter, title: string, taints: KObject[] | undefined): void {
  w.write(0, `${title}:\t`);
  const ts = taints ?? [];
  if (!ts.length) return w.write(0, '<none>\n');
  const effects = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];
  const sorted = effects.flatMap((e) => ts.filter((t) => t.effect === e));
  sorted.forEach((t, i) => {
    if (i) w.write(0, '\t');
    w.write(0, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`);
  });
}

/** The events describe shows for an object (describe.go searchEvents: involvedObject name/namespace/kind/uid). */
export function eventsFor(all: KObject[], obj: KObject, uid = obj.metadata.uid): KObject[] {
  return all.filter((e) => {
    const io = e.involvedObject ?? {};
    return (
      io.name === obj.metadata.name &&
      (io.namespace ?? '') === (obj.metadata.namespace ?? '') &&
      io.kind === obj.kind &&
      (!io.uid || io.uid === uid)
    );
  });
}

/** DescribeEvents: "Events:\t<none>" or the Type/Reason/Age/From/Message table, with "(xN over …)". */
export function describeEvents(w: PrefixWriter, events: KObject[], nowMs: number): void {
  if (!events.length) return w.write(0, 'Events:\t<none>\n');
  w.flush();
  // SortableEvents' eventTime (kubectl/pkg/util/event): series.lastObservedTime, else lastTimestamp, else eventTime
  const key = (e: KObject): number =>
    Date.parse(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '') || 0;
  const sorted = [...events].sort((a, b) => key(a) - key(b));
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = e.eventTime ? since(e.eventTime, nowMs) : since(e.firstTimestamp, nowMs);
    let interval = first;
    if (e.series) interval = `${since(e.series.lastObservedTime, nowMs)} (x${e.series.count} over ${first})`;
    else if ((e.count ?? 0) > 1) interval = `${since(e.lastTimestamp, nowMs)} (x${e.count} over ${first})`;
    const source = e.source?.component || e.reportingComponent || '';
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${String(e.message ?? '').trim()}\n`);
  }
}

/** printController: "Kind/name" of the controller owner reference, or "". */
export function controllerOf(obj: KObject): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

/**
 * resource.Quantity's String() of a parsed quantity (quantity.go CanonicalizeBytes): a binary
 * suffix stays binary when the value is a whole number of Ki ("1536Mi" for "1.5Gi"); otherwise
 * decimal with the largest power-of-1000 suffix that keeps the mantissa whole ("1k", "500m",
 * "8388608"). Returns "<nil>" for a missing value (Go's nil *Quantity) and the text unchanged
 * when it does not parse.
 */
export function goQuantity(v: string | number | undefined | null): string {
  if (v === undefined || v === null) return '<nil>';
  let q: Quantity;
  try {
    q = parseQuantity(v);
  } catch {
    return String(v);
  }
  const sign = q.negative ? '-' : '';
  if (q.num === 0n) return '0';
  if (/(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(q.text) && q.num % q.den === 0n) {
    const bytes = q.num / q.den;
    const units: [string, bigint][] = [
      ['Ei', 1n << 60n],
      ['Pi', 1n << 50n],
      ['Ti', 1n << 40n],
      ['Gi', 1n << 30n],
      ['Mi', 1n << 20n],
      ['Ki', 1n << 10n],
    ];
    for (const [u, n] of units) if (bytes % n === 0n) return `${sign}${bytes / n}${u}`;
  }
  // nano units, rounded up as Quantity does for precision below 1n
  const nanos = (q.num * 10n ** 9n + q.den - 1n) / q.den;
  const suffixes: [string, number][] = [
    ['E', 27],
    ['P', 24],
    ['T', 21],
    ['G', 18],
    ['M', 15],
    ['k', 12],
    ['', 9],
    ['m', 6],
    ['u', 3],
    ['n', 0],
  ];
  for (const [s, e] of suffixes) {
    const f = 10n ** BigInt(e);
    if (nanos % f === 0n) return `${sign}${nanos / f}${s}`;
  }
  return `${sign}${nanos}n`;
}

/** The number of bytes a base64 text decodes to (Secret and ConfigMap binary data). */
export function base64Length(b64: string | undefined): number {
  const s = (b64 ?? '').replace(/\s/g, '');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/** Go's %v of an intstr.IntOrString (PDB minAvailable / maxUnavailable). */
export function intOrString(v: string | number | undefined | null): string {
  return v === undefined || v === null ? '' : String(v);
}
