import { describe, expect, it } from 'vitest';
import { createKubeStore } from './store';
import { selectLeaderInstances } from './selectors';
import { emptyTopology } from './topology';
import { cardOfParticipant, APISERVER_CARD, CONTROLLER_MANAGER_CARD, KUBECTL_CARD, SCHEDULER_CARD } from '../graph/participants';

const obj = (key: string, o: Record<string, unknown>) => [key, { key, resource: '', row: null, object: o }] as const;
const lease = (holder: string) =>
  obj('Lease/kube-system/kube-controller-manager', {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'kube-controller-manager', namespace: 'kube-system' },
    spec: { holderIdentity: holder },
  });
const machine = (node: string, power: string) =>
  obj(`Machine/${node}`, { apiVersion: 'sim.kube-relay.dev/v1alpha1', kind: 'Machine', metadata: { name: node }, spec: { power } });
const nodes = ['control-plane', 'control-plane2', 'control-plane3', 'node-1'].map((name) => ({
  key: `Node/${name}`,
  name,
  controlPlane: name.startsWith('control-plane'),
}));

describe('selectLeaderInstances: one word per control-plane node, from the Lease and the Machines', () => {
  it.each([
    { name: 'no Lease yet', objects: [], want: '' },
    {
      name: 'the leader on control-plane',
      objects: [lease('control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529')],
      want: 'control-plane:leader control-plane2:standby control-plane3:standby',
    },
    {
      name: "the leader's machine off, Lease not yet taken",
      objects: [lease('control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529'), machine('control-plane', 'Off')],
      want: 'control-plane:down control-plane2:standby control-plane3:standby',
    },
    {
      name: 'taken over by control-plane3',
      objects: [lease('control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24'), machine('control-plane', 'Off')],
      want: 'control-plane:down control-plane2:standby control-plane3:leader',
    },
    {
      name: 'a holder that is no node (written by hand)',
      objects: [lease('intruder')],
      want: 'control-plane:standby control-plane2:standby control-plane3:standby intruder:leader',
    },
  ])('$name', ({ objects, want }) => {
    const store = createKubeStore();
    store.setState({ topology: { ...emptyTopology(), nodes }, objects: new Map(objects as never) });
    expect(selectLeaderInstances('kube-controller-manager')(store.getState())).toBe(want);
  });
});

describe("cardOfParticipant: the instances of an HA control plane draw on their component's card", () => {
  it.each([
    ['kube-controller-manager (control-plane2)', CONTROLLER_MANAGER_CARD],
    ['kube-controller-manager', CONTROLLER_MANAGER_CARD],
    ['deployment-controller', CONTROLLER_MANAGER_CARD],
    ['kube-scheduler (control-plane3)', SCHEDULER_CARD],
    ['kube-apiserver (control-plane)', APISERVER_CARD],
    ['kubectl', KUBECTL_CARD],
  ])('%s → %s', (p, card) => {
    expect(cardOfParticipant(p)).toBe(card);
  });
});
