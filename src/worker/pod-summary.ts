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

interface Entry {
  node: string;
  owner: string;
  status: string;
  ready: boolean;
  obj: KObject;
}

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
  const ref = pod.metadata.ownerReferences?.find((r) => r.controller);
  // one pooled string for all the Pods of an owner (each Entry keeps it)
  return ref ? OWNER_KEYS.intern(`${ref.kind}/${pod.metadata.namespace ?? ''}/${ref.name}`) : '';
}

/** Owner keys, pooled (cluster/util/intern.ts): memory only. */
const OWNER_KEYS = new StringIntern(1024);

function count(c: Counts, e: Entry, by: 1 | -1): void {
  c.total += by;
  if (e.ready) c.ready += by;
  const n = (c.statuses.get(e.status) ?? 0) + by;
  if (n) c.statuses.set(e.status, n);
  else c.statuses.delete(e.status);
}

function bump(map: Map<string, Counts>, key: string, e: Entry, by: 1 | -1): void {
  let c = map.get(key);
  if (!c) map.set(key, (c = { total: 0, ready: 0, statuses: new Map() }));
  count(c, e, by);
  if (!c.total) map.delete(key);
}

function countsOf(c: Counts): PodCounts {
  return { total: c.total, ready: c.ready, statuses: [...c.statuses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) };
}

/** Node names as `kubectl get nodes` lists them: natural order (node-2 before node-10). */
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * Per-node and per-owner Pod counts, kept from Pod changes (`update`), for {@link PodSummary}.
 * Holds one small record per Pod (and a reference to the stored object, for the sample rows).
 */
export class PodTally {
  /**
   * The Pods by uid (the stored object's own string: a key costs nothing; a Pod without one, as
   * in tests, by its key "Pod/NS/NAME"), in the order first seen.
   */
  private readonly pods = new Map<string, Entry>();
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
      this.remove(prev);
      this.pods.delete(key);
      this.version++;
      return;
    }
    const node = (pod.spec?.nodeName as string | undefined) ?? '';
    const owner = ownerOf(pod);
    const status = podSummaryStatus(pod);
    const ready = podIsReady(pod);
    if (!prev) {
      const e: Entry = { node, owner, status, ready, obj: pod };
      this.pods.set(key, e);
      this.add(e);
      this.version++;
      return;
    }
    // the Pod's entry is updated in place (an update does not allocate one per change)
    prev.obj = pod;
    if (prev.node === node && prev.owner === owner && prev.status === status && prev.ready === ready) return;
    this.remove(prev);
    prev.node = node;
    prev.owner = owner;
    prev.status = status;
    prev.ready = ready;
    this.add(prev);
    this.version++;
  }

  private add(e: Entry): void {
    bump(this.byNode, e.node, e, 1);
    bump(this.byOwner, e.owner, e, 1);
    count(this.all, e, 1);
  }

  private remove(e: Entry): void {
    bump(this.byNode, e.node, e, -1);
    bump(this.byOwner, e.owner, e, -1);
    count(this.all, e, -1);
  }

  /** The counts as the page gets them (nodes by name, "" last; owners with the most Pods first). */
  snapshot(threshold = SUMMARY_ENTER_PODS): PodSummary {
    const nodeNames = [...this.byNode.keys()].filter((n) => n).sort(byName);
    if (this.byNode.has('')) nodeNames.push('');
    const owners = [...this.byOwner].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
    return {
      threshold,
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
    for (const e of this.pods.values()) {
      if (out.length >= limit) break;
      const m = e.obj.metadata;
      const key = objectKey(e.obj);
      // the page keeps no whole Pod: the names and times its table prints
      const object = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: m.name, namespace: m.namespace, creationTimestamp: m.creationTimestamp, uid: m.uid },
        spec: { nodeName: e.node || undefined },
      } as KObject;
      out.push({ key, object, row: describe(e.obj) });
    }
    return out;
  }
}
