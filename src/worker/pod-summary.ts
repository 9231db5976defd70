/**
 * The large-cluster path (issue 21 §5): beyond {@link SUMMARY_ENTER_PODS} Pods the worker
 * stops sending one change per Pod and sends aggregate counts instead (protocol.ts
 * `PodSummary`), the way large-cluster dashboards show counts per node and per owner rather
 * than one tile per Pod. {@link PodTally} keeps those counts incrementally from the engine's
 * change stream (O(1) per Pod change, O(nodes + owners) per snapshot), so nothing in the
 * worker or the page walks every Pod per batch.
 *
 * A Pod's status here is its `status.phase` (Pending when unset), or `Terminating` once
 * `metadata.deletionTimestamp` is set (what `kubectl get pods` prints for it); it is ready
 * when its `Ready` condition is `True`. Below the threshold nothing changes: every Pod goes
 * to the page as before.
 */
import type { KObject } from '../cluster/api/types';
import type { ResourceRow } from '../cluster/kubectl/printers';
import { objectKey, type ChangeType, type PodCounts, type PodSummary } from './protocol';
import { StringIntern } from '../cluster/util/intern';

/** More Pods than this switch the page to the summarized graph. */
export const SUMMARY_ENTER_PODS = 1_000;
/** Fewer Pods than this switch it back (hysteresis: a count hovering at the threshold does not flip the view). */
export const SUMMARY_LEAVE_PODS = 800;
/** Owners listed in a summary (those with the most Pods); the rest are counted in `moreOwners`. */
export const SUMMARY_MAX_OWNERS = 50;
/** Nodes listed in a summary (by name); the rest are counted in `moreNodes`. */
export const SUMMARY_MAX_NODES = 200;
/** Pod rows the page's table gets while summarized ("showing 500 of 200,000"). */
export const SUMMARY_SAMPLE_ROWS = 500;

interface Counts {
  total: number;
  ready: number;
  statuses: Map<string, number>;
}

/** A Pod's status as the summary counts it (see the module comment). */
export function podSummaryStatus(pod: KObject): string {
  if (pod.metadata.deletionTimestamp) return 'Terminating';
  const phase = pod.status?.phase;
  return typeof phase === 'string' && phase ? phase : 'Pending';
}

/** Whether the Pod's Ready condition is True. */
export function podIsReady(pod: KObject): boolean {
  const conds = pod.status?.conditions as { type?: string; status?: string }[] | undefined;
  return Array.isArray(conds) && conds.some((c) => c?.type === 'Ready' && c.status === 'True');
}

/** The store key of the Pod's controller owner ("ReplicaSet/NS/NAME"), or "" for none. */
function ownerOf(pod: KObject): string {
  const refs = pod.metadata.ownerReferences;
  if (!refs) return '';
  // the Pods of one ReplicaSet share one frozen ownerReferences list (storage/object-intern.ts):
  // its owner key is looked up by identity, not built again for every change
  const ns = pod.metadata.namespace ?? '';
  const hit = OWNER_OF.get(refs);
  if (hit !== undefined && hit.ns === ns) return hit.owner;
  const ref = refs.find((r) => r.controller);
  // one pooled string for all the Pods of an owner
  const owner = ref ? OWNER_KEYS.intern(`${ref.kind}/${ns}/${ref.name}`) : '';
  if (Object.isFrozen(refs)) OWNER_OF.set(refs, { ns, owner });
  return owner;
}

/** Owner keys of frozen ownerReferences lists (with the namespace they were computed for). */
const OWNER_OF = new WeakMap<object, { ns: string; owner: string }>();

/** Owner keys, pooled (cluster/util/intern.ts): memory only. */
const OWNER_KEYS = new StringIntern(1024);

function count(c: Counts, status: string, ready: boolean, by: 1 | -1): void {
  c.total += by;
  if (ready) c.ready += by;
  const n = (c.statuses.get(status) ?? 0) + by;
  if (n) c.statuses.set(status, n);
  else c.statuses.delete(status);
}

function bump(map: Map<string, Counts>, key: string, status: string, ready: boolean, by: 1 | -1): void {
  let c = map.get(key);
  if (!c) map.set(key, (c = { total: 0, ready: 0, statuses: new Map() }));
  count(c, status, ready, by);
  if (!c.total) map.delete(key);
}

/** Where a Pod is counted: its node ("" unscheduled). */
const nodeOf = (pod: KObject): string => (pod.spec?.nodeName as string | undefined) ?? '';

function countsOf(c: Counts): PodCounts {
  return { total: c.total, ready: c.ready, statuses: [...c.statuses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) };
}

/** Node names as `kubectl get nodes` lists them: natural order (node-2 before node-10). */
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * Per-node and per-owner Pod counts, kept from Pod changes (`update`), for {@link PodSummary}.
 * Holds a reference to each Pod's stored object, nothing else: the node, owner, status and
 * readiness it was counted under are read from the previous object when a change comes.
 */
export class PodTally {
  /**
   * The Pods by uid (the stored object's own string: a key costs nothing; a Pod without one, as
   * in tests, by its key "Pod/NS/NAME"), in the order first seen.
   */
  private readonly pods = new Map<string, KObject>();
  private readonly byNode = new Map<string, Counts>();
  private readonly byOwner = new Map<string, Counts>();
  private readonly all: Counts = { total: 0, ready: 0, statuses: new Map() };
  /** Bumped on every change of a count (a snapshot is due when it moved). */
  version = 0;

  /** Pods counted. */
  get size(): number {
    return this.pods.size;
  }

  /** Folds one Pod change. */
  update(type: ChangeType, pod: KObject): void {
    const key = pod.metadata.uid || objectKey(pod);
    const prev = this.pods.get(key);
    if (type === 'DELETED') {
      if (!prev) return;
      this.count(prev, -1);
      this.pods.delete(key);
      this.version++;
      return;
    }
    this.pods.set(key, pod);
    if (!prev) {
      this.count(pod, 1);
      this.version++;
      return;
    }
    if (
      nodeOf(prev) === nodeOf(pod) &&
      ownerOf(prev) === ownerOf(pod) &&
      podSummaryStatus(prev) === podSummaryStatus(pod) &&
      podIsReady(prev) === podIsReady(pod)
    )
      return;
    this.count(prev, -1);
    this.count(pod, 1);
    this.version++;
  }

  /** Counts `pod` in (1) or out (−1) of its node's, its owner's and the total counts. */
  private count(pod: KObject, by: 1 | -1): void {
    const status = podSummaryStatus(pod);
    const ready = podIsReady(pod);
    bump(this.byNode, nodeOf(pod), status, ready, by);
    bump(this.byOwner, ownerOf(pod), status, ready, by);
    count(this.all, status, ready, by);
  }

  /** The counts as the page gets them (nodes by name, "" last; owners with the most Pods first). */
  snapshot(threshold = SUMMARY_ENTER_PODS): PodSummary {
    const nodeNames = [...this.byNode.keys()].filter((n) => n).sort(byName);
    if (this.byNode.has('')) nodeNames.push('');
    const owners = [...this.byOwner].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
    return {
      threshold,
      leaveThreshold: SUMMARY_LEAVE_PODS,
      all: countsOf(this.all),
      nodes: nodeNames.slice(0, SUMMARY_MAX_NODES).map((node) => ({ node, ...countsOf(this.byNode.get(node)!) })),
      moreNodes: Math.max(0, nodeNames.length - SUMMARY_MAX_NODES),
      owners: owners.slice(0, SUMMARY_MAX_OWNERS).map(([owner, c]) => ({ owner, ...countsOf(c) })),
      moreOwners: Math.max(0, owners.length - SUMMARY_MAX_OWNERS),
    };
  }

  /** At most `limit` Pods (in the order they were first seen) with their `kubectl get` rows. */
  sample(
    describe: (o: KObject) => ResourceRow | null,
    limit = SUMMARY_SAMPLE_ROWS,
  ): { key: string; object: KObject; row: ResourceRow | null }[] {
    const out: { key: string; object: KObject; row: ResourceRow | null }[] = [];
    for (const pod of this.pods.values()) {
      if (out.length >= limit) break;
      const m = pod.metadata;
      const key = objectKey(pod);
      const node = nodeOf(pod);
      // the page keeps no whole Pod: the names and times its table prints
      const object = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: m.name, namespace: m.namespace, creationTimestamp: m.creationTimestamp, uid: m.uid },
        spec: { nodeName: node || undefined },
      } as KObject;
      out.push({ key, object, row: describe(pod) });
    }
    return out;
  }
}
