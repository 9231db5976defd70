/**
 * The folded relay: the scenario JSON's relay (docs/scenario-format.md#folded-relay) with the
 * hops that repeat what another hop says folded into it, losslessly. {@link foldRelay} folds the
 * default array (hops oldest first, each as the scenario JSON writes it); {@link expandRelay}
 * gives back exactly that array: the same hops, values and key order.
 *
 * Two folds:
 * - A request entry: a `request` hop with a `detail` list of the hops its receiver recorded while
 *   serving it (`cause` = the request's seq, `from` = the request's `to`): the admission note
 *   (`step: "admission"`), the write to etcd (`"storage"`) and the response (`"response"`); and a
 *   `watchedBy` list of the watch deliveries of what it wrote (`cause` = the request's seq, after
 *   its steps). A step or delivery keeps its `seq` (a delivery its `to`) and only what differs
 *   from what it defaults to (below).
 * - A watch entry, for a watch event whose write has no entry: a `watch` hop with an `alsoTo`
 *   list of the other receivers of the same event at the same moment (every field equal but `to`,
 *   `seq`, `verb` and `summary`): `{to, seq}`, plus `verb` when it differs and `summary` when it is
 *   not the entry's with the verb replaced.
 *
 * Step defaults: `from` the request's `to`; `to` the request's `to` (admission), `etcd` (storage) or
 * the request's `from` (response); `kind` note, request, response; `verb`, `resource`,
 * `namespace`, `name` and `resourceVersion` the previous step's (the first step: the request's,
 * and no resourceVersion); `category` the request's, else `admission` (admission) or `storage`
 * (storage); `cause` the request's seq; `time` and `reconcile` the request's. A `null`
 * resourceVersion or category means "none". Delivery defaults: `from` the request's `to`, `kind`
 * watch, `cause` the request's seq; `verb`, `resource`, `namespace`, `name`, `resourceVersion`,
 * `category` and `time` the previous delivery's (the first: no verb, the last step's resource,
 * namespace, name and resourceVersion, the request's category and time). A step's summary is
 * left out when it is the last summary of a step of the same kind, requester (up to a `/`), verb
 * and resource, with that step's `namespace/name` (or `name`), resourceVersion and requester part
 * after the `/` replaced by this step's ({@link fill}); a delivery's likewise after the last
 * delivery of the same resource, its verb replaced too.
 *
 * On top of that, a request entry leaves out what follows from the entries before it (the next
 * seq, the previous time, ms offsets for other times, the requester's last fields, step names,
 * the next storage revision, the last receivers; folded-compact.ts), and a run of steps or
 * deliveries that take every default is written as its count.
 *
 * Every entry is folded only when expanding it gives back its hops byte for byte; a hop that
 * does not fit (another key order, a field no default covers) stays as it is.
 */

export type { JsonHop } from './folded-compact';

import { compactRequest, entryable, fullRequest, newWalk, walkPast, type JsonHop } from './folded-compact';

type Step = 'admission' | 'storage' | 'response';

/** Key order of a step's hop (the order the apiserver's record calls give, then seq, time, reconcile). */
const STEP_KEYS = [
  'from',
  'to',
  'kind',
  'verb',
  'resource',
  'namespace',
  'name',
  'summary',
  'cause',
  'resourceVersion',
  'category',
  'seq',
  'time',
  'reconcile',
] as const;
/** Fields a step inherits from the previous step (the first from the request). */
const CHAINED = ['verb', 'resource', 'namespace', 'name'] as const;

/** A summary with the hop's variable parts (namespace/name, name, resourceVersion) cut out: text pieces and var indices. */
type Template = (string | number)[];

function vars(h: Record<string, unknown>): string[] {
  const name = typeof h.name === 'string' ? h.name : '';
  const ns = typeof h.namespace === 'string' && h.namespace ? `${h.namespace}/` : '';
  const rv = typeof h.resourceVersion === 'string' ? h.resourceVersion : '';
  return [`${ns}${name}`, name, rv];
}

/** Cuts the first occurrence of each non-empty var (left to right, not overlapping) out of `s`. */
function toTemplate(s: string, vs: readonly string[]): Template {
  const t: Template = [];
  let at = 0;
  vs.forEach((v, i) => {
    if (!v) return;
    const j = s.indexOf(v, at);
    if (j < 0) return;
    if (j > at) t.push(s.slice(at, j));
    t.push(i);
    at = j + v.length;
  });
  if (at < s.length) t.push(s.slice(at));
  return t;
}

/** The summary a template gives with these vars. */
export function fill(t: Template, vs: readonly string[]): string {
  let s = '';
  for (const p of t) s += typeof p === 'number' ? vs[p] : p;
  return s;
}

function stepOf(h: JsonHop, r: JsonHop): Step | null {
  if (h.cause !== r.seq || h.from !== r.to || h.seq <= r.seq) return null;
  if (h.kind === 'note' && h.to === r.to) return 'admission';
  if (h.kind === 'request' && h.to === 'etcd') return 'storage';
  if (h.kind === 'response' && h.to === r.from) return 'response';
  return null;
}

const stepTo = (step: Step, r: JsonHop) => (step === 'admission' ? r.to : step === 'storage' ? 'etcd' : r.from);
const stepKind = (step: Step) => (step === 'admission' ? 'note' : step === 'storage' ? 'request' : 'response');
const stepCategory = (step: Step, r: JsonHop) =>
  r.category !== undefined ? r.category : step === 'admission' ? 'admission' : step === 'storage' ? 'storage' : undefined;
/** A requester's name up to a `/` (`kubelet/node-2` → `kubelet`) and after it (`node-2`; none: ''). */
function requester(from: unknown): [string, string] {
  const s = String(from);
  const i = s.indexOf('/');
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}
const templateKey = (step: Step, r: JsonHop, h: Record<string, unknown>) =>
  `${step}\u0000${requester(r.from)[0]}\u0000${String(h.verb)}\u0000${String(h.resource)}`;
/** A step's summary vars: its hop's, then the part of its requester's name after a `/`. */
const stepVars = (h: Record<string, unknown>, r: JsonHop) => [...vars(h), requester(r.from)[1]];

/** Expands one step of request entry `r` (`prev`: the previous step's hop, or r). */
function expandStep(
  s: Record<string, unknown>,
  r: JsonHop,
  prev: Record<string, unknown>,
  first: boolean,
  tpl: Map<string, Template> | null,
): JsonHop {
  const step = s.step as Step;
  if (step !== 'admission' && step !== 'storage' && step !== 'response')
    throw new Error(`relay seq ${r.seq}: unknown detail step ${String(step)}`);
  const v: Record<string, unknown> = {
    from: 'from' in s ? s.from : r.to,
    to: 'to' in s ? s.to : stepTo(step, r),
    kind: stepKind(step),
  };
  for (const k of CHAINED) v[k] = k in s ? s[k] : prev[k];
  v.cause = 'cause' in s ? s.cause : r.seq;
  v.resourceVersion = 'resourceVersion' in s ? (s.resourceVersion ?? undefined) : first ? undefined : prev.resourceVersion;
  v.category = 'category' in s ? (s.category ?? undefined) : stepCategory(step, r);
  v.seq = s.seq;
  v.time = 'time' in s ? s.time : r.time;
  v.reconcile = 'reconcile' in s ? (s.reconcile ?? undefined) : r.reconcile;
  if (typeof s.summary === 'string') {
    v.summary = s.summary;
    tpl?.set(templateKey(step, r, v), toTemplate(s.summary, stepVars(v, r)));
  } else {
    const t = tpl?.get(templateKey(step, r, v));
    if (!t) throw new Error(`relay seq ${String(s.seq)}: no summary and none to repeat`);
    v.summary = fill(t, stepVars(v, r));
  }
  const out: Record<string, unknown> = {};
  for (const k of STEP_KEYS) if (v[k] !== undefined) out[k] = v[k];
  return out as JsonHop;
}

/** Key order of a watch delivery's hop (the informer's record call, then seq, time). */
const WATCH_KEYS = [
  'from',
  'to',
  'kind',
  'verb',
  'resource',
  'namespace',
  'name',
  'resourceVersion',
  'summary',
  'cause',
  'category',
  'seq',
  'time',
] as const;
/** Fields a delivery inherits from the previous delivery (the first from the request's last step, its category and time from the request). */
const DELIVERY_CHAINED = ['verb', 'resource', 'namespace', 'name', 'resourceVersion', 'category', 'time'] as const;
/** `null` stands for "none" in these fields (a hop never carries a null there). */
const NULL_IS_NONE = new Set<string>(['resourceVersion', 'category', 'reconcile']);

const deliveryVars = (h: Record<string, unknown>) => [String(h.verb), ...vars(h)];
const deliveryKey = (h: Record<string, unknown>) => `watch\u0000${String(h.resource)}`;

/** What the first delivery of request `r` defaults to, after its last step `last` (or r). */
function deliveryBase(r: JsonHop, last: Record<string, unknown>): Record<string, unknown> {
  return {
    verb: undefined,
    resource: last.resource,
    namespace: last.namespace,
    name: last.name,
    resourceVersion: last === r ? undefined : last.resourceVersion,
    category: r.category,
    time: r.time,
  };
}

/** Expands one watch delivery `d` of request `r` (`base`: the previous delivery's hop, or {@link deliveryBase}). */
function expandDelivery(d: Record<string, unknown>, r: JsonHop, base: Record<string, unknown>, tpl: Map<string, Template> | null): JsonHop {
  const v: Record<string, unknown> = { from: 'from' in d ? d.from : r.to, to: d.to, kind: 'watch' };
  for (const k of DELIVERY_CHAINED) v[k] = k in d ? (NULL_IS_NONE.has(k) ? (d[k] ?? undefined) : d[k]) : base[k];
  v.cause = 'cause' in d ? d.cause : r.seq;
  v.seq = d.seq;
  if (typeof d.summary === 'string') {
    v.summary = d.summary;
    tpl?.set(deliveryKey(v), toTemplate(d.summary, deliveryVars(v)));
  } else {
    const t = tpl?.get(deliveryKey(v));
    if (!t) throw new Error(`relay seq ${String(d.seq)}: no summary and none to repeat`);
    v.summary = fill(t, deliveryVars(v));
  }
  const out: Record<string, unknown> = {};
  for (const k of WATCH_KEYS) if (v[k] !== undefined) out[k] = v[k];
  return out as JsonHop;
}

/** The request entry's hops: the request (without `detail` and `watchedBy`), its steps and its watch deliveries. */
function expandRequest(e: JsonHop, tpl: Map<string, Template>): JsonHop[] {
  const { detail = [], watchedBy = [], ...r } = e;
  if (!Array.isArray(detail) || !Array.isArray(watchedBy)) throw new Error(`relay seq ${e.seq}: detail and watchedBy must be lists`);
  const out: JsonHop[] = [r as JsonHop];
  let prev: Record<string, unknown> = r;
  detail.forEach((s: Record<string, unknown>, i) => {
    const h = expandStep(s, r as JsonHop, prev, i === 0, tpl);
    out.push(h);
    prev = h;
  });
  let base = deliveryBase(r as JsonHop, prev);
  for (const d of watchedBy as Record<string, unknown>[]) {
    const h = expandDelivery(d, r as JsonHop, base, tpl);
    out.push(h);
    base = h;
  }
  return out;
}

/** A watch delivery of request `r` for hop `h`: its seq, receiver, what differs from `base`, and its summary. */
function foldDelivery(h: JsonHop, r: JsonHop, base: Record<string, unknown>): Record<string, unknown> {
  const d: Record<string, unknown> = { seq: h.seq, to: h.to };
  if (h.from !== r.to) d.from = h.from;
  for (const k of DELIVERY_CHAINED) if (h[k] !== base[k]) d[k] = NULL_IS_NONE.has(k) ? (h[k] ?? null) : h[k];
  if (h.cause !== r.seq) d.cause = h.cause;
  d.summary = h.summary;
  return d;
}

/** The watch entry's hops: the first receiver's (without `alsoTo`) and one per other receiver, in W's key order. */
function expandWatch(e: JsonHop): JsonHop[] {
  const { alsoTo, ...w } = e;
  if (!Array.isArray(alsoTo)) throw new Error(`relay seq ${e.seq}: alsoTo must be a list`);
  const out: JsonHop[] = [w as JsonHop];
  const t = toTemplate(String(w.summary), [String(w.verb)]);
  for (const a of alsoTo as Record<string, unknown>[]) {
    const verb = 'verb' in a ? a.verb : w.verb;
    const h: Record<string, unknown> = { ...w, to: a.to, seq: a.seq, verb };
    h.summary = typeof a.summary === 'string' ? a.summary : fill(t, [String(verb)]);
    out.push(h as JsonHop);
  }
  return out;
}

/**
 * The default relay array (hops in seq order) of a folded one.
 * @throws Error when an entry is malformed (a step of an unknown kind, a summary left out with none to repeat)
 */
export function expandRelay(folded: readonly JsonHop[]): JsonHop[] {
  const tpl = new Map<string, Template>();
  const walk = newWalk();
  const out: JsonHop[] = [];
  for (const e of folded) {
    if ('detail' in e || 'watchedBy' in e) {
      const full = fullRequest(e, walk);
      const hops = expandRequest(full, tpl);
      walkPast(walk, hops[0].time, hops[hops.length - 1].seq, {
        r: hops[0],
        steps: (full.detail ?? []) as Record<string, unknown>[],
        hops: hops.slice(1),
      });
      out.push(...hops);
    } else {
      const hops = 'alsoTo' in e ? expandWatch(e) : [e];
      walkPast(walk, hops[0].time, hops[hops.length - 1].seq);
      out.push(...hops);
    }
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** A step of request `r` for hop `h`: its seq, its kind, what differs from the defaults, and its summary. */
function foldStep(h: JsonHop, step: Step, r: JsonHop, prev: Record<string, unknown>, first: boolean): Record<string, unknown> {
  const s: Record<string, unknown> = { seq: h.seq, step };
  if (h.from !== r.to) s.from = h.from;
  if (h.to !== stepTo(step, r)) s.to = h.to;
  for (const k of CHAINED) if (h[k] !== prev[k]) s[k] = h[k];
  if (h.cause !== r.seq) s.cause = h.cause;
  const rv = first ? undefined : prev.resourceVersion;
  if (h.resourceVersion !== rv) s.resourceVersion = h.resourceVersion ?? null;
  if (h.category !== stepCategory(step, r)) s.category = h.category ?? null;
  if (h.time !== r.time) s.time = h.time;
  if (h.reconcile !== r.reconcile) s.reconcile = h.reconcile ?? null;
  s.summary = h.summary;
  return s;
}

/** Whether two hops read the same as JSON: the same defined fields, in the same order, with equal values. */
function same(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && a[ka[i]] === undefined) i++;
    while (j < kb.length && b[kb[j]] === undefined) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j] || a[ka[i]] !== b[kb[j]]) return false;
    i++;
    j++;
  }
}

/** `v` as it reads back from the JSON text: without the fields set to undefined (hop fields are plain values). */
function reread<T extends Record<string, unknown>>(v: T): T {
  for (const k of Object.keys(v)) if (v[k] === undefined) delete v[k];
  return v;
}

/** The key two watch hops share when they are one event delivered to two receivers. */
function eventKey(h: JsonHop): string {
  const { to: _to, seq: _seq, verb: _verb, summary: _summary, ...rest } = h;
  return `${Object.keys(h).join(',')}\u0000${JSON.stringify(rest)}`;
}

interface OpenRequest {
  r: JsonHop;
  steps: Record<string, unknown>[];
  /** the hops of the steps, then of the deliveries */
  hops: JsonHop[];
  /** the last step's hop, or r */
  prev: Record<string, unknown>;
  deliveries: Record<string, unknown>[];
  /** the last delivery's hop, or the first delivery's base; once a delivery is in, no more steps */
  base: Record<string, unknown> | null;
  /** where its entry is in the output */
  at: number;
  /** whether a step or a delivery folded into it (then its entry replaces r in the output) */
  folded: boolean;
}

/**
 * Leaves out each summary the expansion repeats from an earlier step or delivery, walking the
 * request entries in the order {@link expandRelay} reads them (entry by entry, its steps then its
 * deliveries; a step of one request may be recorded after a step of the next).
 */
function dropRepeatedSummaries(requests: Iterable<OpenRequest>): void {
  const tpl = new Map<string, Template>();
  for (const o of requests) {
    if (!o.folded) continue;
    const n = o.steps.length;
    for (let i = 0; i < o.hops.length; i++) {
      const h = o.hops[i];
      const x = i < n ? o.steps[i] : o.deliveries[i - n];
      const key = i < n ? templateKey(x.step as Step, o.r, h) : deliveryKey(h);
      const vs = i < n ? stepVars(h, o.r) : deliveryVars(h);
      const t = tpl.get(key);
      // left out (undefined, as the JSON text reads it) rather than deleted: a deleted key slows the object
      if (t && fill(t, vs) === h.summary) x.summary = undefined;
      else if (typeof h.summary === 'string') tpl.set(key, toTemplate(h.summary, vs));
    }
  }
}

/**
 * Folds a relay (hops as the scenario JSON writes them, seq increasing) into the folded form
 * (module doc). The hops are not changed; entries are new objects.
 */
export function foldRelay(relay: readonly JsonHop[]): JsonHop[] {
  // request seq → its entry while later hops may still fold into it
  const requests = new Map<number, OpenRequest>();
  const watches = new Map<string, { w: JsonHop; also: Record<string, unknown>[]; at: number }>();
  const out: JsonHop[] = [];
  let lastTime: unknown;
  for (const h of relay) {
    if (h.time !== lastTime) {
      // one watch event reaches its receivers at one moment; a request's steps are kept open
      watches.clear();
      lastTime = h.time;
    }
    const open = typeof h.cause === 'number' ? requests.get(h.cause) : undefined;
    const step = open && !open.base ? stepOf(h, open.r) : null;
    if (open && step) {
      const s = reread(foldStep(h, step, open.r, open.prev, open.steps.length === 0));
      if (same(expandStep(s, open.r, open.prev, open.steps.length === 0, null), h)) {
        open.steps.push(s);
        open.hops.push(h);
        open.prev = h;
        open.folded = true;
        continue;
      }
    }
    if (open && h.kind === 'watch' && h.from === open.r.to && h.seq > open.r.seq) {
      const base = open.base ?? deliveryBase(open.r, open.prev);
      const d = reread(foldDelivery(h, open.r, base));
      if (same(expandDelivery(d, open.r, base, null), h)) {
        open.deliveries.push(d);
        open.hops.push(h);
        open.base = h;
        open.folded = true;
        continue;
      }
    }
    if (h.kind === 'watch' && typeof h.summary === 'string' && typeof h.verb === 'string') {
      const key = eventKey(h);
      const g = watches.get(key);
      if (!g) {
        watches.set(key, { w: h, also: [], at: out.length });
        out.push(h);
        continue;
      }
      const a: Record<string, unknown> = { to: h.to, seq: h.seq };
      if (h.verb !== g.w.verb) a.verb = h.verb;
      if (fill(toTemplate(String(g.w.summary), [String(g.w.verb)]), [h.verb]) !== h.summary) a.summary = h.summary;
      if (same(expandWatch({ ...g.w, alsoTo: [reread(a)] })[1], h)) {
        g.also.push(a);
        out[g.at] = { ...g.w, alsoTo: g.also };
        continue;
      }
    }
    if (h.kind === 'request' && entryable(h))
      requests.set(h.seq, { r: h, steps: [], hops: [], prev: h, deliveries: [], base: null, at: out.length, folded: false });
    out.push(h);
  }
  dropRepeatedSummaries(requests.values());
  // the implicit fields (folded-compact.ts), walking the entries in expandRelay's order
  const byAt = new Map<number, OpenRequest>();
  for (const o of requests.values()) if (o.folded) byAt.set(o.at, o);
  const walk = newWalk();
  out.forEach((e, i) => {
    const o = byAt.get(i);
    if (o) {
      out[i] = compactRequest(o.steps, o.deliveries, o.r, o.hops, walk) as JsonHop;
      walkPast(walk, o.r.time, o.hops[o.hops.length - 1].seq, { r: o.r, steps: o.steps, hops: o.hops });
    } else {
      const also = e.alsoTo as { seq: number }[] | undefined;
      walkPast(walk, e.time, also?.length ? also[also.length - 1].seq : e.seq);
    }
  });
  return out;
}
