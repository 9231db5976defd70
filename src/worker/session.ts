/**
 * The session log: how the cluster is persisted and restored. Rather than a snapshot of
 * every stored object, clock, relay window and RNG state, the worker keeps the cluster
 * options plus the ordered user actions with the simulated time each happened at; the
 * engine is deterministic (one seeded RNG, one simulated clock), so replaying the log on a
 * fresh cluster gives the same objects, the same relay and the same time.
 */
import type { TrafficRequest, WorkloadLoad } from '../cluster/userland/traffic-types';
import type { Step } from '../cluster/scenario/scenario';
import type { UserControllerSpec } from '../cluster/user-controller/types';

/**
 * Who the learner's requests are made as (the UI's "Acting as"): the kubectl user impersonates
 * `user` with `groups` (kubectl --as / --as-group; apiserver filters/impersonation.go). A
 * ServiceAccount is `system:serviceaccount:NS:NAME`. Null in {@link SessionAction} `actAs`:
 * the kubectl user itself (kubernetes-admin).
 */
export interface ActingAs {
  user: string;
  /** --as-group values, in order; empty: none requested (a ServiceAccount then gets its system:serviceaccounts groups) */
  groups: string[];
}

/** One user action, at simulated ms since the epoch (the cluster clock before the action). */
export type SessionAction =
  | { at: number; op: 'apply'; text: string }
  | { at: number; op: 'kill' | 'restore' | 'addNode' | 'removeNode'; node: string }
  | { at: number; op: 'image'; image: string; missing: boolean }
  | { at: number; op: 'deletePod'; namespace: string; name: string }
  | { at: number; op: 'kubectl'; line: string }
  /** a step: the clock ran instant by instant to `until` (ms since the epoch); logs before it had no `until` */
  | { at: number; op: 'step'; until?: number }
  /** fast-forward: the clock ran instantly to `until` (ms since the epoch) */
  | { at: number; op: 'fastForward'; until: number }
  /** a scenario step a tour ran on the live cluster (worker/script.ts) */
  | { at: number; op: 'scenarioStep'; step: Step }
  /** a `docker …` line against a machine's engine (docker/cli.ts) */
  | { at: number; op: 'docker'; line: string }
  /** the load control (traffic/load.ts): total CPU of a workload's Pods */
  | { at: number; op: 'setLoad'; load: WorkloadLoad }
  /** a batch of requests from the traffic generator (it draws from the seeded RNG, so it is replayed) */
  | { at: number; op: 'request'; request: TrafficRequest }
  /** an nslookup from the DNS tool: changes no object, but its queries are relay hops */
  | { at: number; op: 'dnsLookup'; name: string; namespace: string }
  /** `kubectl apply -k DIR` of the editor's tabs (path → text); replayed by building them again (worker/kustomize.ts) */
  | { at: number; op: 'applyKustomize'; files: Record<string, string>; dir: string }
  /** a user controller started, or restarted after an edit (docs/user-controllers.md): its source and compiled code */
  | { at: number; op: 'controller'; spec: UserControllerSpec }
  /** a user controller stopped */
  | { at: number; op: 'controllerStop'; name: string }
  /** the UI's "Acting as" changed: later kubectl lines, applies and Pod deletes impersonate `as` (null: the admin again) */
  | { at: number; op: 'actAs'; as: ActingAs | null };

export interface SessionLog {
  format: 'kube-relay-session';
  version: 1;
  /**
   * The cluster options (informational: the worker's own options are used), but for
   * `controlPlane.replicas` (an HA control plane, 3), which a replay boots with.
   */
  cluster: { seed: number; nodes: number; controlPlane?: { replicas: number } };
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
  return (
    o.format === 'kube-relay-session' &&
    o.version === 1 &&
    Array.isArray(o.actions) &&
    typeof o.now === 'number' &&
    o.actions.every((a) => a && typeof a === 'object' && typeof a.at === 'number' && typeof a.op === 'string')
  );
}

/** An action before it is stamped with its time. */
export type SessionActionInput = SessionAction extends infer A ? (A extends SessionAction ? Omit<A, 'at'> : never) : never;
