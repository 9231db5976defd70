/**
 * The failover that src/cli/record-leader-goldens.ts records with the REAL kubectl and
 * src/server/leader-goldens.test.ts replays through the in-app kubectl: an HA control plane
 * (`controlPlane.replicas: 3`), its leaders' node killed, kubectl lines before, during and
 * after the Lease expires. `kill` and `advanceMs` run on the cluster before the line.
 */
import { Cluster } from '../cluster/cluster';

/** One transcript entry: what happens to the cluster first, then the kubectl line. */
export interface LeaderGoldenStep {
  kill?: string;
  /** simulated ms to advance before the line */
  advanceMs?: number;
  line: string;
}

export const LEADER_GOLDEN_STEPS: readonly LeaderGoldenStep[] = [
  { line: 'get nodes -l node-role.kubernetes.io/control-plane' },
  { line: 'get lease -n kube-system' },
  { line: 'get lease kube-controller-manager -n kube-system -o yaml' },
  { kill: 'control-plane', advanceMs: 5_000, line: 'get lease -n kube-system' },
  {
    line: 'get lease -n kube-system -l !apiserver.kubernetes.io/identity -o custom-columns=NAME:.metadata.name,HOLDER:.spec.holderIdentity,RENEWED:.spec.renewTime,TRANSITIONS:.spec.leaseTransitions',
  },
  { advanceMs: 25_000, line: 'get lease -n kube-system' },
  {
    line: 'get lease -n kube-system -l !apiserver.kubernetes.io/identity -o custom-columns=NAME:.metadata.name,HOLDER:.spec.holderIdentity,ACQUIRED:.spec.acquireTime,TRANSITIONS:.spec.leaseTransitions',
  },
  { line: 'get lease -n kube-system -l apiserver.kubernetes.io/identity=kube-apiserver -L kubernetes.io/hostname' },
  { line: 'get events -n kube-system --field-selector reason=LeaderElection' },
];

/** The cluster the transcript starts from. */
export function leaderGoldenCluster(): Cluster {
  return new Cluster({ controlPlane: { replicas: 3 } });
}

/** Runs a step's actions on the cluster (before its kubectl line). */
export function leaderGoldenActions(c: Cluster, s: LeaderGoldenStep): void {
  if (s.kill) c.killNode(s.kill);
  if (s.advanceMs) c.advance(s.advanceMs);
}
