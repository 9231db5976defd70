/**
 * Strategic merge patch of `status.conditions` (and a Node's `status.addresses`) merges by
 * `type` (patchMergeKey "type", patchStrategy "merge" in k8s.io/api), so a patch naming one
 * condition leaves the others alone — as `kubectl patch node --subresource=status` does on a
 * real cluster. A JSON merge patch still replaces the list.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';

describe('status.conditions merge by type', () => {
  const c = new Cluster();
  c.settle(20_000);
  const nodes = c.api.registry.forKind('v1', 'Node')!;
  const types = () =>
    (c.get('nodes', '', 'node-1')!.status.conditions as { type: string; status: string }[]).map((x) => `${x.type}=${x.status}`);

  it('a strategic patch of Ready keeps MemoryPressure, DiskPressure, PIDPressure', () => {
    const before = types();
    expect(before.length).toBe(4);
    c.api.patch(
      users.kubectl(),
      nodes,
      '',
      'node-1',
      'strategic',
      { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Test', message: 'by test' }] } },
      { subresource: 'status' },
    );
    expect(types()).toEqual(before.map((t) => (t.startsWith('Ready=') ? 'Ready=False' : t)));
  });

  it('addresses merge by type too', () => {
    const before = (c.get('nodes', '', 'node-1')!.status.addresses as { type: string }[]).map((a) => a.type);
    c.api.patch(
      users.kubectl(),
      nodes,
      '',
      'node-1',
      'strategic',
      { status: { addresses: [{ type: 'Hostname', address: 'renamed' }] } },
      { subresource: 'status' },
    );
    const after = c.get('nodes', '', 'node-1')!.status.addresses as { type: string; address: string }[];
    expect(after.map((a) => a.type)).toEqual(before);
    expect(after.find((a) => a.type === 'Hostname')!.address).toBe('renamed');
  });

  it('a JSON merge patch replaces the list', () => {
    c.api.patch(
      users.kubectl(),
      nodes,
      '',
      'node-1',
      'merge',
      { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } },
      { subresource: 'status' },
    );
    expect(types()).toEqual(['Ready=Unknown']);
  });
});
