/**
 * The Deployment's Progressing condition over a rollout, as pkg/controller/deployment
 * (sync.go getNewReplicaSet: NewReplicaSetCreated / FoundNewReplicaSet; progress.go
 * syncRolloutStatus: ReplicaSetUpdated while it progresses, NewReplicaSetAvailable at
 * completion, ProgressDeadlineExceeded once lastUpdateTime + progressDeadlineSeconds has passed,
 * checked by the requeue after the deadline + 1 s). Times are simulated seconds from the apply.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  progressDeadlineSeconds: 60
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27}]
`;

/** Every change of the Progressing condition: [seconds (ms precision), status, reason, message, lastUpdateTime, lastTransitionTime]. */
function progressing(missing: boolean): [number, string, string, string, string, string][] {
  const c = new Cluster({ seed: 1 });
  if (missing) c.images.markMissing('nginx:1.27');
  const t0 = c.now();
  const out: [number, string, string, string, string, string][] = [];
  c.api.store.listen((ev) => {
    if (!String(ev.resource).includes('deployments')) return;
    const find = (o: typeof ev.obj | undefined) => o?.status?.conditions?.find((x: { type: string }) => x.type === 'Progressing');
    const p = find(ev.obj);
    if (p && JSON.stringify(p) !== JSON.stringify(find(ev.prev)))
      out.push([(c.now() - t0) / 1000, p.status, p.reason, p.message, p.lastUpdateTime.slice(11), p.lastTransitionTime.slice(11)]);
  });
  c.apply(MANIFEST);
  c.advance(100_000);
  if (missing)
    expect(c.kubectl('rollout status deploy web --timeout=1s').error).toBe('error: deployment "web" exceeded its progress deadline\n');
  return out;
}

describe('Deployment Progressing condition', () => {
  test('a rollout that completes: NewReplicaSetCreated → ReplicaSetUpdated (each progress) → NewReplicaSetAvailable', () => {
    expect(progressing(false)).toEqual([
      [0.001, 'True', 'NewReplicaSetCreated', 'Created new replica set "web-5c94f75b5d"', '00:00:00Z', '00:00:00Z'],
      [0.004, 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5c94f75b5d" is progressing.', '00:00:00Z', '00:00:00Z'],
      [2.249, 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5c94f75b5d" is progressing.', '00:00:02Z', '00:00:00Z'],
      [2.263, 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-5c94f75b5d" has successfully progressed.', '00:00:02Z', '00:00:00Z'],
    ]);
  });

  test('Pods that never become available: ProgressDeadlineExceeded 60 s after the last progress (+1 s requeue)', () => {
    expect(progressing(true)).toEqual([
      [0.001, 'True', 'NewReplicaSetCreated', 'Created new replica set "web-5c94f75b5d"', '00:00:00Z', '00:00:00Z'],
      [0.004, 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-5c94f75b5d" is progressing.', '00:00:00Z', '00:00:00Z'],
      [61, 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-5c94f75b5d" has timed out progressing.', '00:01:01Z', '00:01:01Z'],
    ]);
  });
});
