/**
 * Pure Deployment helpers, after kubernetes/kubernetes
 * pkg/controller/deployment/util/deployment_util.go (annotations, fenceposts, new/old
 * ReplicaSets, NewRSNewReplicas, conditions, DeploymentComplete/Progressing/TimedOut,
 * GetProportion), controller.ComputeHash (pkg/controller/controller_utils.go) and
 * calculateStatus of pkg/controller/deployment/sync.go.
 *
 * Times: simulated ms since the epoch; condition times are RFC 3339 strings.
 */
import { deepCopy, deepEqual } from '../api/types';
import type { APIObject, Deployment, ReplicaSet } from '../api/objects';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type * as apps from 'kubernetes-types/apps/v1';
import { byCreationTimestamp, filterActiveReplicaSets, specReplicas } from './controller-utils';
import { utf8 } from '../util/hash';
import { getOwn, setOwn } from '../api/safe-object';

// ---- constants -----------------------------------------------------------------------------

/** apps.DefaultDeploymentUniqueLabelKey. */
export const DefaultDeploymentUniqueLabelKey = 'pod-template-hash';
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
export const RevisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const DesiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const MaxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
/** apps.DeprecatedRollbackTo (extensions/v1beta1 rollbackTo carried as an annotation). */
export const DeprecatedRollbackTo = 'deprecated.deployment.rollback.to';
const LastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** Condition reasons (deployment_util.go). */
export const ReplicaSetUpdatedReason = 'ReplicaSetUpdated';
export const FailedRSCreateReason = 'ReplicaSetCreateError';
export const NewReplicaSetReason = 'NewReplicaSetCreated';
export const FoundNewRSReason = 'FoundNewReplicaSet';
export const NewRSAvailableReason = 'NewReplicaSetAvailable';
export const TimedOutReason = 'ProgressDeadlineExceeded';
export const PausedDeployReason = 'DeploymentPaused';
export const ResumedDeployReason = 'DeploymentResumed';
export const MinimumReplicasAvailable = 'MinimumReplicasAvailable';
export const MinimumReplicasUnavailable = 'MinimumReplicasUnavailable';

/** sync.go maxRevHistoryLengthInChars. */
export const maxRevHistoryLengthInChars = 2000;

const annotationsToSkip = new Set([
  LastAppliedConfigAnnotation,
  RevisionAnnotation,
  RevisionHistoryAnnotation,
  DesiredReplicasAnnotation,
  MaxReplicasAnnotation,
  DeprecatedRollbackTo,
]);

// ---- hashing ---------------------------------------------------------------------------------

/** JSON with object keys sorted at every level (undefined members dropped). */
export function canonicalJSON(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJSON(x))).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
}

/** hash/fnv New32a over `bytes`, continuing from `h`. */
export function fnv32a(bytes: Iterable<number>, h = 0x811c9dc5): number {
  for (const b of bytes) {
    h ^= b & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each byte mapped onto "bcdfghjklmnpqrstvwxz2456789" (no vowels, no 0/1/3). */
export function safeEncodeString(s: string): string {
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

/**
 * controller.ComputeHash: the pod-template-hash of a PodTemplateSpec.
 *
 * Upstream feeds FNV-32a with a deep-hash of the Go struct (spew's printing of
 * `*template`), then 8 little-endian bytes of collisionCount when set, and encodes the
 * decimal of the sum with SafeEncodeString. Go's spew output cannot be reproduced here, so the
 * engine hashes a canonical (sorted-key) JSON of the template instead: same algorithm, same
 * alphabet and length range (e.g. "7c5ddbdf54"), deterministic, but a real cluster would
 * compute a different value for the same template.
 */
export function computeHash(template: unknown, collisionCount?: number | null): string {
  let h = fnv32a(utf8(canonicalJSON(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const c = collisionCount >>> 0;
    h = fnv32a([c & 255, (c >>> 8) & 255, (c >>> 16) & 255, (c >>> 24) & 255, 0, 0, 0, 0], h);
  }
  return safeEncodeString(String(h));
}

// ---- fenceposts ------------------------------------------------------------------------------

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is; "25%" of `total`, rounded up or down.
 * @throws Error for a string that is not a percentage.
 */
export function getScaledValueFromIntOrPercent(v: number | string | undefined | null, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** IsRollingUpdate. */
export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

function rollingParams(d: Deployment): { maxSurge: number | string; maxUnavailable: number | string } {
  const ru = d.spec?.strategy?.rollingUpdate ?? {};
  return { maxSurge: ru.maxSurge ?? '25%', maxUnavailable: ru.maxUnavailable ?? '25%' };
}

/**
 * ResolveFenceposts: surge rounds up, unavailable rounds down; when both resolve to 0,
 * unavailable becomes 1.
 */
export function resolveFenceposts(
  maxSurge: number | string | undefined,
  maxUnavailable: number | string | undefined,
  desired: number,
): [number, number] {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

/** MaxUnavailable: 0 for Recreate or 0 replicas; never more than spec.replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const p = rollingParams(d);
  const [, u] = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicas);
  return Math.min(u, replicas);
}

/** MaxSurge: 0 for Recreate. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d))[0];
}

// ---- replica sets ----------------------------------------------------------------------------

/**
 * The template without the pod-template-hash label, for comparison only: copies the three
 * levels it changes (template, metadata, labels) and shares the rest with `t` (read-only).
 */
function templateWithoutHash(t: PodTemplateSpec | undefined): unknown {
  const c = { ...(t ?? {}) };
  if (c.metadata?.labels) {
    const labels = { ...c.metadata.labels };
    delete labels[DefaultDeploymentUniqueLabelKey];
    c.metadata = { ...c.metadata, labels };
    if (Object.keys(labels).length === 0) delete c.metadata.labels;
  }
  return c;
}

/** EqualIgnoreHash: templates equal apart from the pod-template-hash label. */
export function equalIgnoreHash(t1: PodTemplateSpec | undefined, t2: PodTemplateSpec | undefined): boolean {
  return deepEqual(templateWithoutHash(t1), templateWithoutHash(t2));
}

/** FindNewReplicaSet: the oldest RS whose template equals the Deployment's (ignoring the hash). */
export function findNewReplicaSet(d: Deployment, rsList: ReplicaSet[]): ReplicaSet | undefined {
  return [...rsList].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** FindOldReplicaSets: [old RSes with replicas > 0, all old RSes]. */
export function findOldReplicaSets(d: Deployment, rsList: ReplicaSet[]): [ReplicaSet[], ReplicaSet[]] {
  const newRS = findNewReplicaSet(d, rsList);
  const required: ReplicaSet[] = [];
  const all: ReplicaSet[] = [];
  for (const rs of rsList) {
    if (newRS && rs.metadata.uid === newRS.metadata.uid) continue;
    all.push(rs);
    if (specReplicas(rs) !== 0) required.push(rs);
  }
  return [required, all];
}

/** FindActiveOrLatest: the only active RS, the newest when none is active, else undefined. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const sortedOld = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...sortedOld, newRS]);
  if (active.length === 0) return newRS ?? sortedOld[0];
  if (active.length === 1) return active[0];
  return undefined;
}

const sum = (rss: (ReplicaSet | undefined)[], f: (rs: ReplicaSet) => number) => rss.reduce((n, rs) => (rs ? n + f(rs) : n), 0);

/** GetReplicaCountForReplicaSets: sum of spec.replicas. */
export const getReplicaCount = (rss: (ReplicaSet | undefined)[]) => sum(rss, specReplicas);
/** GetActualReplicaCountForReplicaSets: sum of status.replicas. */
export const getActualReplicaCount = (rss: (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.replicas ?? 0);
/** GetReadyReplicaCountForReplicaSets. */
export const getReadyReplicaCount = (rss: (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.readyReplicas ?? 0);
/** GetAvailableReplicaCountForReplicaSets. */
export const getAvailableReplicaCount = (rss: (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.availableReplicas ?? 0);

/**
 * NewRSNewReplicas: how many replicas the new RS may have now — under RollingUpdate, as many
 * as maxSurge allows (never more than spec.replicas); under Recreate, spec.replicas.
 * @throws Error for an unknown strategy type.
 */
export function newRSNewReplicas(d: Deployment, allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet): number {
  const type = d.spec?.strategy?.type ?? 'RollingUpdate';
  const replicas = specReplicas(d);
  if (type === 'RollingUpdate') {
    const surge = getScaledValueFromIntOrPercent(rollingParams(d).maxSurge, replicas, true);
    const current = getReplicaCount(allRSs);
    const maxTotal = replicas + surge;
    if (current >= maxTotal) return specReplicas(newRS);
    const up = Math.min(maxTotal - current, replicas - specReplicas(newRS));
    return specReplicas(newRS) + up;
  }
  if (type === 'Recreate') return replicas;
  throw new Error(`deployment type ${type} isn't supported`);
}

/** Revision: the RS's revision annotation as a number (0 when absent or bad). */
export function revisionOf(o: APIObject | undefined): number {
  const v = o?.metadata.annotations?.[RevisionAnnotation];
  const n = v === undefined ? 0 : Number(v);
  return Number.isInteger(n) ? n : 0;
}

/** MaxRevision. */
export function maxRevision(rss: ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** ReplicaSetsByRevision: ascending revision, ties by creation time. */
export function byRevision(a: APIObject, b: APIObject): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  return ra === rb ? byCreationTimestamp(a, b) : ra - rb;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations = rs.metadata.annotations ?? {});
  let updated = false;
  if (a[DesiredReplicasAnnotation] !== String(desired)) {
    a[DesiredReplicasAnnotation] = String(desired);
    updated = true;
  }
  if (a[MaxReplicasAnnotation] !== String(max)) {
    a[MaxReplicasAnnotation] = String(max);
    updated = true;
  }
  return updated;
}

/** ReplicasAnnotationsNeedUpdate. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations;
  if (!a) return true;
  return a[DesiredReplicasAnnotation] !== String(desired) || a[MaxReplicasAnnotation] !== String(max);
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations (except the skipped ones),
 * raises the revision (recording the previous one in revision-history on a rollback), and for
 * a new RS sets the replicas annotations. Mutates `rs`; true when something changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: string, exists: boolean): boolean {
  let changed = false;
  const a = (rs.metadata.annotations = rs.metadata.annotations ?? {});
  for (const [k, v] of Object.entries((d.metadata.annotations ?? {}) as Record<string, string>)) {
    if (annotationsToSkip.has(k) || getOwn(a, k) === v) continue;
    setOwn(a, k, v);
    changed = true;
  }
  const oldRevision = a[RevisionAnnotation];
  const had = oldRevision !== undefined;
  let oldInt = 0;
  if (had) {
    oldInt = Number(oldRevision);
    if (!Number.isInteger(oldInt)) {
      if (oldRevision !== '') return false;
      oldInt = 0;
    }
  }
  const newInt = Number(newRevision);
  if (oldInt < newInt) {
    a[RevisionAnnotation] = newRevision;
    changed = true;
  }
  if (had && oldInt < newInt) {
    const hist = a[RevisionHistoryAnnotation] ?? '';
    let old = hist.split(',');
    if (old[0].length === 0) a[RevisionHistoryAnnotation] = oldRevision;
    else {
      let total = hist.length + oldRevision.length + 1;
      let start = 0;
      while (total > maxRevHistoryLengthInChars && start < old.length) total -= old[start++].length + 1;
      if (total <= maxRevHistoryLengthInChars) {
        old = [...old.slice(start), oldRevision];
        a[RevisionHistoryAnnotation] = old.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision: sets the Deployment's revision annotation; true when changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  const a = (d.metadata.annotations = d.metadata.annotations ?? {});
  if (a[RevisionAnnotation] === revision) return false;
  a[RevisionAnnotation] = revision;
  return true;
}

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
}

/** GetDesiredReplicasAnnotation. */
export const getDesiredReplicasAnnotation = (rs: ReplicaSet) => intAnnotation(rs, DesiredReplicasAnnotation);

/** IsSaturated: the new RS has all replicas, by spec, annotation and availability. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = intAnnotation(rs, DesiredReplicasAnnotation);
  if (desired === undefined) return false;
  const r = specReplicas(d);
  return specReplicas(rs) === r && desired === r && (rs.status?.availableReplicas ?? 0) === r;
}

/** GetProportion: the share of a scaling event (`toAdd` replicas) that goes to `rs`. */
export function getProportion(rs: ReplicaSet | undefined, d: Deployment, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = getReplicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const dMax = specReplicas(d) + maxSurge(d);
  let before = intAnnotation(rs, MaxReplicasAnnotation) ?? 0;
  if (before === 0) before = d.status?.replicas ?? 0;
  const size = (specReplicas(rs) * dMax) / before;
  // integer.RoundToInt32: math.Round, halves away from zero
  const rounded = size < 0 ? -Math.round(-size) : Math.round(size);
  return rounded - specReplicas(rs);
}

// ---- conditions and status -----------------------------------------------------------------

/** apps/v1 DeploymentCondition. */
export type DeploymentCondition = apps.DeploymentCondition;

/** apps/v1 DeploymentStatus (omitempty members). */
export type DeploymentStatus = apps.DeploymentStatus;

/** NewDeploymentCondition stamped with `now` (RFC 3339). */
export function newDeploymentCondition(
  type: string,
  status: DeploymentCondition['status'],
  reason: string,
  message: string,
  now: string,
): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** GetDeploymentCondition. */
export function getDeploymentCondition(s: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return s?.conditions?.find((c) => c.type === type);
}

/**
 * SetDeploymentCondition: same status and reason → unchanged; same status → keeps
 * lastTransitionTime; the condition moves to the end of the list.
 */
export function setDeploymentCondition(s: DeploymentStatus, cond: DeploymentCondition): void {
  const cur = getDeploymentCondition(s, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return;
  const next = { ...cond };
  if (cur && cur.status === cond.status) next.lastTransitionTime = cur.lastTransitionTime;
  s.conditions = [...(s.conditions ?? []).filter((c) => c.type !== cond.type), next];
}

/** RemoveDeploymentCondition. */
export function removeDeploymentCondition(s: DeploymentStatus, type: string): void {
  if (!s.conditions) return;
  s.conditions = s.conditions.filter((c) => c.type !== type);
}

/** Applies omitempty to a status so equal statuses compare equal. */
export function normalizeDeploymentStatus(s: DeploymentStatus | undefined): DeploymentStatus {
  const out: DeploymentStatus = {};
  if (!s) return out;
  for (const k of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
  ] as const)
    if (s[k]) out[k] = s[k];
  if (s.conditions && s.conditions.length) out.conditions = s.conditions;
  if (s.collisionCount !== undefined && s.collisionCount !== null) out.collisionCount = s.collisionCount;
  return out;
}

/** HasProgressDeadline: progressDeadlineSeconds set and not MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const p = d.spec?.progressDeadlineSeconds;
  return typeof p === 'number' && p !== 2147483647;
}

/** HasRevisionHistoryLimit. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return typeof l === 'number' && l !== 2147483647;
}

/** DeploymentComplete: every replica updated and available, and the generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const r = specReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === r &&
    (s.replicas ?? 0) === r &&
    (s.availableReplicas ?? 0) === r &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated/ready/available replicas, or fewer old ones, than before. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = normalizeDeploymentStatus(d.status);
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0)
  );
}

/** DeploymentTimedOut: the Progressing condition was last updated more than the deadline ago. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === NewRSAvailableReason) return false;
  if (c.reason === TimedOutReason) return true;
  // hasProgressDeadline checked (*d.Spec.ProgressDeadlineSeconds)
  return Date.parse(c.lastUpdateTime!) + d.spec.progressDeadlineSeconds! * 1000 < nowMs;
}

/**
 * calculateStatus (sync.go): replica counts over all RSes, updatedReplicas from the new RS,
 * and the Available condition ("Deployment has minimum availability." /
 * "Deployment does not have minimum availability.").
 */
export function calculateDeploymentStatus(
  allRSs: (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: string,
): DeploymentStatus {
  const available = getAvailableReplicaCount(allRSs);
  const total = getReplicaCount(allRSs);
  const unavailable = Math.max(0, total - available);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: getActualReplicaCount(allRSs),
    updatedReplicas: getActualReplicaCount([newRS]),
    readyReplicas: getReadyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    collisionCount: d.status?.collisionCount,
    conditions: deepCopy(d.status?.conditions ?? []),
  };
  if (available >= specReplicas(d) - maxUnavailable(d)) {
    setDeploymentCondition(
      status,
      newDeploymentCondition('Available', 'True', MinimumReplicasAvailable, 'Deployment has minimum availability.', now),
    );
  } else {
    setDeploymentCondition(
      status,
      newDeploymentCondition('Available', 'False', MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', now),
    );
  }
  return normalizeDeploymentStatus(status);
}
