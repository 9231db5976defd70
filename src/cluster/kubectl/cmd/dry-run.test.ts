import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../../cluster';

const PEEKCART = readFileSync(new URL('../../../scenarios/peekcart.yaml', import.meta.url), 'utf8');

describe('--dry-run on mutating commands changes nothing and says so', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(PEEKCART);
  c.settle(120_000);
  const pods = () => c.list('pods', 'default').map((p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' terminating' : ''}`);
  const before = pods();
  const cases: [string, string][] = [
    ['scale deploy peekcart --replicas=5 --dry-run=client', 'deployment.apps/peekcart scaled (dry run)\n'],
    ['scale deploy peekcart --replicas=5 --dry-run=server', 'deployment.apps/peekcart scaled (server dry run)\n'],
    ['cordon node-1 --dry-run=client', 'node/node-1 cordoned (dry run)\n'],
    ['label deploy peekcart team=a --dry-run=server', 'deployment.apps/peekcart labeled (server dry run)\n'],
    ['set image deploy/peekcart peekcart=nginx:1.27 --dry-run=client', 'deployment.apps/peekcart image updated (dry run)\n'],
  ];
  for (const [line, out] of cases) {
    it(line, () => {
      const r = c.kubectl(line);
      expect(r.output).toBe(out);
      expect(r.error).toBeNull();
    });
  }
  it('delete --all and drain in dry run leave every Pod and the node alone', () => {
    expect(
      c
        .kubectl('delete pod --all --dry-run=client')
        .output.split('\n')
        .filter(Boolean)
        .every((l) => l.endsWith(' deleted (dry run)')),
    ).toBe(true);
    expect(c.kubectl('drain node-2 --ignore-daemonsets --force --dry-run=client').output).toMatch(
      /^node\/node-2 cordoned \(dry run\)\n[\s\S]*node\/node-2 drained \(dry run\)\n$/,
    );
    c.advance(10_000);
    expect(pods()).toEqual(before);
    expect(c.get('deployments.apps', 'default', 'peekcart')!.spec.replicas).toBe(3);
    expect(c.get('nodes', '', 'node-1')!.spec.unschedulable).toBeUndefined();
    expect(c.get('nodes', '', 'node-2')!.spec.unschedulable).toBeUndefined();
  });
  it('an invalid --dry-run value is refused', () => {
    expect(c.kubectl('scale deploy peekcart --replicas=5 --dry-run=bogus').error).toBe(
      'error: Invalid dry-run value (bogus). Must be "none", "server", or "client".\n',
    );
  });
});
