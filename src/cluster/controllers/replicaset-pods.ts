/**
 * Incremental per-ReplicaSet pod counts: what syncReplicaSet needs in its common case (nothing
 * to create, delete, adopt or release — only status to compute) without walking every Pod of
 * the ReplicaSet on every Pod event.
 *
 * Upstream's syncReplicaSet lists the RS's Pods (controllerUIDIndex), filters the active ones,
 * claims them and counts them on each sync: O(pods) per sync, so O(pods²) for a scale-up in
 * which every Pod event syncs the RS again. The engine keeps the same result as a derived view
 * of the pod informer's controller-UID index: for each ReplicaSet (by uid) the sums of the
 * flags of the Pods it controls (active, matches the selector, fully labeled, Ready). A
 * {@link CacheListener} subtracts the flags of the object the cache held and adds those of the
 * one it holds now (a flag depends only on the Pod and on the selectors the sums were made
 * with), so nothing is kept per Pod (a map of every Pod's flags cost ~90 B per Pending Pod of
 * 200,000). The counts equal what
 * filterActivePods → claimObjects → calculateStatus would count over the same cache
 * (replicaset-pods.test.ts checks that under random changes).
 *
 * Pure derived state: no writes, no relay hops, nothing observable.
 */
import type { SharedInformer } from '../client/informer';
import { matches, type Selector } from '../api/labels';
import { getControllerOf } from '../api/types';
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
    pods.addCacheListener((_key, oldObj, newObj) => {
      const a = controllerUID(oldObj);
      const b = controllerUID(newObj);
      const aggA = a !== undefined ? this.byUID.get(a) : undefined;
      if (aggA) this.count(aggA, this.flags(aggA, oldObj!), -1);
      const aggB = b !== undefined ? this.byUID.get(b) : undefined;
      if (aggB) this.count(aggB, this.flags(aggB, newObj!), 1);
    });
  }

  /**
   * The counts of `rs`'s Pods under `sel` (its parsed spec.selector). The first call for an RS,
   * or one after its selector or template labels changed, walks the index bucket once; the
   * cache listener keeps the sums up to date after that.
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
      };
      this.byUID.set(uid, a);
      for (const p of this.pods.byIndex(PodControllerUIDIndex, uid)) this.count(a, this.flags(a, p), 1);
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

  /** The flags of `p` under `a`'s selectors. */
  private flags(a: Agg, p: Pod): number {
    let f = 0;
    if (isPodActive(p)) {
      f |= ACTIVE;
      if (matches(a.sel, p.metadata.labels)) {
        f |= MATCH;
        if (matches(a.tplSel, p.metadata.labels)) f |= LABELED;
        if (isPodReady(p)) f |= READY;
      }
    }
    return f;
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
