/**
 * metadata.managedFields and server-side apply, a documented subset of
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager (and
 * sigs.k8s.io/structured-merge-diff):
 *
 * - field sets are FieldsV1 (`f:spec`, `k:{"name":"web"}` for lists with a patch merge key,
 *   `v:"x"` for set-like lists such as finalizers, `.` for a keyed list element itself);
 *   every other list is atomic (one leaf), as the k8s.io/api list-type tags make most of them;
 * - an Update (create, PUT, non-apply PATCH) gives its manager the fields whose values it
 *   changed and takes them from every other manager;
 * - an Apply owns exactly the fields of the applied configuration; fields it owned before
 *   and no longer applies are removed when nobody else owns them; a field another manager
 *   owns with a different value is a conflict (409, upstream text) unless `force=true`,
 *   which moves the field to the applier.
 * Not modelled: list keys made of several fields (e.g. containerPort+protocol), granular
 * maps/structs marked atomic, version conversion of field sets.
 */
import { listStrategy } from '../kubectl/strategic-merge';
import { StatusError } from '../api/errors';
import type { KObject } from '../api/types';

type Obj = Record<string, unknown>;
/** One managedFields entry, as metav1.ManagedFieldsEntry serializes. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const SEP = '\u0000';
/** Fields the field manager never tracks (system fields, identity, status of the main resource). */
const SKIP_TOP = new Set(['apiVersion', 'kind']);
const SKIP_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink']);

/**
 * Lists the field manager keys although strategic merge patch (listStrategy) replaces them
 * whole: `+listType=map` in k8s.io/api (conditions by type, podIPs/hostIPs by ip).
 */
function managedListKey(names: string[]): string | undefined {
  const f = names[names.length - 1];
  if (f === 'conditions' && names[0] === 'status') return 'type';
  if ((f === 'podIPs' || f === 'hostIPs') && names[0] === 'status') return 'ip';
  return undefined;
}
/** Keyed lists whose elements are atomic (`+structType=atomic`): the key is the leaf, as `k:{"uid":"…"}: {}`. */
const ATOMIC_ELEMENTS = new Set(['ownerReferences']);

/**
 * Leaf paths (segments joined by NUL) of an object, each with its JSON value (`undefined` for a
 * keyed element's `.`). `status`: the status subresource's fields (top-level `status`, plus
 * `metadata.annotations` with `statusAnnotations`) instead of the main resource's.
 */
export function leafPaths(obj: KObject, opts: { status?: boolean; statusAnnotations?: boolean } = {}): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, segs: string[], names: string[]): void => {
    if (isObj(v) && Object.keys(v).length) {
      for (const [k, x] of Object.entries(v)) {
        if (segs.length === 0 && (SKIP_TOP.has(k) || (!opts.status && k === 'status') || (opts.status && k !== 'status' && !(opts.statusAnnotations && k === 'metadata')))) continue;
        if (segs.length === 1 && segs[0] === 'f:metadata' && (SKIP_META.has(k) || (opts.status && k !== 'annotations'))) continue;
        walk(x, [...segs, `f:${k}`], [...names, k]);
      }
      return;
    }
    if (Array.isArray(v) && v.length) {
      const mk = managedListKey(names);
      const st = mk ? { key: mk } : listStrategy(obj.kind, names);
      if (typeof st === 'object' && ATOMIC_ELEMENTS.has(names[names.length - 1]) && v.every((e) => isObj(e) && e[st.key] !== undefined)) {
        for (const e of v as Obj[]) out.set([...segs, `k:${JSON.stringify({ [st.key]: e[st.key] })}`].join(SEP), e);
        return;
      }
      if (typeof st === 'object' && v.every((e) => isObj(e) && e[st.key] !== undefined)) {
        for (const e of v as Obj[]) {
          const item = [...segs, `k:${JSON.stringify({ [st.key]: e[st.key] })}`];
          out.set([...item, '.'].join(SEP), undefined);
          for (const [k, x] of Object.entries(e)) walk(x, [...item, `f:${k}`], [...names, k]);
        }
        return;
      }
      if (st === 'primitive-merge') {
        for (const e of v) out.set([...segs, `v:${JSON.stringify(e)}`].join(SEP), e);
        return;
      }
    }
    if (segs.length) out.set(segs.join(SEP), v);
  };
  walk(obj, [], []);
  return out;
}

/** A set of leaf paths as FieldsV1 JSON. */
export function toFieldsV1(paths: Iterable<string>): Obj {
  const root: Obj = {};
  for (const p of paths) {
    let cur = root;
    for (const s of p.split(SEP)) cur = (cur[s] ??= {}) as Obj;
  }
  return root;
}

/** FieldsV1 JSON back to leaf paths. */
export function fromFieldsV1(f: Obj | undefined): Set<string> {
  const out = new Set<string>();
  const walk = (o: Obj, segs: string[]): void => {
    const keys = Object.keys(o);
    if (!keys.length && segs.length) out.add(segs.join(SEP));
    for (const k of keys) walk(o[k] as Obj, [...segs, k]);
  };
  if (f) walk(f, []);
  return out;
}

/** fieldpath.Path.String(): `.spec.template.spec.containers[name="web"].image`. */
export function pathString(p: string): string {
  return p
    .split(SEP)
    .filter((s) => s !== '.')
    .map((s) => {
      if (s.startsWith('f:')) return `.${s.slice(2)}`;
      if (s.startsWith('k:')) {
        const kv = JSON.parse(s.slice(2)) as Obj;
        return `[${Object.entries(kv).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
      }
      return `[=${s.slice(2)}]`;
    })
    .join('');
}

/** The object's managedFields entries (copies); entries with no fields are dropped, as upstream does. */
function entries(obj: KObject | undefined): ManagedFieldsEntry[] {
  const list = (obj?.metadata as { managedFields?: ManagedFieldsEntry[] } | undefined)?.managedFields;
  return (Array.isArray(list) ? list : []).filter((e) => e && isObj(e.fieldsV1) && Object.keys(e.fieldsV1).length).map((e) => ({ ...e }));
}

function sameEntry(e: ManagedFieldsEntry, manager: string, op: string, sub: string | undefined): boolean {
  return e.manager === manager && e.operation === op && (e.subresource ?? '') === (sub ?? '');
}

/** Drops paths from every entry but the writer's; empty entries disappear. */
function withOwner(list: ManagedFieldsEntry[], mine: ManagedFieldsEntry, take: Set<string>, exists: Map<string, unknown>): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const e of list) {
    if (e === mine) continue;
    const keep = [...fromFieldsV1(e.fieldsV1)].filter((p) => !take.has(p) && exists.has(p));
    if (keep.length) out.push({ ...e, fieldsV1: toFieldsV1(keep) });
  }
  const own = [...fromFieldsV1(mine.fieldsV1)].filter((p) => exists.has(p));
  if (own.length) out.push({ ...mine, fieldsV1: toFieldsV1(own) });
  return out;
}

/**
 * managedFields after an Update by `manager` (create: `old` undefined). Returns the list to
 * store in metadata.managedFields of `next`.
 */
export function managedFieldsForUpdate(
  old: KObject | undefined,
  next: KObject,
  manager: string,
  apiVersion: string,
  time: string,
  subresource?: string,
  opts: { statusAnnotations?: boolean; serverSet?: (path: string) => boolean; input?: KObject } = {},
): ManagedFieldsEntry[] {
  const status = subresource === 'status';
  const lp = { status, statusAnnotations: opts.statusAnnotations };
  const before = old ? leafPaths(old, lp) : new Map<string, unknown>();
  const after = leafPaths(next, lp);
  const sent = opts.serverSet && opts.input ? leafPaths(opts.input, lp) : undefined;
  const changed = new Set<string>();
  for (const [p, v] of after) {
    if (before.has(p) && JSON.stringify(before.get(p)) === JSON.stringify(v)) continue;
    // a template's `creationTimestamp: null` is already in the zero-valued object upstream
    // compares a create against (create.go: liveObj = scope.Creater.New), so nobody owns it
    if (v === null && p.endsWith(`${SEP}f:creationTimestamp`)) continue;
    // set by admission / allocation after the field manager ran (the writer did not send it)
    if (sent && !sent.has(p) && opts.serverSet!(p)) continue;
    changed.add(p);
  }
  const list = entries(next);
  if (!changed.size) return list;
  let mine = list.find((e) => sameEntry(e, manager, 'Update', subresource));
  if (!mine) {
    mine = { manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1: {}, ...(subresource ? { subresource } : {}) };
    list.push(mine);
  }
  mine.time = time;
  mine.apiVersion = apiVersion;
  mine.fieldsV1 = toFieldsV1(new Set([...fromFieldsV1(mine.fieldsV1), ...changed]));
  const all = new Map([...leafPaths(next, { status: !status }), ...leafPaths(next, { status: true, statusAnnotations: true }), ...after]);
  return withOwner(list, mine, changed, all);
}

/**
 * Fields kube-apiserver sets after the field manager has run on a create — mutating admission
 * (ServiceAccount, Priority, DefaultTolerationSeconds, DefaultStorageClass, the
 * pvc/pv-protection finalizers) and REST allocations (a Service's ClusterIP, IP families,
 * node ports) — so the creator does not own them unless it sent them
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go: UpdateNoErrors before admit).
 * Keyed by group/resource ("pods", "services", …); paths as FieldsV1 segments joined by NUL.
 */
export function serverSetOnCreate(resource: string): ((path: string) => boolean) | undefined {
  const under = (...prefixes: string[]) => (p: string): boolean => prefixes.some((x) => p === x || p.startsWith(x + SEP));
  switch (resource) {
    case 'pods': {
      const meta = under('f:spec\u0000f:serviceAccountName', 'f:spec\u0000f:serviceAccount', 'f:spec\u0000f:priority', 'f:spec\u0000f:preemptionPolicy', 'f:spec\u0000f:tolerations');
      return (p) => meta(p) || /k:\{"(name|mountPath)":"(kube-api-access-|\/var\/run\/secrets\/kubernetes\.io\/serviceaccount)/.test(p);
    }
    case 'services':
      return (p) => under('f:spec\u0000f:clusterIP', 'f:spec\u0000f:clusterIPs', 'f:spec\u0000f:ipFamilies', 'f:spec\u0000f:ipFamilyPolicy', 'f:spec\u0000f:healthCheckNodePort')(p) || (p.startsWith('f:spec\u0000f:ports\u0000') && p.endsWith('\u0000f:nodePort'));
    case 'persistentvolumeclaims':
      return under('f:metadata\u0000f:finalizers', 'f:spec\u0000f:storageClassName');
    case 'persistentvolumes':
      return under('f:metadata\u0000f:finalizers');
    case 'namespaces':
      return under('f:spec\u0000f:finalizers');
    default:
      return undefined;
  }
}

/** The service accounts whose client is not kube-controller-manager: their binaries' User-Agent prefix. */
const SA_MANAGERS: Record<string, string> = {
  'kube-system:kube-proxy': 'kube-proxy',
  'kube-system:metrics-server': 'metrics-server',
  'kube-system:coredns': 'coredns',
  'kube-system:machine-controller': 'machine-controller',
  'kube-system:csi-provisioner': 'csi-provisioner',
  'ingress-nginx:ingress-nginx': 'nginx-ingress-controller',
  'local-path-storage:local-path-provisioner-service-account': 'local-path-provisioner',
};

/**
 * The manager a write without `fieldManager` is recorded under: upstream uses the prefix of the
 * client's User-Agent before the first "/" (handlers/rest.go managerOrUserAgent):
 * "kubectl", "kube-controller-manager" (every controller, whatever its service account),
 * "kube-scheduler", "kubelet" (system:node:*), "kube-apiserver" (its own bootstrap writes).
 */
export function fieldManagerOf(user: { name: string; participant: string }): string {
  const n = user.name;
  if (n === 'system:kube-scheduler') return 'kube-scheduler';
  if (n.startsWith('system:node:')) return 'kubelet';
  if (n.startsWith('system:serviceaccount:')) {
    const sa = n.slice('system:serviceaccount:'.length);
    if (SA_MANAGERS[sa]) return SA_MANAGERS[sa];
    return sa.startsWith('kube-system:') ? 'kube-controller-manager' : sa.slice(sa.indexOf(':') + 1);
  }
  if (n === 'system:apiserver') return user.participant === 'kube-relay' ? 'kube-relay' : 'kube-apiserver';
  if (user.participant.startsWith('kubectl')) return 'kubectl';
  return user.participant.split('/')[0] || 'unknown';
}

/** fieldmanager's printManager. */
function printManager(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}`;
  return s;
}

/** 409 Conflict for server-side apply, as fieldmanager/internal/conflict.go NewConflictError. */
function newApplyConflict(conflicts: { entry: ManagedFieldsEntry; path: string }[]): StatusError {
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].entry)}: ${pathString(conflicts[0].path)}`;
  } else {
    const by = new Map<string, { entry: ManagedFieldsEntry; paths: string[] }>();
    for (const c of conflicts) {
      const g = by.get(c.entry.manager) ?? { entry: c.entry, paths: [] };
      g.paths.push(c.path);
      by.set(c.entry.manager, g);
    }
    const parts: string[] = [];
    for (const m of [...by.keys()].sort()) {
      parts.push(`conflicts with ${printManager(by.get(m)!.entry)}:`);
      for (const p of by.get(m)!.paths) parts.push(`- ${pathString(p)}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${parts.join('\n')}`;
  }
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict',
    details: { causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.entry)}`, field: pathString(c.path) })) },
    code: 409,
  });
}

/** Removes one leaf path from an object (a keyed element's `.` removes the element). */
function removePath(obj: Obj, p: string): void {
  const segs = p.split(SEP);
  let cur: unknown = obj;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    const last = i === segs.length - 1 || (segs[i + 1] === '.' && i + 1 === segs.length - 1);
    if (s.startsWith('f:') && isObj(cur)) {
      if (last) {
        delete cur[s.slice(2)];
        return;
      }
      cur = cur[s.slice(2)];
    } else if ((s.startsWith('k:') || s.startsWith('v:')) && Array.isArray(cur)) {
      const want = JSON.parse(s.slice(2)) as unknown;
      const idx = cur.findIndex((e) => (s.startsWith('v:') ? JSON.stringify(e) === JSON.stringify(want) : isObj(e) && Object.entries(want as Obj).every(([k, v]) => JSON.stringify(e[k]) === JSON.stringify(v))));
      if (idx < 0) return;
      if (last) {
        cur.splice(idx, 1);
        return;
      }
      cur = cur[idx];
    } else return;
  }
}

/** Drops maps and lists left empty by removals (structured-merge-diff prunes them too). */
function prune(v: unknown, top = true): unknown {
  if (Array.isArray(v)) return v.map((x) => prune(x, false));
  if (!isObj(v)) return v;
  for (const k of Object.keys(v)) {
    const x = prune(v[k], false);
    if (!top && ((isObj(x) && !Object.keys(x).length) || (Array.isArray(x) && !x.length))) delete v[k];
    else v[k] = x;
  }
  return v;
}

/**
 * Server-side apply of `applied` onto `current` (undefined: the object does not exist yet).
 * `merge` is the strategic merge of the applied configuration onto the live object.
 * @returns the object to store, with its managedFields.
 * @throws StatusError 409 on a conflict without `force`.
 */
export function serverSideApply(current: KObject | undefined, applied: KObject, merge: (cur: KObject, cfg: KObject) => KObject, opts: { manager: string; force: boolean; apiVersion: string; time: string }): KObject {
  const appliedPaths = leafPaths(applied);
  const list = entries(current);
  let mine = list.find((e) => sameEntry(e, opts.manager, 'Apply', undefined));
  const prev = mine ? fromFieldsV1(mine.fieldsV1) : new Set<string>();
  // fields forced away from their managers; an applied field with the live value is co-owned
  const taken = new Set<string>();
  if (current) {
    const live = leafPaths(current);
    const conflicts: { entry: ManagedFieldsEntry; path: string }[] = [];
    for (const e of list) {
      if (e === mine || e.subresource) continue;
      for (const p of fromFieldsV1(e.fieldsV1)) {
        if (!appliedPaths.has(p) || p.endsWith(`${SEP}.`)) continue;
        if (JSON.stringify(live.get(p)) !== JSON.stringify(appliedPaths.get(p))) conflicts.push({ entry: e, path: p });
      }
    }
    if (conflicts.length && !opts.force) throw newApplyConflict(conflicts);
    for (const c of conflicts) taken.add(c.path);
  }
  let next = current ? merge(current, applied) : JSON.parse(JSON.stringify(applied)) as KObject;
  if (current) {
    const othersOwn = new Set(list.filter((e) => e !== mine).flatMap((e) => [...fromFieldsV1(e.fieldsV1)]));
    for (const p of prev) if (!appliedPaths.has(p) && !othersOwn.has(p)) removePath(next as unknown as Obj, p);
    // the merged object's managedFields share their field sets with `list`: prune must not
    // empty them (they are replaced below anyway)
    delete (next.metadata as { managedFields?: unknown }).managedFields;
    next = prune(next) as KObject;
  }
  if (!mine) {
    mine = { manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion, time: opts.time, fieldsType: 'FieldsV1', fieldsV1: {} };
    list.push(mine);
  }
  mine.time = opts.time;
  mine.apiVersion = opts.apiVersion;
  mine.fieldsV1 = toFieldsV1(appliedPaths.keys());
  const all = new Map([...leafPaths(next), ...leafPaths(next, { status: true })]);
  (next.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields = withOwner(list, mine, taken, all);
  return next;
}
