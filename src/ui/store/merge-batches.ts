/**
 * mergeBatches: folds the worker batches queued between two UI updates (batch-pump.ts) into
 * as few batches as keep their meaning, so the store reduces — copies its maps, recomputes the
 * graph topology — once per update instead of once per worker tick.
 *
 * Consecutive batches merge while they belong to the same generation; a reset batch starts a
 * new run (the deltas after it fold into it: a reset's changes are all ADDED). A `replayed`
 * batch (a reload's timeline frame) is never merged: each is a moment the timeline keeps. In a run:
 *
 * - `changes` fold per object key as the worker's ChangeBatcher folds one tick's changes
 *   (worker/batch.ts: ADDED+MODIFIED → ADDED, ADDED+DELETED → nothing, MODIFIED+DELETED →
 *   DELETED, DELETED+ADDED → MODIFIED; the latest object and row win);
 * - `events` fold the same way, but a re-written Event moves to the end (the store keeps
 *   Events in last-written order and drops the oldest first);
 * - `hops` are concatenated (the store caps them);
 * - every other field is a snapshot (simMs, deadlines, running, speed, applySeq, fault…) or
 *   sent only when it changed (standalone, script): the latest defined value wins.
 */
import type { ChangeType, ObjectChangeMsg, TickBatch } from '../../worker/protocol';

/** Folds `next` into the per-key map (ChangeBatcher's rules); `moveToEnd` re-inserts a re-touched key. */
function foldChange(into: Map<string, ObjectChangeMsg>, next: ObjectChangeMsg, moveToEnd: boolean): void {
  const prev = into.get(next.key);
  if (!prev) {
    into.set(next.key, next);
    return;
  }
  if (moveToEnd) into.delete(next.key);
  if (next.type === 'DELETED') {
    if (prev.type === 'ADDED') into.delete(next.key);
    else into.set(next.key, next);
    return;
  }
  const type: ChangeType = prev.type === 'DELETED' ? 'MODIFIED' : prev.type;
  into.set(next.key, type === next.type ? next : { ...next, type });
}

function mergeRun(run: readonly TickBatch[]): TickBatch {
  if (run.length === 1) return run[0];
  const merged: Record<string, unknown> = {};
  for (const b of run) for (const [k, v] of Object.entries(b)) if (v !== undefined) merged[k] = v;
  const changes = new Map<string, ObjectChangeMsg>();
  const events = new Map<string, ObjectChangeMsg>();
  for (const b of run) {
    for (const c of b.changes) foldChange(changes, c, false);
    for (const e of b.events) foldChange(events, e, true);
  }
  return {
    ...(merged as unknown as TickBatch),
    reset: run[0].reset,
    changes: [...changes.values()],
    events: [...events.values()],
    hops: run.flatMap((b) => b.hops),
  };
}

/** The queued batches, merged (arrival order kept; see the module comment for the rules). */
export function mergeBatches(batches: readonly TickBatch[]): TickBatch[] {
  const out: TickBatch[] = [];
  let run: TickBatch[] = [];
  for (const b of batches) {
    // a replayed batch (a reload's timeline frame, protocol.ts `replayed`) stays a batch of its own
    if (run.length && (b.reset || b.gen !== run[0].gen || b.replayed || run[0].replayed)) {
      out.push(mergeRun(run));
      run = [];
    }
    run.push(b);
  }
  if (run.length) out.push(mergeRun(run));
  return out;
}
