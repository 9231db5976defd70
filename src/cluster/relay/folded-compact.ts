/**
 * The folded relay's implicit fields (docs/scenario-format.md#folded-relay): what a request entry,
 * a step or a watch delivery leaves out because it follows from the entries before it, walked in
 * the order expandRelay reads them (entry by entry; an entry's request, its steps, its
 * deliveries). {@link compactRequest} takes a request entry as folded.ts builds it (every `seq`,
 * every `time` as text, every request field) and leaves out what {@link fullRequest} puts back;
 * both update one {@link Walk} from the entry's hops, so they read the same defaults.
 *
 * - `seq`: left out when it is the previous hop's seq + 1 (in walk order).
 * - `time`: an entry's left out when it is the previous entry's time, else written `dt`: the
 *   milliseconds after it; a step's `dt` is after its request's time, a delivery's after the
 *   previous delivery's (the first: the request's). `time` stays as text when `dt` does not give
 *   it back exactly.
 * - a request entry's `kind` (always `request`); `from` the previous request entry's; `to`, `verb`,
 *   `resource`, `namespace`, `name`, `cause` and `reconcile` the last request entry's of the same
 *   `from` (none yet: the previous request entry's); `category` the last request entry's of the
 *   same resource; `summary` the last entry summary of the same requester (up to
 *   a `/`), verb and resource with its `namespace/name`, `name` and the requester's part after
 *   the `/` replaced by this entry's. A `null` category or reconcile, a `false` namespace, means
 *   "none".
 * - a step's `step`: the one after the previous step's (admission → storage → response →
 *   admission; the first step: admission); the entry's first `storage` step's `resourceVersion`:
 *   the last storage step's before it + 1 (`null`: none).
 * - a delivery's `to`: the receiver at the same place in the last `watchedBy` of a request entry
 *   of the same verb and resource.
 * - a run of steps or deliveries with nothing left: its count.
 */
/** A hop as the scenario JSON carries it (time as RFC 3339 text); folded entries add `detail` / `alsoTo`. */
export type JsonHop = Record<string, unknown> & { seq: number };

/** The key order of a request entry's hop; a request whose keys are not in this order stays unfolded. */
export const ENTRY_KEYS = [
  'from',
  'to',
  'kind',
  'verb',
  'resource',
  'namespace',
  'name',
  'summary',
  'category',
  'seq',
  'time',
  'cause',
  'reconcile',
] as const;
/** Entry fields where `null` means "none" (a hop's namespace may be null: there `false` means "none"). */
const ENTRY_NULLABLE = new Set<string>(['category', 'reconcile']);
const STRING_KEYS = ['from', 'to', 'kind', 'verb', 'resource', 'name', 'summary', 'time'] as const;

/** Whether request hop `h` can head a request entry: its keys in {@link ENTRY_KEYS} order, the required ones present. */
export function entryable(h: JsonHop): boolean {
  let at = -1;
  for (const k of Object.keys(h)) {
    if (h[k] === undefined) continue; // as the JSON text reads it
    const i = (ENTRY_KEYS as readonly string[]).indexOf(k);
    if (i <= at) return false;
    at = i;
  }
  for (const k of STRING_KEYS) if (typeof h[k] !== 'string') return false;
  if (h.kind !== 'request' || (h.cause !== null && typeof h.cause !== 'number')) return false;
  if (h.namespace !== undefined && h.namespace !== null && typeof h.namespace !== 'string') return false;
  if (h.category !== undefined && typeof h.category !== 'string') return false;
  return h.reconcile === undefined || typeof h.reconcile === 'number';
}

type Template = (string | number)[];

/** What the entries so far leave for the next one to default to. */
export interface Walk {
  /** the last hop's seq */
  seq: number | undefined;
  /** the last entry's time (its first hop's) */
  time: string | undefined;
  /** the last request entry's request hop */
  prev: JsonHop | undefined;
  /** requester → its last request entry's request hop */
  byFrom: Map<unknown, JsonHop>;
  /** the last storage step's resourceVersion */
  rv: unknown;
  /** resource → the last request entry's category */
  category: Map<string, unknown>;
  /** verb and resource → the receivers of the last watchedBy */
  receivers: Map<string, unknown[]>;
  /** requester, verb and resource → the last entry summary, as a template */
  summaries: Map<string, Template>;
}

export const newWalk = (): Walk => ({
  seq: undefined,
  time: undefined,
  prev: undefined,
  byFrom: new Map(),
  rv: undefined,
  category: new Map(),
  receivers: new Map(),
  summaries: new Map(),
});

/** `t` (RFC 3339 text) in ms since the epoch, when `Date` reads and writes it back exactly; else undefined. */
function ms(t: unknown): number | undefined {
  if (typeof t !== 'string') return undefined;
  if (msCache.has(t)) return msCache.get(t);
  const p = Date.parse(t);
  const v = Number.isFinite(p) && new Date(p).toISOString() === t ? p : undefined;
  if (msCache.size >= 4096) msCache.clear();
  msCache.set(t, v);
  return v;
}
/** Times read so far (a relay repeats each moment's text many times); a pure function's cache. */
const msCache = new Map<string, number | undefined>();

/** `dt` (ms) for `time` after `ref`, when both read back exactly (so `ref` + dt writes `time`); else undefined. */
function dtOf(time: unknown, ref: unknown): number | undefined {
  const a = ms(time);
  const b = ms(ref);
  return a === undefined || b === undefined ? undefined : a - b;
}

const timeAt = (ref: unknown, dt: unknown): string => new Date((ms(ref) ?? NaN) + Number(dt)).toISOString();

function summaryVars(h: Record<string, unknown>): string[] {
  const name = typeof h.name === 'string' ? h.name : '';
  const ns = typeof h.namespace === 'string' && h.namespace ? `${h.namespace}/` : '';
  const from = String(h.from);
  const slash = from.indexOf('/');
  return [`${ns}${name}`, name, slash < 0 ? '' : from.slice(slash + 1)];
}
const summaryKey = (h: Record<string, unknown>) => {
  const from = String(h.from);
  const slash = from.indexOf('/');
  return `${slash < 0 ? from : from.slice(0, slash)}\u0000${String(h.verb)}\u0000${String(h.resource)}`;
};

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

function fill(t: Template, vs: readonly string[]): string {
  let s = '';
  for (const p of t) s += typeof p === 'number' ? vs[p] : p;
  return s;
}

const NEXT_STEP: Record<string, string> = { admission: 'storage', storage: 'response', response: 'admission' };
const nextStep = (prev: unknown) => (typeof prev === 'string' && prev in NEXT_STEP ? NEXT_STEP[prev] : 'admission');
const receiversKey = (r: Record<string, unknown>) => `${String(r.verb)}\u0000${String(r.resource)}`;
const nextRv = (rv: unknown) => (typeof rv === 'string' && /^[1-9][0-9]{0,14}$/.test(rv) ? String(Number(rv) + 1) : undefined);

/**
 * Moves the walk past an entry: `time` its first hop's time, `lastSeq` its last hop's seq (walk
 * order); for a request entry, `req`: its request hop `r`, its steps (folded.ts's form) and the hops
 * of its steps then of its deliveries.
 */
export function walkPast(
  w: Walk,
  time: unknown,
  lastSeq: number,
  req?: { r: JsonHop; steps: readonly Record<string, unknown>[]; hops: readonly JsonHop[] },
): void {
  w.seq = lastSeq;
  w.time = time as string;
  if (!req) return;
  const { r, steps, hops } = req;
  w.prev = r;
  w.byFrom.set(r.from, r);
  w.category.set(String(r.resource), r.category);
  for (let i = 0; i < steps.length; i++) if (steps[i].step === 'storage') w.rv = hops[i].resourceVersion;
  if (hops.length > steps.length)
    w.receivers.set(
      receiversKey(r),
      hops.slice(steps.length).map((h) => h.to),
    );
}

/** `parts` with each run of empty parts (every field a default) written as its length. */
function runs(parts: Record<string, unknown>[]): (Record<string, unknown> | number)[] {
  const out: (Record<string, unknown> | number)[] = [];
  for (const p of parts) {
    const empty = Object.keys(p).length === 0;
    const last = out.length - 1;
    if (empty && typeof out[last] === 'number') out[last] = (out[last] as number) + 1;
    else out.push(empty ? 1 : p);
  }
  return out;
}

/** The parts of a `detail` or `watchedBy` list, each number n read as n empty parts. */
function unruns(list: unknown): Record<string, unknown>[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error('relay: detail and watchedBy must be lists');
  const out: Record<string, unknown>[] = [];
  for (const p of list as unknown[]) {
    if (typeof p === 'number') for (let i = 0; i < p; i++) out.push({});
    else out.push(p as Record<string, unknown>);
  }
  return out;
}

/**
 * The compact form of the request entry of request hop `r` with steps `detail` and deliveries
 * `watchedBy` in folded.ts's form (every seq and time), which expand to `hops` (walk order), after
 * walk `w` (not moved).
 */
export function compactRequest(
  detail: readonly Record<string, unknown>[],
  watchedBy: readonly Record<string, unknown>[],
  r: JsonHop,
  hops: readonly JsonHop[],
  w: Walk,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const p = w.byFrom.get(r.from) ?? w.prev;
  for (const k of ENTRY_KEYS) {
    const v = r[k];
    if (k === 'kind') continue;
    if (k === 'seq') {
      if (w.seq === undefined || v !== w.seq + 1) out.seq = v;
    } else if (k === 'time') {
      const dt = dtOf(v, w.time);
      if (dt === undefined) out.time = v;
      else if (dt !== 0) out.dt = dt;
    } else if (k === 'summary') {
      const key = summaryKey(r);
      const t = w.summaries.get(key);
      if (!t || fill(t, summaryVars(r)) !== v) {
        out.summary = v;
        w.summaries.set(key, toTemplate(String(v), summaryVars(r)));
      }
    } else {
      const q = k === 'from' ? w.prev : p;
      const d = k === 'category' ? w.category.get(String(r.resource)) : q ? q[k] : undefined;
      const known = k === 'category' || q !== undefined;
      if (known && v === d) continue;
      if (v === undefined && !known) continue;
      out[k] = v !== undefined ? v : k === 'namespace' ? false : null;
    }
  }
  let seq = r.seq;
  let prevStep: unknown;
  let firstStorage = true;
  const steps = detail.map((s0, i) => {
    const h = hops[i];
    const step = s0.step;
    const s: Record<string, unknown> = {};
    if (h.seq !== seq + 1) s.seq = h.seq;
    seq = h.seq;
    if (step !== nextStep(prevStep)) s.step = step;
    prevStep = step;
    if ('time' in s0) {
      const dt = dtOf(h.time, r.time);
      if (dt !== undefined) s.dt = dt;
      else s.time = h.time;
    }
    for (const k in s0) if (k !== 'seq' && k !== 'step' && k !== 'time' && s0[k] !== undefined) s[k] = s0[k];
    if (step === 'storage' && firstStorage) {
      firstStorage = false;
      const d = nextRv(w.rv);
      if (d !== undefined) {
        if (h.resourceVersion === d) delete s.resourceVersion;
        else s.resourceVersion = h.resourceVersion ?? null;
      }
    }
    return s;
  });
  const receivers = w.receivers.get(receiversKey(r));
  let prevTime = r.time;
  const deliveries = watchedBy.map((d0, j) => {
    const h = hops[detail.length + j];
    const d: Record<string, unknown> = {};
    if (h.seq !== seq + 1) d.seq = h.seq;
    seq = h.seq;
    if (!receivers || receivers[j] !== d0.to) d.to = d0.to;
    if ('time' in d0) {
      const dt = dtOf(h.time, prevTime);
      if (dt !== undefined) d.dt = dt;
      else d.time = h.time;
    }
    prevTime = h.time;
    for (const k in d0) if (k !== 'seq' && k !== 'to' && k !== 'time' && d0[k] !== undefined) d[k] = d0[k];
    return d;
  });
  if (steps.length) out.detail = runs(steps);
  if (deliveries.length) out.watchedBy = runs(deliveries);
  return out;
}

/** Request entry `c` (compact) in folded.ts's form, after walk `w` (not moved). */
export function fullRequest(c: Record<string, unknown>, w: Walk): JsonHop {
  const r: Record<string, unknown> = {};
  for (const k of ENTRY_KEYS) {
    let v: unknown;
    if (k === 'kind') v = 'request';
    else if (k === 'seq') v = 'seq' in c ? c.seq : (w.seq ?? NaN) + 1;
    else if (k === 'time') v = 'time' in c ? c.time : 'dt' in c ? timeAt(w.time, c.dt) : w.time;
    else if (k === 'summary') {
      const key = summaryKey(r);
      if (typeof c.summary === 'string') {
        v = c.summary;
        w.summaries.set(key, toTemplate(c.summary, summaryVars(r)));
      } else {
        const t = w.summaries.get(key);
        if (!t) throw new Error(`relay seq ${String(r.seq ?? c.seq)}: no summary and none to repeat`);
        v = fill(t, summaryVars(r));
      }
    } else if (k in c) v = ENTRY_NULLABLE.has(k) ? (c[k] ?? undefined) : k === 'namespace' && c[k] === false ? undefined : c[k];
    else v = k === 'category' ? w.category.get(String(r.resource)) : (k === 'from' ? w.prev : (w.byFrom.get(r.from) ?? w.prev))?.[k];
    if (v !== undefined) r[k] = v;
  }
  let seq = r.seq as number;
  let prevStep: unknown;
  let firstStorage = true;
  const detail = unruns(c.detail).map((s0) => {
    const { seq: sq, step: st, dt, ...rest } = s0;
    seq = sq === undefined ? seq + 1 : (sq as number);
    const step = st ?? nextStep(prevStep);
    prevStep = step;
    const s: Record<string, unknown> = { seq, step, ...rest };
    if (dt !== undefined) s.time = timeAt(r.time, dt);
    if (step === 'storage' && firstStorage) {
      firstStorage = false;
      const d = nextRv(w.rv);
      if (d !== undefined && !('resourceVersion' in s)) s.resourceVersion = d;
    }
    return s;
  });
  const receivers = w.receivers.get(receiversKey(r));
  let prevTime = r.time;
  const watchedBy = unruns(c.watchedBy).map((d0, j) => {
    const { seq: sq, to, dt, ...rest } = d0;
    seq = sq === undefined ? seq + 1 : (sq as number);
    const d: Record<string, unknown> = { seq, to: to === undefined ? receivers?.[j] : to, ...rest };
    if (dt !== undefined) d.time = timeAt(prevTime, dt);
    if ('time' in d) prevTime = d.time;
    return d;
  });
  if (detail.length) r.detail = detail;
  if (watchedBy.length) r.watchedBy = watchedBy;
  return r as JsonHop;
}
