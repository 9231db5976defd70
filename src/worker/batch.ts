/**
 * ChangeBatcher: folds the object changes of one worker tick into at most one change per
 * object key, so a Pod that goes Pending → ContainerCreating → Running within a tick reaches
 * the UI once, as its latest state. Folding rules (earlier + later → sent):
 *
 *   ADDED    + MODIFIED → ADDED (latest object)
 *   ADDED    + DELETED  → nothing (the UI never saw it)
 *   MODIFIED + MODIFIED → MODIFIED (latest object)
 *   MODIFIED + DELETED  → DELETED
 *   DELETED  + ADDED    → MODIFIED (same name re-created: the UI replaces it)
 *
 * Order is first-touched order within the tick. Rows (`kubectl get` columns) are computed
 * once per key at drain time, not per change.
 */
import type { KObject } from '../cluster/api/types';
import type { ResourceRow } from '../cluster/kubectl/printers';
import { objectKey, type ChangeType, type ObjectChangeMsg } from './protocol';

interface Pending {
  type: ChangeType;
  resource: string;
  object: KObject;
}

export class ChangeBatcher {
  private pending = new Map<string, Pending>();

  get size(): number {
    return this.pending.size;
  }

  add(type: ChangeType, resource: string, object: KObject): void {
    const key = objectKey(object);
    const prev = this.pending.get(key);
    if (!prev) {
      this.pending.set(key, { type, resource, object });
      return;
    }
    if (type === 'DELETED') {
      if (prev.type === 'ADDED') this.pending.delete(key);
      else this.pending.set(key, { type: 'DELETED', resource, object });
      return;
    }
    // ADDED or MODIFIED after something earlier in the same tick
    const folded: ChangeType = prev.type === 'DELETED' ? 'MODIFIED' : prev.type;
    this.pending.set(key, { type: folded, resource, object });
  }

  /** Forgets the pending changes whose key `drop` accepts (the summarized mode's Pods, pod-summary.ts). */
  discard(drop: (key: string) => boolean): void {
    for (const key of this.pending.keys()) if (drop(key)) this.pending.delete(key);
  }

  /** Keeps only the `n` most recently first-touched pending changes (drops the oldest). */
  keepLast(n: number): void {
    let drop = this.pending.size - n;
    for (const key of this.pending.keys()) {
      if (drop-- <= 0) break;
      this.pending.delete(key);
    }
  }

  /**
   * Returns the folded changes (with rows), oldest-touched first, and removes them from the
   * batcher. With `limit`, at most that many are returned; the rest stay pending (in their
   * order) for the next drain, where later changes of the same key keep folding into them —
   * so a batch never carries more than `limit` changes however many objects changed.
   */
  drain(describe: (o: KObject) => ResourceRow | null, limit = Infinity): ObjectChangeMsg[] {
    const out: ObjectChangeMsg[] = [];
    for (const [key, p] of this.pending) {
      if (out.length >= limit) break;
      out.push({ type: p.type, resource: p.resource, key, object: p.object, row: p.type === 'DELETED' ? null : describe(p.object) });
    }
    if (out.length === this.pending.size) this.pending.clear();
    else for (const c of out) this.pending.delete(c.key);
    return out;
  }
}
