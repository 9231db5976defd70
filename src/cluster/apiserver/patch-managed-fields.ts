/**
 * metadata.managedFields and server-side apply, a documented subset of
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager (and
 * sigs.k8s.io/structured-merge-diff):
 *
 * - field sets are FieldsV1 (`f:spec`, `k:{"name":"web"}` for lists with a patch merge key,
 *   `v:"x"` for set-like lists such as finalizers, `.` for a keyed list element itself);
 *   every other list is atomic (one leaf), as the k8s.io/api list-type tags make most of them;
 * - an Update (create, PUT, non-apply PATCH) gives its manager the fields whose values it
 *   changed and takes them from every other manager; fields it removed leave every manager
 *   (computed by a walk of both versions, managed-fields-diff.ts; entries are shared between
 *   versions, never mutated);
 * - an Apply owns exactly the fields of the applied configuration; fields it owned before
 *   and no longer applies are removed when nobody else owns them; a field another manager
 *   owns with a different value is a conflict (409, upstream text) unless `force=true`,
 *   which moves the field to the applier.
 * Not modelled: list keys made of several fields (e.g. containerPort+protocol), granular
 * maps/structs marked atomic, version conversion of field sets.
 */
import { listStrategy } from '../apimachinery/strategic-merge';
import { StatusError } from '../api/errors';
import { getOwn, setOwn } from '../api/safe-object';
import { deepCopy, deepEqual, type KObject } from '../api/types';
import {
  ATOMIC_ELEMENTS,
  SKIP_META,
  SKIP_TOP,
  diffFields,
  isEmptyFields,
  managedListKey,
  subtractFields,
  unionFields,
  type FieldsTree,
} from './managed-fields-diff';
import { CreateFieldsMemo } from './managed-fields-memo';

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
        if (
          segs.length === 0 &&
          (SKIP_TOP.has(k) ||
            (!opts.status && k === 'status') ||
            (opts.status && k !== 'status' && !(opts.statusAnnotations && k === 'metadata')))
        )
          continue;
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
    for (const s of p.split(SEP)) cur = (getOwn(cur, s) ?? setOwn(cur, s, {})) as Obj;
  }
  return root;
}

/** FieldsV1 JSON back to leaf paths. */
export function fromFieldsV1(f: Obj | undefined): Set<string> {
  const out = new Set<string>();
  const walk = (o: Obj, segs: string[]): void => {
    const keys = Object.keys(o);
    if (!keys.length && segs.length) out.add(segs.join(SEP));
    for (const k of keys) walk(isObj(o[k]) ? (o[k] as Obj) : {}, [...segs, k]);
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
        return `[${Object.entries(kv)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
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
function withOwner(
  list: ManagedFieldsEntry[],
  mine: ManagedFieldsEntry | undefined,
  take: Set<string>,
  exists: Map<string, unknown>,
): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const e of list) {
    if (e === mine) continue;
    const keep = [...fromFieldsV1(e.fieldsV1)].filter((p) => !take.has(p) && exists.has(p));
    if (keep.length) out.push({ ...e, fieldsV1: toFieldsV1(keep) });
  }
  const own = mine ? [...fromFieldsV1(mine.fieldsV1)].filter((p) => exists.has(p)) : [];
  if (own.length) out.push({ ...mine!, fieldsV1: toFieldsV1(own) });
  return out;
}

/** Options of {@link managedFieldsForUpdate}. */
export interface UpdateFieldsOptions {
  /** A status write of a resource whose status strategy keeps annotations (Deployments). */
  statusAnnotations?: boolean;
  /** Create only: fields admission/allocation set (owned only when `input` sent them); see {@link serverSetOnCreate}. */
  serverSet?: (segs: readonly string[]) => boolean;
  /** Create only: the request body. */
  input?: KObject;
  /**
   * The stored object's entries, to be used as they are: immutable (shared with the stored
   * version, never mutated) and consistent (every field they hold exists in `old`). Without it
   * the entries of `next` are copied and checked against the object (a request that sends its
   * own managedFields).
   */
  live?: readonly ManagedFieldsEntry[];
  /**
   * Where a create's field set is remembered per (manager, field shape) (managed-fields-memo.ts):
   * by default one memo for the process (what it returns does not depend on what it holds);
   * `null` computes every field set afresh.
   */
  memo?: CreateFieldsMemo | null;
}

/** The process's memo of create field sets (its trees are frozen and shared by every cluster). */
const CREATE_MEMO = new CreateFieldsMemo();

/**
 * managedFields after an Update by `manager` (create: `old` undefined). Returns the list to
 * store in metadata.managedFields of `next`, as managedfields/internal/managedfieldsupdater.go
 * with structured-merge-diff merge/update.go `Updater.Update`: the fields the write added or
 * modified (in its part of the object: the main resource, or status) become the manager's and
 * leave every other manager; removed fields leave every manager; the manager's entry gets the
 * new `time` (and apiVersion) whenever the write changed a field, even one it already owned.
 * Unchanged entries are returned as the same objects (structural sharing).
 */
export function managedFieldsForUpdate(
  old: KObject | undefined,
  next: KObject,
  manager: string,
  apiVersion: string,
  time: string,
  subresource?: string,
  opts: UpdateFieldsOptions = {},
): ManagedFieldsEntry[] {
  const status = subresource === 'status';
  // a status write changes nothing but status (and annotations): the status strategy copies the rest
  const diffOpts = {
    kind: next.kind,
    status,
    statusAnnotations: opts.statusAnnotations,
    writerOnly: status,
    serverSet: opts.serverSet,
    input: opts.input,
  };
  const memo = opts.memo === undefined ? CREATE_MEMO : opts.memo;
  // a create removes nothing; its field set is the memo's when the object has a remembered shape
  const { changed, removed } =
    old === undefined && opts.live && memo
      ? { changed: memo.changedOnCreate(next, diffOpts, manager, subresource), removed: undefined }
      : diffFields(old, next, diffOpts);
  if (!opts.live) return updateSlow(next, manager, apiVersion, time, subresource, changed, removed);
  const list = opts.live;
  if (!changed && !removed) return list.slice();
  const mine = changed ? list.find((e) => sameEntry(e, manager, 'Update', subresource)) : undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const e of list) {
    if (e === mine) continue;
    const f = subtractFields(subtractFields(e.fieldsV1, removed), changed);
    if (f === e.fieldsV1) out.push(e);
    else if (!isEmptyFields(f)) out.push({ ...e, fieldsV1: f });
  }
  if (changed) {
    // a new entry holds the changed set itself (∪ with nothing), shared with the memo's
    const fieldsV1 = mine ? unionFields(subtractFields(mine.fieldsV1, removed), changed) : changed;
    out.push(
      mine
        ? { ...mine, time, apiVersion, fieldsV1 }
        : { manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) },
    );
  }
  return out;
}

/**
 * The Update when the request sent its own managedFields (or a create): the entries are copied
 * from `next` and, when the write changed fields, kept to fields the object has.
 */
function updateSlow(
  next: KObject,
  manager: string,
  apiVersion: string,
  time: string,
  subresource: string | undefined,
  changedTree: FieldsTree | undefined,
  removed: FieldsTree | undefined,
): ManagedFieldsEntry[] {
  const list = entries(next);
  const changed = fromFieldsV1(changedTree);
  if (!changed.size && !removed) return list;
  let mine = changed.size ? list.find((e) => sameEntry(e, manager, 'Update', subresource)) : undefined;
  if (changed.size && !mine) {
    mine = {
      manager,
      operation: 'Update',
      apiVersion,
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
      ...(subresource ? { subresource } : {}),
    };
    list.push(mine);
  }
  const all = new Map([...leafPaths(next), ...leafPaths(next, { status: true, statusAnnotations: true })]);
  if (!mine) return withOwner(list, undefined, changed, all);
  mine.time = time;
  mine.apiVersion = apiVersion;
  mine.fieldsV1 = toFieldsV1(new Set([...fromFieldsV1(mine.fieldsV1), ...changed]));
  return withOwner(list, mine, changed, all);
}

/**
 * The stored entries to reuse for a write that sent `sent` (the request's managedFields): the
 * live ones when the request sent none or the same ones back (a client that read the object
 * and wrote it), else undefined (the sent ones replace them: kubectl's CSA→SSA migration).
 */
export function liveEntries(live: unknown, sent: unknown): readonly ManagedFieldsEntry[] | undefined {
  const l = (Array.isArray(live) ? live : []) as ManagedFieldsEntry[];
  if (!Array.isArray(sent) || !sent.length || sent === l) return l;
  if (sent.length !== l.length) return undefined;
  for (let i = 0; i < l.length; i++) if (!deepEqual(sent[i], l[i])) return undefined;
  return l;
}

/**
 * Fields kube-apiserver sets after the field manager has run on a create — mutating admission
 * (ServiceAccount, Priority, DefaultTolerationSeconds, DefaultStorageClass, the
 * pvc/pv-protection finalizers) and REST allocations (a Service's ClusterIP, IP families,
 * node ports) — so the creator does not own them unless it sent them
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go: UpdateNoErrors before admit).
 * Keyed by group/resource ("pods", "services", …); a path is its FieldsV1 segments
 * (`["f:spec", "f:clusterIP"]`).
 */
export function serverSetOnCreate(resource: string): ((segs: readonly string[]) => boolean) | undefined {
  return getOwn(SERVER_SET, resource);
}

/** `<top>.<field>` (e.g. spec.clusterIP) and everything under it. */
function under(s: readonly string[], top: string, fields: readonly string[]): boolean {
  return s[0] === top && fields.includes(s[1]);
}
const POD_ADMISSION = ['f:serviceAccountName', 'f:serviceAccount', 'f:priority', 'f:preemptionPolicy', 'f:tolerations'];
const POD_TOKEN = /^k:\{"(name|mountPath)":"(kube-api-access-|\/var\/run\/secrets\/kubernetes\.io\/serviceaccount)/;
const SERVICE_ALLOC = ['f:clusterIP', 'f:clusterIPs', 'f:ipFamilies', 'f:ipFamilyPolicy', 'f:healthCheckNodePort'];
const FINALIZERS = ['f:finalizers'];
const SERVER_SET: Record<string, (s: readonly string[]) => boolean> = {
  pods: (s) => under(s, 'f:spec', POD_ADMISSION) || s.some((x) => x.startsWith('k:') && POD_TOKEN.test(x)),
  services: (s) =>
    under(s, 'f:spec', SERVICE_ALLOC) || (s.length > 2 && s[0] === 'f:spec' && s[1] === 'f:ports' && s[s.length - 1] === 'f:nodePort'),
  persistentvolumeclaims: (s) => under(s, 'f:metadata', FINALIZERS) || under(s, 'f:spec', ['f:storageClassName']),
  persistentvolumes: (s) => under(s, 'f:metadata', FINALIZERS),
  namespaces: (s) => under(s, 'f:spec', FINALIZERS),
};

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
    const known = getOwn(SA_MANAGERS, sa);
    if (known) return known;
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
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.entry)}`,
        field: pathString(c.path),
      })),
    },
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
      cur = getOwn(cur, s.slice(2));
    } else if ((s.startsWith('k:') || s.startsWith('v:')) && Array.isArray(cur)) {
      const want = JSON.parse(s.slice(2)) as unknown;
      const idx = cur.findIndex((e) =>
        s.startsWith('v:')
          ? JSON.stringify(e) === JSON.stringify(want)
          : isObj(e) && Object.entries(want as Obj).every(([k, v]) => JSON.stringify(e[k]) === JSON.stringify(v)),
      );
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
    else setOwn(v, k, x);
  }
  return v;
}

/**
 * Server-side apply of `applied` onto `current` (undefined: the object does not exist yet).
 * `merge` is the strategic merge of the applied configuration onto the live object.
 * @returns the object to store, with its managedFields.
 * @throws StatusError 409 on a conflict without `force`.
 */
export function serverSideApply(
  current: KObject | undefined,
  applied: KObject,
  merge: (cur: KObject, cfg: KObject) => KObject,
  opts: { manager: string; force: boolean; apiVersion: string; time: string; allowedConflicts?: ReadonlySet<string> },
): KObject {
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
      // status writers own fields an apply of the main resource resets; /scale writers own spec.replicas
      if (e === mine || e.subresource === 'status') continue;
      for (const p of fromFieldsV1(e.fieldsV1)) {
        if (!appliedPaths.has(p) || p.endsWith(`${SEP}.`)) continue;
        if (JSON.stringify(live.get(p)) !== JSON.stringify(appliedPaths.get(p))) conflicts.push({ entry: e, path: p });
      }
    }
    // lastappliedmanager.go: conflicts only on fields client-side apply set (and nobody changed
    // since) are forced, for kubectl's CSA → SSA upgrade
    const allowed = opts.allowedConflicts;
    const forced = opts.force || (allowed !== undefined && conflicts.every((c) => allowed.has(c.path)));
    if (conflicts.length && !forced) throw newApplyConflict(allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts);
    for (const c of conflicts) taken.add(c.path);
  }
  // the merge shares unpatched subtrees with the stored object (read-only): removePath and
  // prune below edit a copy
  let next = current ? deepCopy(merge(current, applied)) : (JSON.parse(JSON.stringify(applied)) as KObject);
  if (current) {
    const othersOwn = new Set(list.filter((e) => e !== mine).flatMap((e) => [...fromFieldsV1(e.fieldsV1)]));
    for (const p of prev) if (!appliedPaths.has(p) && !othersOwn.has(p)) removePath(next as unknown as Obj, p);
    // the merged object's managedFields share their field sets with `list`: prune must not
    // empty them (they are replaced below anyway)
    delete (next.metadata as { managedFields?: unknown }).managedFields;
    next = prune(next) as KObject;
  }
  if (!mine) {
    mine = {
      manager: opts.manager,
      operation: 'Apply',
      apiVersion: opts.apiVersion,
      time: opts.time,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
    };
    list.push(mine);
  }
  mine.time = opts.time;
  mine.apiVersion = opts.apiVersion;
  mine.fieldsV1 = toFieldsV1(appliedPaths.keys());
  const all = new Map([...leafPaths(next), ...leafPaths(next, { status: true })]);
  (next.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields = withOwner(list, mine, taken, all);
  return next;
}
