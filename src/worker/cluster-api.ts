/**
 * ClusterHost: adapts the engine's `Cluster` facade into the {@link ClusterApi} the worker
 * exposes, and runs the wall-clock loop that moves simulated time while playing.
 *
 * The loop: every tick (≈ 50 wall ms) simulated time advances by elapsed wall ms × speed,
 * but a tick never runs timers for longer than {@link TICK_BUDGET_MS} of wall time — when
 * the engine cannot keep up, simulated time slips rather than the worker freezing. After
 * the timers, one batch goes to the UI (see protocol.ts), only when something changed.
 *
 * Timers and the wall clock are injected so tests can drive the loop by hand.
 */
import type { KObject } from '../cluster/api/types';
import type { RelayHop } from '../cluster/relay/relay-event';
import type { Deadline } from '../cluster/sim/clock';
import type { ApplyResult } from '../cluster/kubectl/apply';
import type { ResourceRow } from '../cluster/kubectl/printers';
import { ChangeBatcher } from './batch';
import { MAX_HOPS_PER_BATCH, SPEEDS, objectKey, type ClusterApi, type TickBatch } from './protocol';

/** What the host needs of the engine's `Cluster` (cluster.ts); the real class satisfies it. */
export interface ClusterLike {
  readonly options: { startMs?: number };
  readonly timings: { profile: string };
  readonly clock: { runUntil(untilMs: number, stop?: () => boolean): boolean };
  readonly relay: { since(afterSeq: number): RelayHop[]; readonly lastSeq: number };
  apply(text: string): ApplyResult[];
  step(): boolean;
  killNode(name: string): void;
  restoreNode(name: string): void;
  addNode(cfg: { name: string }): void;
  deletePod(namespace: string, name: string): void;
  objects(): KObject[];
  events(): KObject[];
  onChange(l: (c: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; resource: string; object: KObject }) => void): () => void;
  deadlines(): Deadline[];
  now(): number;
}

export interface HostDeps {
  createCluster(): ClusterLike;
  /** The simulated start of a fresh cluster (ms since the epoch). */
  startMs: number;
  /** The engine's printer (kubectl/printers.ts); `nowMs` is simulated now, for AGE. */
  describeRow(obj: KObject, nowMs: number): ResourceRow;
  /** Resource name for a kind (snapshots carry objects without their resource). */
  resourceOf(obj: KObject): string;
  /** Wall clock, ms (performance.now in the worker). */
  wallNow(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const TICK_MS = 50;
/** Most wall time one tick may spend running simulated timers. */
export const TICK_BUDGET_MS = 35;
/** A tick after a long stall (tab in background) advances at most this much wall time. */
const MAX_TICK_WALL_MS = 250;
/** `step` fires at most this many timers looking for a visible hop. */
const MAX_STEP_TIMERS = 2_000;

export class ClusterHost implements ClusterApi {
  private cluster!: ClusterLike;
  private unlisten: (() => void) | null = null;
  private objects = new ChangeBatcher();
  private eventChanges = new ChangeBatcher();
  private lastSeq = 0;
  private lastSimSent = -1;
  private gen = 0;
  private needReset = true;
  private dirty = true;
  private running = true;
  private speed = 1;
  private fault: string | null = null;
  private applySeq: number | null = null;
  private onBatch: ((b: TickBatch) => void) | null = null;
  private timer: unknown = null;
  private lastWall: number;
  /** Simulated time owed but not yet run: the engine's clock moves in whole milliseconds. */
  private owedMs = 0;

  constructor(private readonly deps: HostDeps) {
    this.lastWall = deps.wallNow();
    this.boot();
  }

  private boot(): void {
    this.unlisten?.();
    this.fault = null;
    this.applySeq = null;
    this.cluster = this.deps.createCluster();
    this.gen++;
    this.objects = new ChangeBatcher();
    this.eventChanges = new ChangeBatcher();
    this.unlisten = this.cluster.onChange((c) => {
      (c.object.kind === 'Event' ? this.eventChanges : this.objects).add(c.type, c.resource, c.object);
    });
    this.lastSeq = 0;
    this.needReset = true;
  }

  subscribe(onBatch: (batch: TickBatch) => void): void {
    this.onBatch = onBatch;
    this.needReset = true;
    this.lastWall = this.deps.wallNow();
    if (this.timer === null) this.timer = this.deps.setInterval(() => this.tick(), TICK_MS);
    this.flush();
  }

  /** Stops the loop (tests; the worker lives until terminated). */
  dispose(): void {
    if (this.timer !== null) this.deps.clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
  }

  /** One loop iteration: advance while playing, then push a batch. */
  tick(): void {
    const wall = this.deps.wallNow();
    const dt = Math.min(wall - this.lastWall, MAX_TICK_WALL_MS);
    this.lastWall = wall;
    if (this.running && dt > 0) this.owedMs += dt * this.speed;
    const whole = Math.floor(this.owedMs);
    if (this.running && whole > 0) {
      this.owedMs -= whole;
      const target = this.cluster.now() + whole;
      const budgetEnd = wall + TICK_BUDGET_MS;
      try {
        this.cluster.clock.runUntil(target, () => this.deps.wallNow() > budgetEnd);
      } catch (e) {
        // an engine bug: stop the loop (rather than crash the worker) and say what happened
        this.running = false;
        this.fault = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        this.dirty = true;
      }
    }
    this.flush();
  }

  apply(text: string): ApplyResult[] {
    this.applySeq = this.cluster.relay.lastSeq + 1;
    const results = this.cluster.apply(text);
    this.flush();
    return results;
  }

  play(): void {
    this.running = true;
    this.fault = null;
    this.lastWall = this.deps.wallNow();
    this.dirty = true;
    this.flush();
  }

  pause(): void {
    this.running = false;
    this.owedMs = 0;
    this.dirty = true;
    this.flush();
  }

  setSpeed(speed: number): void {
    if (!(SPEEDS as readonly number[]).includes(speed)) throw new Error(`unsupported speed ${speed}`);
    this.speed = speed;
    this.dirty = true;
    this.flush();
  }

  step(): boolean {
    this.running = false;
    this.owedMs = 0;
    const before = this.cluster.relay.lastSeq;
    let fired = false;
    for (let i = 0; i < MAX_STEP_TIMERS; i++) {
      if (!this.cluster.step()) break;
      fired = true;
      if (this.cluster.relay.lastSeq > before && this.cluster.relay.since(before).some((h) => h.category !== 'heartbeat')) break;
    }
    this.dirty = true;
    this.flush();
    return fired;
  }

  killNode(name: string): void {
    this.cluster.killNode(name);
    this.flush();
  }

  restoreNode(name: string): void {
    this.cluster.restoreNode(name);
    this.flush();
  }

  addNode(name?: string): string {
    let n = name;
    if (!n) {
      const taken = new Set(this.cluster.objects().filter((o) => o.kind === 'Node').map((o) => o.metadata.name));
      let i = 1;
      while (taken.has(`node-${i}`)) i++;
      n = `node-${i}`;
    }
    this.cluster.addNode({ name: n });
    this.flush();
    return n;
  }

  deletePod(namespace: string, name: string): void {
    this.cluster.deletePod(namespace, name);
    this.flush();
  }

  reset(): void {
    this.boot();
    this.flush();
  }

  /** Pushes one batch when anything changed since the last one. */
  flush(): void {
    if (!this.onBatch) return;
    const c = this.cluster;
    const simMs = c.now() - this.deps.startMs;
    const reset = this.needReset;
    let changes;
    let events;
    if (reset) {
      // a full snapshot replaces whatever the UI had; pending deltas are part of it
      this.objects.drain(() => null);
      this.eventChanges.drain(() => null);
      changes = c.objects().map((o) => this.snapshotChange(o));
      events = c.events().map((o) => this.snapshotChange(o));
    } else {
      changes = this.objects.drain((o) => this.row(o));
      events = this.eventChanges.drain(() => null);
    }
    let hops = c.relay.since(this.lastSeq);
    if (hops.length > MAX_HOPS_PER_BATCH) hops = hops.slice(hops.length - MAX_HOPS_PER_BATCH);
    this.lastSeq = c.relay.lastSeq;
    if (!reset && !this.dirty && simMs === this.lastSimSent && !changes.length && !events.length && !hops.length) return;
    this.needReset = false;
    this.dirty = false;
    this.lastSimSent = simMs;
    this.onBatch({
      gen: this.gen,
      reset,
      simMs,
      startMs: this.deps.startMs,
      changes,
      events,
      hops,
      deadlines: c.deadlines(),
      running: this.running,
      speed: this.speed,
      profile: c.timings.profile,
      applySeq: this.applySeq,
      fault: this.fault,
    });
  }

  private snapshotChange(o: KObject) {
    return { type: 'ADDED' as const, resource: this.deps.resourceOf(o), key: objectKey(o), object: o, row: o.kind === 'Event' ? null : this.row(o) };
  }

  private row(o: KObject): ResourceRow | null {
    try {
      return this.deps.describeRow(o, this.cluster.now());
    } catch {
      return null;
    }
  }
}
