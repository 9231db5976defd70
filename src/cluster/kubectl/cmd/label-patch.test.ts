/**
 * kubectl label / annotate are PATCH requests (a JSON merge patch of the map, kubectl's
 * label.go / annotate.go with jsonpatch.CreateMergePatch): authorized as `patch`, recorded in
 * managedFields under the field managers kubectl-label / kubectl-annotate, drawn in the relay
 * with verb patch while etcd still gets a put; the GET kubectl sends first is drawn.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const cases = [
  { name: 'label', line: 'label node node-1 tier=web', manager: 'kubectl-label', out: 'node/node-1 labeled\n' },
  { name: 'annotate', line: 'annotate node node-1 note=hi', manager: 'kubectl-annotate', out: 'node/node-1 annotated\n' },
];

describe('kubectl label and annotate send a merge PATCH', () => {
  for (const tc of cases)
    it(tc.name, () => {
      const c = new Cluster({ seed: 1 });
      c.advance(5000);
      const before = c.relay.lastSeq;
      expect(c.kubectl(tc.line).output).toBe(tc.out);
      const hops = c.relay.all().filter((h) => h.seq > before && (h.from === 'kubectl' || h.to === 'kubectl' || h.to === 'etcd'));
      expect(hops.map((h) => `${h.kind} ${h.verb}`)).toEqual([
        'request get',
        'response get',
        'request patch',
        'request update',
        'response patch',
      ]);
      const note = c.relay.all().find((h) => h.seq > before && h.kind === 'note' && h.verb === 'patch');
      expect(note?.summary).toContain('authz allow patch nodes by ClusterRoleBinding kubeadm:cluster-admins → ClusterRole cluster-admin');
      const mf = (c.get('nodes', '', 'node-1')!.metadata.managedFields ?? []).map((m) => [m.manager, m.operation]);
      expect(mf).toContainEqual([tc.manager, 'Update']);
    });

  it('removing a label patches it to null; every other label stays', () => {
    const c = new Cluster({ seed: 1 });
    c.advance(5000);
    c.kubectl('label node node-1 a=1 b=2');
    expect(c.kubectl('label node node-1 a-').output).toBe('node/node-1 unlabeled\n');
    const labels = c.get('nodes', '', 'node-1')!.metadata.labels ?? {};
    expect(labels.b).toBe('2');
    expect('a' in labels).toBe(false);
  });
});
