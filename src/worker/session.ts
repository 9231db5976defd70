/**
 * The session log: how the cluster is persisted and restored. Rather than a snapshot of
 * every stored object, clock, relay window and RNG state, the worker keeps the cluster
 * options plus the ordered user actions with the simulated time each happened at; the
 * engine is deterministic (one seeded RNG, one simulated clock), so replaying the log on a
 * fresh cluster gives the same objects, the same relay and the same time.
 */

/** One user action, at simulated ms since the epoch (the cluster clock before the action). */
export type SessionAction =
  | { at: number; op: 'apply'; text: string }
  | { at: number; op: 'kill' | 'restore' | 'addNode' | 'removeNode'; node: string }
  | { at: number; op: 'image'; image: string; missing: boolean }
  | { at: number; op: 'deletePod'; namespace: string; name: string }
  | { at: number; op: 'kubectl'; line: string }
  | { at: number; op: 'step' };

export interface SessionLog {
  format: 'kube-relay-session';
  version: 1;
  /** The cluster options (informational: the worker's own options are used). */
  cluster: { seed: number; nodes: number };
  actions: SessionAction[];
  /** Simulated now (ms since the epoch) when the log was taken. */
  now: number;
  running: boolean;
  speed: number;
}

/** True when `v` looks like a session log (import of a file the user picked). */
export function isSessionLog(v: unknown): v is SessionLog {
  if (!v || typeof v !== 'object') return false;
  const o = v as Partial<SessionLog>;
  return o.format === 'kube-relay-session' && o.version === 1 && Array.isArray(o.actions) && typeof o.now === 'number' && o.actions.every((a) => a && typeof a === 'object' && typeof a.at === 'number' && typeof a.op === 'string');
}

/** An action before it is stamped with its time. */
export type SessionActionInput = SessionAction extends infer A ? (A extends SessionAction ? Omit<A, 'at'> : never) : never;
