/**
 * The session log of ClusterHost (cluster-api.ts): the user's actions since the last reset as
 * scenario steps with their simulated times (session.ts), recorded as they are played; exported
 * as a session file and imported (reload, crash recovery, a file the user opens) by replaying
 * them on a fresh cluster through the host's player (cluster/scenario/play.ts `playStep`), a
 * version-1 log migrated to steps first (session.ts `migrateSessionLog`). The replay sends the
 * batches the session would have sent live, flagged `replayed` (import-frames.ts).
 */
import type { Step } from '../cluster/scenario/scenario';
import { isSessionLog, migrateSessionLog, validateSessionTimes, type LoggedStep, type SessionLog, type SessionLogV1 } from './session';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { FramedRun, importStride } from './import-frames';
import type { TickBatch } from './protocol';
import type { SessionHost } from './host-types';

/**
 * Most batches an import holds for a subscriber that has not come yet (a page load): about twice
 * what a long session's replay makes (IMPORT_MAX_TIME_FRAMES time frames plus one per action).
 * Past it the held batches are dropped (counted in {@link SessionRecorder.droppedImportBatches})
 * and the subscriber gets a reset of the state the import reached instead of the replay's frames:
 * batches are deltas, so keeping only the newest would lose what the dropped ones carried.
 */
export const MAX_HELD_IMPORT_BATCHES = 2_000;

/** The session log (see the file comment); ClusterHost delegates `exportState` / `importState` here. */
export class SessionRecorder {
  /** The user's actions since the last reset as scenario steps, for persistence and crash recovery (session.ts). */
  private log: LoggedStep[] = [];
  /** Batches `importState` rebuilt before anyone subscribed (sent first on subscribe); null otherwise. */
  private importBatches: TickBatch[] | null = null;
  /** Replayed batches the last import dropped for want of a subscriber (past {@link MAX_HELD_IMPORT_BATCHES}); 0 when none. */
  droppedImportBatches = 0;
  /** True when the held batches overflowed: the rest of that import is not held either. */
  private importOverflowed = false;
  /** True while `importState` replays a log with user controllers (asynchronously): the loop does not tick meanwhile. */
  replaying = false;

  constructor(private readonly host: SessionHost) {}

  /** Empties the log (a reset). */
  clear(): void {
    this.log = [];
  }

  /** Appends a user action to the session log: its step, at the simulated time before it runs (or `at`). */
  record(step: Step, at = this.host.cluster.now()): void {
    this.host.releaseHeld(); // any action releases the hops a step held back
    this.log.push({ at, step });
  }

  /** The batches an import rebuilt before the first subscriber (once; null when none were held). */
  takeImportBatches(): TickBatch[] | null {
    const imported = this.importBatches;
    this.importBatches = null;
    return imported;
  }

  /** The session log: cluster options plus the user's actions with their simulated times. */
  exportState(): SessionLog {
    return {
      format: 'kube-relay-session',
      version: 2,
      cluster: { ...this.host.sessionCluster },
      steps: this.log.slice(),
      now: this.host.cluster.now(),
      running: this.host.loop.running,
      speed: this.host.loop.speed,
    };
  }

  /**
   * Replays a session log on a fresh cluster: each action at its simulated time, then time
   * runs on to the log's `now`. Actions that failed when they were made fail again the same
   * way (and are kept in the log). Throws on something that is not a session log.
   *
   * Meanwhile it sends the batches the session would have sent live, flagged `replayed`
   * (import-frames.ts): a reset of the fresh cluster, one after each action, one per stride of
   * simulated time; held until `subscribe` when nobody is subscribed yet (a page load). The
   * batches after them are live.
   */
  importState(saved: SessionLog | SessionLogV1): void | Promise<void> {
    if (!isSessionLog(saved)) throw new Error('not a kube-relay session');
    // before anything is reset: a bad time names its step and field (session.ts validateSessionTimes)
    validateSessionTimes(saved, this.host.cluster.options.startMs ?? DEFAULT_START_MS);
    const log = migrateSessionLog(saved);
    this.droppedImportBatches = 0;
    this.importOverflowed = false;
    const r = log.cluster?.controlPlane?.replicas;
    this.host.setReplicas(r === 3 ? 3 : 1);
    // a user controller (started by the user or by a tour's step) may hold the clock: wait for its sandbox
    if (log.steps.some((e) => e.step.kind === 'controller')) return this.importAsync(log);
    this.host.boot();
    this.importBatches = this.host.subscribed ? null : [];
    const c = this.host.cluster;
    this.replayFrame(); // the fresh cluster (a reset)
    const run = new FramedRun(c, c.now(), importStride(log.now - c.now()), () => this.replayFrame());
    for (const e of log.steps) {
      run.runTo(e.at);
      this.log.push(e);
      // the timeline's time runs in frames; every other step plays (a failure failed the first time too)
      if (e.step.kind === 'advance') run.runTo(c.now() + e.step.ms);
      else this.host.playHere(e.step);
      run.catchUp();
      this.replayFrame();
    }
    run.runTo(log.now);
    this.host.loop.restore(log.running, log.speed);
    this.host.changed();
  }

  /**
   * {@link importState} of a log with user controllers: the same replay, but each time a
   * reconcile holds the clock it waits for the sandbox's answer, then goes on with the rest of
   * that instant (import-frames.ts `runTo` with `resume`). The loop does not tick meanwhile.
   */
  private async importAsync(log: SessionLog): Promise<void> {
    this.host.boot();
    this.replaying = true;
    try {
      this.importBatches = this.host.subscribed ? null : [];
      const c = this.host.cluster;
      this.replayFrame();
      const run = new FramedRun(c, c.now(), importStride(log.now - c.now()), () => this.replayFrame());
      const runTo = async (t: number) => {
        let resume = false;
        while (!run.runTo(t, resume)) {
          await this.host.loop.whenIdle();
          resume = true;
        }
      };
      for (const e of log.steps) {
        await runTo(e.at);
        this.log.push(e);
        if (e.step.kind === 'advance') await runTo(c.now() + e.step.ms);
        else this.host.playHere(e.step);
        run.catchUp();
        this.replayFrame();
      }
      await runTo(log.now);
      await this.host.loop.whenIdle();
    } finally {
      this.replaying = false;
    }
    this.host.loop.restore(log.running, log.speed);
    this.host.changed();
  }

  /** Sends (or, before any subscriber, holds) the next batch flagged `replayed`. */
  private replayFrame(): void {
    const b = this.host.nextBatch(Infinity); // a timeline frame is whole, never split
    if (!b) return;
    b.replayed = true;
    if (this.host.send(b)) return;
    if (this.importOverflowed) {
      this.droppedImportBatches++;
      return;
    }
    if (!this.importBatches) return;
    if (this.importBatches.length >= MAX_HELD_IMPORT_BATCHES) {
      // bounded: drop what is held (the subscriber will get a reset of the state instead, cluster-api.ts subscribe)
      this.droppedImportBatches += this.importBatches.length + 1;
      this.importBatches = null;
      this.importOverflowed = true;
      return;
    }
    this.importBatches.push(b);
  }
}
