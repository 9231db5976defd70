/**
 * Scenario steps played on the worker's live cluster (the UI's guided tours). Action steps
 * (apply, kubectl, killNode, dockerRun…) run at once, through the host's `exec` (which records
 * them and plays them with cluster/scenario/play.ts `playStep`, as the headless runner does); time steps wait on the wall clock instead of jumping, so the graph and the
 * sequence diagram animate: `advance: 90s` waits until the simulated clock has moved 90 s
 * at the current speed, `settle: 10m` until the cluster is quiet (Cluster.settledBy) or the
 * limit. `finish()` fast-forwards whatever is left, as the headless runner would.
 */
import type { Cluster } from '../cluster/cluster';
import type { Step } from '../cluster/scenario/scenario';

/** What the UI learns of the script in each batch. */
export interface ScriptStatus {
  /** Steps not run yet, the one being waited on included. */
  pending: number;
  /** While a time step waits: the simulated ms (since the epoch) it waits for at most. */
  waitingUntil: number | null;
  /** How many times steps were queued so far: a batch older than the caller's queueing shows a smaller count. */
  enqueued: number;
}

type Wait = { kind: 'advance'; until: number } | { kind: 'settle'; end: number; quietMs: number };

export class ScriptPlayer {
  private queue: Step[] = [];
  private wait: Wait | null = null;
  private enqueues = 0;

  /** @param exec runs (and records) one step as a user action */
  constructor(private readonly exec: (step: Step) => void) {}

  get status(): ScriptStatus {
    return {
      pending: this.queue.length + (this.wait ? 1 : 0),
      waitingUntil: this.wait ? (this.wait.kind === 'advance' ? this.wait.until : this.wait.end) : null,
      enqueued: this.enqueues,
    };
  }

  /** Queues steps and runs those that can run now. */
  enqueue(cluster: Cluster, steps: Step[]): void {
    this.enqueues++;
    this.queue.push(...steps);
    this.pump(cluster);
  }

  /** Drops whatever is left (leaving a tour). */
  cancel(): void {
    this.queue = [];
    this.wait = null;
  }

  /** The simulated time the clock may run to in this tick: an `advance` wait ends exactly on time. */
  limit(target: number): number {
    return this.wait?.kind === 'advance' ? Math.min(target, this.wait.until) : target;
  }

  /** After time moved: ends a wait that is over and runs the next steps. */
  pump(cluster: Cluster): void {
    for (;;) {
      if (this.wait) {
        const done = this.wait.kind === 'advance' ? cluster.now() >= this.wait.until : cluster.settledBy(this.wait.end, this.wait.quietMs);
        if (!done) return;
        this.wait = null;
      }
      const step = this.queue.shift();
      if (!step) return;
      if (step.kind === 'advance') this.wait = { kind: 'advance', until: cluster.now() + step.ms };
      else if (step.kind === 'settle') this.wait = { kind: 'settle', end: cluster.now() + step.limitMs, quietMs: step.quietMs };
      else this.exec(step);
    }
  }

  /** Fast-forwards the current wait and the rest of the queue (each time step becomes a recorded step). */
  finish(cluster: Cluster): void {
    const w = this.wait;
    this.wait = null;
    if (w?.kind === 'advance' && w.until > cluster.now()) this.exec({ kind: 'advance', ms: w.until - cluster.now() });
    if (w?.kind === 'settle' && w.end > cluster.now()) this.exec({ kind: 'settle', limitMs: w.end - cluster.now(), quietMs: w.quietMs });
    const rest = this.queue;
    this.queue = [];
    for (const s of rest) this.exec(s);
  }
}
