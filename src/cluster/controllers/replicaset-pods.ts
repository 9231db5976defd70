/**
 * Incremental per-ReplicaSet pod counts: what syncReplicaSet needs in its common case (nothing
 * to create, delete, adopt or release — only status to compute) without walking every Pod of
 * the ReplicaSet on every Pod event.
 *
 * Upstream's syncReplicaSet lists the RS's Pods (controllerUIDIndex), filters the active ones,
 * claims them and counts them on each sync: O(pods) per sync, so O(pods²) for a scale-up in
 * which every Pod event syncs the RS again. The engine keeps the same result as a derived view
 * of the pod informer's controller-UID index: for each ReplicaSet (by uid) the flags of each
 * Pod it controls (active, matches the selector, fully labeled, Ready), and their sums. A
 * {@link CacheListener} marks a Pod key dirty whenever the cache changes it, so a sync only
 * re-reads the Pods that changed since the last one. The counts equal what
 * filterActivePods → claimObjects → calculateStatus would count over the same cache
 * (replicaset-pods.test.ts checks that under random changes).
 *
 * Pure derived state: no writes, no relay hops, nothing observable.
 */
import type { SharedInformer } from '../client/informer';
import { matches, type Selector } from '../api/labels';
import { getControllerOf, metaNamespaceKey } from '../api/types';
import type { Pod, ReplicaSet } from '../api/objects';
import { isPodActive, isPodReady } from './controller-utils';
import { PodControllerUIDIndex } from './pod-controller-index';

/** Counts over the Pods one ReplicaSet controls (its controller-UID index bucket). */
export interface ReplicaSetPodCounts {
  /** Active Pods that match the selector: claimObjects' result without adoptions (status.replicas). */
  claimed: number;
  /** Active Pods that no longer match the selector (claimObjects would release them). */
  unmatched: number;
  /** Claimed Pods whose labels match the template's (status.fullyLabeledReplicas). */
  fullyLabeled: number;
  /** Claimed Pods that are Ready (status.readyReplicas; availableReplicas when minReadySeconds is 0). */
  ready: number;
}

const ACTIVE = 1;
const MATCH = 2;
const LABELED = 4;
const READY = 8;

interface Agg extends ReplicaSetPodCounts {
  /** JSON of spec.selector and of the template labels the flags were computed with. */
  selKey: string;
  tplKey: string;
  sel: Selector;
  tplSel: Selector;
  /** pod key → flags, for every Pod in the RS's index bucket. */
  flags: Map<string, number>;
  /** Pod keys changed in the cache since the last {@link ReplicaSetPodCounter.counts}. */
  dirty: Set<string>;
}

function controllerUID(p: Pod | undefined): string | undefined {
  return p ? getControllerOf(p)?.uid : undefined;
}

/** The equality selector of a template's labels (calculateStatus' fullyLabeledReplicas). */
export function templateSelector(templateLabels: Record<string, string>): Selector {
  return { requirements: Object.keys(templateLabels).map((k) => ({ key: k, op: '=' as const, values: [templateLabels[k]] })) };
}

export class ReplicaSetPodCounter {
  private byUID = new Map<string, Agg>();

  /** @param pods the shared pod informer, with the controller-UID index. */
  constructor(private readonly pods: SharedInformer<Pod>) {
    pods.addCacheListener((key, oldObj, newObj) => {
      const a = controllerUID(oldObj);
      const b = controllerUID(newObj);
      if (a !== undefined) this.byUID.get(a)?.dirty.add(key);
      if (b !== undefined && b !== a) this.byUID.get(b)?.dirty.add(key);
    });
  }

  /**
   * The counts of `rs`'s Pods under `sel` (its parsed spec.selector). The first call for an RS,
   * or one after its selector or template labels changed, walks the index bucket once; later
   * calls only re-read Pods that changed.
   */
  counts(rs: ReplicaSet, sel: Selector): Readonly<ReplicaSetPodCounts> {
    const uid = rs.metadata.uid ?? '';
    const tplLabels: Record<string, string> = rs.spec?.template?.metadata?.labels ?? {};
    const selKey = JSON.stringify(rs.spec?.selector ?? null);
    const tplKey = JSON.stringify(tplLabels);
    let a = this.byUID.get(uid);
    if (!a || a.selKey !== selKey || a.tplKey !== tplKey) {
      a = {
        claimed: 0,
        unmatched: 0,
        fullyLabeled: 0,
        ready: 0,
        selKey,
        tplKey,
        sel,
        tplSel: templateSelector(tplLabels),
        flags: new Map(),
        dirty: new Set(),
      };
      this.byUID.set(uid, a);
      for (const p of this.pods.byIndex(PodControllerUIDIndex, uid)) this.add(a, metaNamespaceKey(p), p);
      return a;
    }
    if (a.dirty.size) {
      for (const key of a.dirty) {
        const f = a.flags.get(key);
        if (f !== undefined) {
          this.count(a, f, -1);
          a.flags.delete(key);
        }
        const p = this.pods.get(key);
        if (p && controllerUID(p) === uid) this.add(a, key, p);
      }
      a.dirty.clear();
    }
    return a;
  }

  /** Drops the state of a ReplicaSet that is gone (by uid). */
  forget(uid: string | undefined): void {
    if (uid !== undefined) this.byUID.delete(uid);
  }

  /** Number of ReplicaSets with state (tests: bounded memory). */
  get size(): number {
    return this.byUID.size;
  }

  private add(a: Agg, key: string, p: Pod): void {
    let f = 0;
    if (isPodActive(p)) {
      f |= ACTIVE;
      if (matches(a.sel, p.metadata.labels)) {
        f |= MATCH;
        if (matches(a.tplSel, p.metadata.labels)) f |= LABELED;
        if (isPodReady(p)) f |= READY;
      }
    }
    a.flags.set(key, f);
    this.count(a, f, 1);
  }

  private count(a: Agg, f: number, d: number): void {
    if (!(f & ACTIVE)) return;
    if (!(f & MATCH)) {
      a.unmatched += d;
      return;
    }
    a.claimed += d;
    if (f & LABELED) a.fullyLabeled += d;
    if (f & READY) a.ready += d;
  }
}
