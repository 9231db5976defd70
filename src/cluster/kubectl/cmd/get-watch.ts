/**
 * `kubectl get … -w` / `--watch-only`, as GetOptions.watch in
 * staging/src/k8s.io/kubectl/pkg/cmd/get/get.go: one resource type only; the current objects
 * are printed through one tabwriter (aligned together, then flushed), then a watch starts at
 * the list's resourceVersion and every event is printed by the same printer and flushed on its
 * own. kubectl's tabwriter (k8s.io/cli-runtime/pkg/printers/tabwriter.go) is
 * github.com/liggitt/tabwriter with `RememberWidths`: a column never gets narrower than it was
 * in an earlier flush, and widens when a new row needs it (see {@link RememberingTabWriter}).
 * The table printer (k8s.io/cli-runtime/pkg/printers/tableprinter.go) prints the header once,
 * with the first rows; `--output-watch-events` adds the EVENT column ("ADDED   ", "MODIFIED",
 * "DELETED "); `-o yaml` separates documents with `---` (yaml.go), `-o json` prints each object.
 * kubectl stops on ^C and prints nothing more.
 */
import type { ResourceInfo } from '../../api/resources';
import { deepCopy, type KObject, type WatchEvent } from '../../api/types';
import { renderJSONPath } from '../jsonpath';
import { sortKeys, toJSON, toYAML } from './output';
import { customColumns, tableLayout } from './get-table';
import { KubectlError, fail, typeName, type Ctx, type KubectlEnv, type KubectlResult } from './util';

/** A running `get -w`: what it printed since the last drain, and ^C. */
export interface GetWatchSession {
  /** stdout printed since the previous call ("" when nothing happened). */
  drain(): string;
  /** ^C: stops the apiserver watch; prints nothing. Idempotent. */
  stop(): void;
  readonly stopped: boolean;
}

/** Where a watch goes once its first output is printed (the kubectl bar's host). */
export interface WatchSink {
  /** Simulated now, ms since the epoch (for AGE in the rows of later events). */
  now(): number;
  /** Receives the session; without a sink `-w` prints the current objects once. */
  open(session: GetWatchSession): void;
}

/** KubectlEnv plus the watch sink (only the kubectl bar passes one). */
export interface WatchEnv extends KubectlEnv {
  watch?: WatchSink;
}

/** Most lines a session buffers between drains (older ones are dropped). */
export const MAX_BUFFERED_LINES = 2_000;

/** tableprinter.go formattedEventType: padded to eight so the EVENT column stays aligned. */
const EVENT_TYPE: Record<string, string> = { ADDED: 'ADDED   ', MODIFIED: 'MODIFIED', DELETED: 'DELETED ', ERROR: 'ERROR   ' };

/** Prints one object (or watch event) the way the chosen printer does, keeping its state (header printed, document count). */
type Printer = (type: string, obj: KObject, nowMs: number, batch?: KObject[]) => string;

function stripManaged(ctx: Ctx, o: KObject): KObject {
  const c = deepCopy(o);
  if (!ctx.flags.has('show-managed-fields')) delete c.metadata.managedFields;
  return c;
}

/** The printer for `-o …`, stateful like kubectl's (header once, `---` between YAML documents). */
function makePrinter(ctx: Ctx, info: ResourceInfo): Printer {
  const events = ctx.flags.has('output-watch-events');
  let outFmt = ctx.flags.get('output') ?? '';
  let tpl = '';
  const eq = outFmt.indexOf('=');
  if (eq >= 0) {
    tpl = outFmt.slice(eq + 1);
    outFmt = outFmt.slice(0, eq);
  }
  const wrap = (type: string, o: KObject): unknown => (events ? { type, object: o } : o);
  switch (outFmt) {
    case 'name':
      return (type, o) => `${events ? `${EVENT_TYPE[type] ?? type} ` : ''}${typeName(info)}/${o.metadata.name}\n`;
    case 'yaml': {
      let count = 0;
      return (type, o) => (++count > 1 ? '---\n' : '') + toYAML(wrap(type, stripManaged(ctx, o)));
    }
    case 'json':
      return (type, o) => {
        const obj = stripManaged(ctx, o);
        if (!events) return toJSON(obj);
        // metav1.WatchEvent marshals its fields in struct order: type, then object
        return (
          JSON.stringify({ type, object: sortKeys(obj) }, null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n'
        );
      };
    case 'jsonpath':
    case 'jsonpath-as-json':
      return (type, o) => renderJSONPath(JSON.parse(toJSON(wrap(type, stripManaged(ctx, o)))), tpl);
    case 'custom-columns': {
      let printed = ctx.flags.has('no-headers');
      return (_type, o, _now, batch) => {
        const text = customColumns(ctx, batch ?? [o], tpl);
        const out = printed ? text.slice(text.indexOf('\n') + 1) : text;
        printed = true;
        return out;
      };
    }
    case '':
    case 'wide': {
      const layout = tableLayout(ctx, info, outFmt === 'wide', ctx.flags.has('show-kind'));
      const header = events ? ['EVENT', ...layout.header] : layout.header;
      let printedHeader = ctx.flags.has('no-headers');
      const writer = new RememberingTabWriter();
      return (type, o, nowMs, batch) => {
        const rows = (batch ?? [o]).map((x) => (events ? [EVENT_TYPE[type] ?? type, ...layout.row(x, nowMs)] : layout.row(x, nowMs)));
        if (!printedHeader && rows.length) {
          rows.unshift(header);
          printedHeader = true;
        }
        return writer.flush(rows);
      };
    }
    default:
      throw new KubectlError(
        `error: unable to match a printer suitable for the output format "${outFmt}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`,
      );
  }
}

/**
 * liggitt/tabwriter with kubectl's settings (minwidth 6, padding 3, RememberWidths): each
 * flush lays out its rows like tabwriter.ts `formatTable` but a column is as wide as the widest it
 * has been in any flush so far. The last cell of a row is not padded.
 */
export class RememberingTabWriter {
  private readonly widths: number[] = [];

  /** Lays out `rows` (one flush) and returns the text, each row ending in "\n". */
  flush(rows: string[][]): string {
    if (!rows.length) return '';
    const cols = Math.max(...rows.map((r) => r.length));
    for (let c = 0; c < cols - 1; c++) {
      let w = 0;
      let seen = false;
      for (const r of rows) {
        if (c < r.length - 1) {
          seen = true;
          w = Math.max(w, [...r[c]].length);
        }
      }
      if (seen) this.widths[c] = Math.max(this.widths[c] ?? 0, 6, w + 3);
    }
    return (
      rows
        .map((r) =>
          r.map((cell, c) => (c < r.length - 1 ? cell + ' '.repeat(Math.max(0, this.widths[c] - [...cell].length)) : cell)).join(''),
        )
        .join('\n') + '\n'
    );
  }
}

/** Keeps the last {@link MAX_BUFFERED_LINES} lines of `text`. */
function capLines(text: string): string {
  let cut = text.length;
  for (let n = 0; n <= MAX_BUFFERED_LINES; n++) {
    cut = text.lastIndexOf('\n', cut - 1);
    if (cut < 0) return text;
  }
  return text.slice(cut + 1);
}

/**
 * Runs the watch path of `kubectl get` for `targets` (already resolved) and `current` (the
 * objects the list or get returned, sorted as the table prints them). Returns the first output;
 * with a {@link WatchSink} in `ctx.env` the live session goes to it.
 */
export function runGetWatch(
  ctx: Ctx,
  targets: { info: ResourceInfo; names: string[] }[],
  current: KObject[],
  errors: string[],
): KubectlResult {
  if (targets.length !== 1) return fail('error: you may only specify a single resource type');
  const { info, names } = targets[0];
  if (names.length > 1)
    return fail(
      `error: watch is only supported on individual resources and resource collections, but ${names.length} resources were found`,
    );
  if (errors.length) return { output: '', error: errors.map((e) => (e.endsWith('\n') ? e : `${e}\n`)).join(''), exitCode: 1 };
  const print = makePrinter(ctx, info);
  let output = '';
  if (!ctx.flags.has('watch-only') && current.length) {
    const table = ctx.flags.get('output') ?? '';
    // tables go through one tabwriter flush; object printers print each object
    if (table === '' || table === 'wide' || table.startsWith('custom-columns')) output = print('ADDED', current[0], ctx.nowMs, current);
    else output = current.map((o) => print('ADDED', o, ctx.nowMs)).join('');
  }
  const sink = (ctx.env as WatchEnv).watch;
  if (!sink) return { output, error: null, exitCode: 0 };
  const allNs = ctx.flags.has('all-namespaces') && ctx.flags.get('all-namespaces') !== 'false';
  const rc = ctx.client.resource(info.group, info.resource);
  // a list's resourceVersion starts the watch right after what was printed (no synthetic ADDED)
  const list = rc.list(info.namespaced && !allNs ? ctx.namespace : undefined, {
    labelSelector: ctx.flags.get('selector'),
    fieldSelector: ctx.flags.get('field-selector'),
  });
  let buffer = '';
  let stopped = false;
  const onEvent = (ev: WatchEvent) => {
    if (stopped || (ev.type !== 'ADDED' && ev.type !== 'MODIFIED' && ev.type !== 'DELETED')) return;
    if (names.length && ev.object.metadata.name !== names[0]) return;
    buffer = capLines(buffer + print(ev.type, ev.object, sink.now()));
  };
  const unwatch = rc.watch(
    info.namespaced && !allNs ? ctx.namespace : undefined,
    {
      labelSelector: ctx.flags.get('selector'),
      fieldSelector: ctx.flags.get('field-selector'),
      resourceVersion: list.metadata.resourceVersion,
    },
    onEvent,
  );
  sink.open({
    drain() {
      const out = buffer;
      buffer = '';
      return out;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      unwatch();
    },
    get stopped() {
      return stopped;
    },
  });
  return { output, error: null, exitCode: 0 };
}
