/**
 * The session log: how the cluster is persisted and restored. Rather than a snapshot of
 * every stored object, clock, relay window and RNG state, the worker keeps the cluster
 * options plus the user's actions as scenario steps (docs/scenario-format.md), each with the
 * simulated time it began at; the
 * engine is deterministic (one seeded RNG, one simulated clock), so replaying the log on a
 * fresh cluster gives the same objects, the same relay and the same time.
 */
import type { TrafficRequest, WorkloadLoad } from '../cluster/userland/traffic-types';
import type { Step } from '../cluster/scenario/scenario';
import type { UserControllerSpec } from '../cluster/user-controller/types';
import { STEP_PLAYERS } from '../cluster/scenario/play';

/**
 * Who the learner's requests are made as (the UI's "Acting as"): the kubectl user impersonates
 * `user` with `groups` (kubectl --as / --as-group; apiserver filters/impersonation.go). A
 * ServiceAccount is `system:serviceaccount:NS:NAME`. Null in an `actAs` step:
 * the kubectl user itself (kubernetes-admin).
 */
export interface ActingAs {
  user: string;
  /** --as-group values, in order; empty: none requested (a ServiceAccount then gets its system:serviceaccounts groups) */
  groups: string[];
}

/**
 * One entry of a version-1 session log (sessions saved before the log held scenario steps): a
 * user action at simulated ms since the epoch. Still read: {@link migrateSessionLog} turns each
 * into its step.
 */
export type SessionAction =
  | { at: number; op: 'apply'; text: string }
  | { at: number; op: 'kill' | 'restore' | 'addNode' | 'removeNode'; node: string }
  | { at: number; op: 'image'; image: string; missing: boolean }
  | { at: number; op: 'deletePod'; namespace: string; name: string }
  | { at: number; op: 'kubectl'; line: string }
  /** a step: the clock ran instant by instant to `until` (ms since the epoch, = `at`); logs before it had no `until` */
  | { at: number; op: 'step'; until?: number }
  /** fast-forward: the clock ran instantly to `until` (ms since the epoch, = `at`) */
  | { at: number; op: 'fastForward'; until: number }
  /** a scenario step a tour ran on the live cluster (worker/script.ts) */
  | { at: number; op: 'scenarioStep'; step: Step }
  | { at: number; op: 'docker'; line: string }
  | { at: number; op: 'setLoad'; load: WorkloadLoad }
  | { at: number; op: 'request'; request: TrafficRequest }
  | { at: number; op: 'dnsLookup'; name: string; namespace: string }
  | { at: number; op: 'applyKustomize'; files: Record<string, string>; dir: string }
  | { at: number; op: 'controller'; spec: UserControllerSpec }
  | { at: number; op: 'controllerStop'; name: string }
  | { at: number; op: 'actAs'; as: ActingAs | null };

/**
 * One entry of the session log: a scenario step (cluster/scenario/scenario.ts `Step`, the
 * vocabulary of docs/scenario-format.md) and the simulated ms since the epoch it began at.
 * Time the clock ran between two entries is not logged: a replay runs the clock to each
 * entry's `at` (a Step or fast-forward of the timeline is an `advance` entry).
 */
export interface LoggedStep {
  at: number;
  step: Step;
}

/** The session log as the worker keeps and exports it (version 2). */
export interface SessionLog {
  format: 'kube-relay-session';
  version: 2;
  /**
   * The cluster options (informational: the worker's own options are used), but for
   * `controlPlane.replicas` (an HA control plane, 3), which a replay boots with.
   */
  cluster: { seed: number; nodes: number; controlPlane?: { replicas: number } };
  steps: LoggedStep[];
  /** Simulated now (ms since the epoch) when the log was taken. */
  now: number;
  running: boolean;
  speed: number;
}

/** A version-1 session log (saved in IndexedDB or exported before version 2): `actions` instead of `steps`. */
export interface SessionLogV1 extends Omit<SessionLog, 'version' | 'steps'> {
  version: 1;
  actions: SessionAction[];
}

/** An entry with an `at` (its value is checked by {@link validateSessionTimes}, which names the entry and field). */
const isEntry = (a: unknown): a is { at: number } => !!a && typeof a === 'object' && Object.hasOwn(a, 'at');

/** True when `v` looks like a session log of either version (import of a file the user picked). */
export function isSessionLog(v: unknown): v is SessionLog | SessionLogV1 {
  if (!v || typeof v !== 'object') return false;
  const o = v as { format?: unknown; version?: unknown; now?: unknown; actions?: unknown[]; steps?: Partial<LoggedStep>[] };
  if (o.format !== 'kube-relay-session' || !Object.hasOwn(o, 'now')) return false;
  if (o.version === 1)
    return Array.isArray(o.actions) && o.actions.every((a) => isEntry(a) && typeof (a as { op?: unknown }).op === 'string');
  return (
    o.version === 2 &&
    Array.isArray(o.steps) &&
    o.steps.every((e) => {
      const step: { kind?: unknown } | undefined = e?.step;
      return isEntry(e) && !!step && typeof step === 'object' && typeof step.kind === 'string' && Object.hasOwn(STEP_PLAYERS, step.kind);
    })
  );
}

/**
 * Most simulated time a session log may span: its steps' times and `now` from the start of the
 * cluster it is replayed on, and any one `advance`. Thirty days; an idle cluster simulates an hour
 * in about 70 ms, so a replay stays within a minute, while a hostile `at: 1e15` would run for days.
 */
export const MAX_SESSION_SPAN_MS = 30 * 24 * 3600_000;

/** `v` as a time the import accepts (finite, 0 ≤ v ≤ max), or the reason it is not. */
function timeProblem(v: unknown, max: number): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v))
    return `must be a finite number of simulated ms (got ${typeof v === 'number' ? String(v) : typeof v})`;
  if (v < 0) return `must be ≥ 0 (got ${v})`;
  if (v > max) return `must be at most ${max} (got ${v})`;
  return null;
}

/**
 * Checks the times of a session log before it is replayed on a cluster starting at `startMs`
 * (simulated ms since the epoch): every step's (version 1: action's) `at` and the log's `now`
 * are finite, ≥ 0 and at most startMs + {@link MAX_SESSION_SPAN_MS}; an `advance` step's `ms`
 * (version 1: a step or fastForward action's `until`) likewise, the span at most MAX_SESSION_SPAN_MS.
 * @throws Error naming the entry and field, e.g. "session steps[3].at: must be ≥ 0 (got -5)".
 */
export function validateSessionTimes(log: SessionLog | SessionLogV1, startMs: number): void {
  const maxAt = startMs + MAX_SESSION_SPAN_MS;
  const check = (what: string, v: unknown, max: number) => {
    const p = timeProblem(v, max);
    if (p) throw new Error(`session ${what}: ${p}`);
  };
  check('now', log.now, maxAt);
  if (log.version === 1) {
    log.actions.forEach((a, i) => {
      check(`actions[${i}].at`, a.at, maxAt);
      if ((a.op === 'step' || a.op === 'fastForward') && a.until !== undefined) check(`actions[${i}].until`, a.until, maxAt);
    });
    return;
  }
  log.steps.forEach((e, i) => {
    check(`steps[${i}].at`, e.at, maxAt);
    if (e.step.kind === 'advance') check(`steps[${i}].step.ms`, e.step.ms, MAX_SESSION_SPAN_MS);
  });
}

/** The legacy Step button fired at most this many timers looking for a hop other than a heartbeat. */
export const LEGACY_STEP_TIMERS = 2_000;

/** The step a version-1 action is (null: an op this version does not know, skipped as its replay did). */
export function actionStep(a: SessionAction): Step | null {
  switch (a.op) {
    case 'apply':
      return { kind: 'apply', manifest: a.text };
    case 'kill':
      return { kind: 'killNode', node: a.node };
    case 'restore':
      return { kind: 'restoreNode', node: a.node };
    case 'addNode':
      return { kind: 'addNode', node: { name: a.node } };
    case 'removeNode':
      return { kind: 'removeNode', node: a.node };
    case 'image':
      return { kind: 'setImageMissing', image: a.image, missing: a.missing };
    case 'deletePod':
      return { kind: 'deletePod', pod: { namespace: a.namespace, name: a.name }, via: 'api' };
    case 'kubectl':
      return { kind: 'kubectl', command: a.line };
    case 'step':
      return a.until === undefined ? { kind: 'fireTimers', max: LEGACY_STEP_TIMERS } : { kind: 'advance', ms: Math.max(0, a.until - a.at) };
    case 'fastForward':
      return { kind: 'advance', ms: Math.max(0, a.until - a.at) };
    case 'scenarioStep':
      return a.step;
    case 'docker':
      return { kind: 'docker', line: a.line };
    case 'setLoad':
      return { kind: 'setLoad', namespace: a.load.namespace, workload: a.load.workload, cpuMillicores: a.load.totalCpuMillicores };
    case 'request': {
      const s = a.request.source;
      return {
        kind: 'request',
        from: s.kind === 'pod' ? { kind: 'pod', namespace: s.namespace, name: s.name } : { kind: 'external' },
        url: a.request.url,
        count: a.request.count,
      };
    }
    case 'dnsLookup':
      return { kind: 'dnsLookup', name: a.name, namespace: a.namespace };
    case 'applyKustomize':
      return { kind: 'applyKustomize', path: a.dir, files: a.files };
    case 'controller':
      return controllerStep(a.spec);
    case 'controllerStop':
      return { kind: 'stopController', name: a.name };
    case 'actAs':
      return { kind: 'actAs', as: a.as };
    default:
      return null;
  }
}

/** The `controller` step that starts (or restarts) a user controller with `spec`. */
export function controllerStep(spec: UserControllerSpec): Step {
  return {
    kind: 'controller',
    name: spec.name,
    source: spec.source,
    ...(spec.code !== undefined ? { code: spec.code } : {}),
    ...(spec.for ? { for: spec.for } : {}),
    ...(spec.owns ? { owns: spec.owns } : {}),
  };
}

/**
 * A session log of either version as version 2: a version-1 log's actions become the steps
 * they are ({@link actionStep}), at the same times; replaying either gives the same cluster.
 */
export function migrateSessionLog(log: SessionLog | SessionLogV1): SessionLog {
  if (log.version === 2) return log;
  const steps: LoggedStep[] = [];
  for (const a of log.actions) {
    const step = actionStep(a);
    if (step) steps.push({ at: a.at, step });
  }
  return { format: log.format, version: 2, cluster: log.cluster, steps, now: log.now, running: log.running, speed: log.speed };
}
