/**
 * Machines as declared state (docs/architecture.md#machines): each node's machine is a cluster-scoped
 * custom resource `machines.sim.kube-relay.dev` (kind Machine, name = the node's name) with
 * `spec.power: On|Off`. Powering a node off is a write to that object — from the UI's kill
 * button, a scenario's `killNode`, or `kubectl patch machine node-2 --type=merge
 * -p '{"spec":{"power":"Off"}}'` — so a kill shows in the relay as an API write. The
 * machine controller (the simulated hypervisor, participant `machine-controller`) watches
 * Machines and powers the kubelet's machine off or on, then reports `status.power`.
 *
 * This is kube-relay's own API, not Kubernetes': it stands for the cloud or the datacenter
 * that a real cluster's nodes run on.
 */
import type { ComponentContext } from './component-context';
import type { Kubelet } from './kubelet/kubelet';
import type { KubeProxy } from './proxy/kube-proxy';
import { users, type Client } from './client/clientset';
import { SharedInformer } from './client/informer';
import { newListWatchFromClient } from './client/listwatch';
import { RateLimitingQueue } from './client/workqueue';
import { deepCopy, type KObject } from './api/types';
import { StatusError } from './api/errors';

export const MACHINE_GROUP = 'sim.kube-relay.dev';
const PARTICIPANT = 'machine-controller';

/** The CustomResourceDefinition of Machine, created at cluster boot. */
export const MACHINE_CRD: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `machines.${MACHINE_GROUP}` },
  spec: {
    group: MACHINE_GROUP,
    scope: 'Cluster',
    names: { plural: 'machines', singular: 'machine', kind: 'Machine', shortNames: ['mach'] },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Power', type: 'string', jsonPath: '.spec.power' },
          { name: 'State', type: 'string', jsonPath: '.status.power' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['power'],
                properties: {
                  power: { type: 'string', enum: ['On', 'Off'], description: "Desired power state of the node's machine." },
                },
              },
              status: {
                type: 'object',
                properties: {
                  power: { type: 'string', enum: ['On', 'Off'] },
                  lastTransitionTime: { type: 'string' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** The Machine object for a node. */
export function machineFor(node: string): KObject {
  return { apiVersion: `${MACHINE_GROUP}/v1alpha1`, kind: 'Machine', metadata: { name: node }, spec: { power: 'On' } };
}

/**
 * Watches Machines and powers each node's kubelet and kube-proxy off and on to match
 * `spec.power`. The maps are the cluster's live maps of node name → component.
 */
export class MachineController {
  private readonly client: Client;
  private readonly queue: RateLimitingQueue;
  private informer: SharedInformer | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly kubelets: Map<string, Kubelet>,
    private readonly kubeProxies: Map<string, KubeProxy> = new Map(),
    /** Told when a machine powers off or on (its `docker run` containers die or restart: docker/standalone.ts). */
    private readonly onPower: (node: string, on: boolean) => void = () => {},
  ) {
    this.client = ctx.client(users.controller(PARTICIPANT));
    this.queue = new RateLimitingQueue('machine', ctx.clock, ctx.relay, (key) => this.syncMachine(key));
  }

  /** Starts watching (call after the Machine CRD is established). */
  start(): void {
    if (!this.client.restMapper.forResource(MACHINE_GROUP, 'machines')) throw new Error('the Machine CRD is not installed');
    this.informer = new SharedInformer(newListWatchFromClient(this.client, MACHINE_GROUP, 'machines'));
    this.informer.addEventHandler({
      participant: PARTICIPANT,
      onAdd: (m) => this.queue.add(m.metadata.name),
      onUpdate: (o, m) => {
        if (o.spec?.power !== m.spec?.power) this.queue.add(m.metadata.name);
      },
    });
    this.informer.start();
  }

  /** Makes the machine's power match spec.power, then records status.power. */
  syncMachine(name: string): void {
    const m = this.informer?.get(name);
    const k = this.kubelets.get(name);
    if (!m || !k) return;
    const want = m.spec?.power === 'Off' ? 'Off' : 'On';
    const is = k.powered ? 'On' : 'Off';
    if (want !== is) {
      this.ctx.relay.record({
        from: PARTICIPANT,
        to: `kubelet/${name}`,
        kind: 'decision',
        name,
        summary:
          want === 'Off'
            ? `power off machine ${name}: kubelet, containers and heartbeats stop`
            : `power on machine ${name}: the kubelet boots`,
      });
      const kp = this.kubeProxies.get(name);
      if (want === 'Off') {
        k.powerOff();
        kp?.powerOff();
      } else {
        k.powerOn();
        kp?.powerOn();
      }
      this.onPower(name, want === 'On');
    }
    if (m.status?.power !== want) {
      const next = deepCopy(m);
      next.status = { power: want, lastTransitionTime: this.ctx.clock.nowRFC3339() };
      try {
        this.client.resource(MACHINE_GROUP, 'machines').updateStatus(next, { summary: `Machine ${name} status.power=${want}` });
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        throw e; // conflict → retried with back-off
      }
    }
  }
}
