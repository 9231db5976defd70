/**
 * The control-plane instances of each control-plane node: a kube-apiserver (its identity
 * Lease), a kube-controller-manager and a kube-scheduler candidate, as kubeadm runs them as
 * static Pods on every control-plane node. kube-controller-manager and kube-scheduler run
 * client-go leader election (client/leaderelection.ts) on the Leases
 * `kube-system/kube-controller-manager` and `kube-system/kube-scheduler` with identity
 * `<hostname>_<uuid>` (cmd/kube-controller-manager/app/controllermanager.go,
 * cmd/kube-scheduler/app/options/options.go makeLeaderElectionConfig), and only the leader
 * runs its controllers / scheduling loop (OnStartedLeading); standbys keep retrying.
 *
 * The work itself is one ControllerManager and one KubeScheduler of the engine, driven by
 * whichever instance leads: a new leader starts it (the first time) or resumes it — the
 * informers relist and every controller resyncs, so what happened while no one led is caught
 * up level-triggered, as a freshly started process would. When the leader's node powers off,
 * its instances die: the work pauses at once and the Lease is left to expire
 * (leaseDurationSeconds 15) until a standby takes it. A node powered on again starts new
 * candidates with new identities. Every kube-apiserver instance is the engine's one APIServer
 * (requests are not routed per instance); each publishes and renews its identity Lease while
 * its node is up.
 */
import type { UIDStreams } from './apiserver/internal';
import type { ComponentContext } from './component-context';
import { users } from './client/clientset';
import type { RequestUser } from './apiserver/apiserver';
import { LeaseLock } from './client/leaselock';
import { LEADER_ELECTION_DEFAULTS, LeaderElector } from './client/leaderelection';
import { APIServerIdentityLease, apiserverID } from './controlplane/identity-lease';
import type { Rng } from './sim/rng';

/** The leader-elected components. */
export type ElectedComponent = 'kube-controller-manager' | 'kube-scheduler';

/** What leadership drives: the component's work (ControllerManager, KubeScheduler). */
export interface LeaderWork {
  start(): void;
  /** `summary`: the work's own relay note, '' for none (the instance records its own). */
  pause(summary?: string): void;
  resume(summary?: string): void;
}

/** One candidate process on one node. */
export interface ControlPlaneInstance {
  node: string;
  component: ElectedComponent;
  /** Relay participant: the component's name, with ` (<node>)` in an HA control plane. */
  participant: string;
  /** `<node>_<uuid>`; a new one each time the node boots. */
  identity: string;
  elector: LeaderElector;
}

/** An instance's role as the graph shows it: a kube-apiserver is `active` (no election), the others `leader` or `standby`. */
export type InstanceRole = 'leader' | 'standby' | 'active' | 'down';

/** A read-only view of one instance (for the UI and tests). */
export interface ControlPlaneInstanceView {
  node: string;
  component: ElectedComponent | 'kube-apiserver';
  participant: string;
  identity: string;
  role: InstanceRole;
}

/** Lease names (resourceName) in kube-system. */
const LEASE_NAMESPACE = 'kube-system';
/** Event source.component of each component's leader-election recorder. */
const EVENT_SOURCE: Record<ElectedComponent, string> = {
  'kube-controller-manager': 'kube-controller-manager',
  'kube-scheduler': 'default-scheduler',
};

export class ControlPlane {
  private readonly instances: ControlPlaneInstance[] = [];
  private readonly apiservers = new Map<string, APIServerIdentityLease>();
  private readonly down = new Set<string>();
  private readonly ids: Rng;
  private readonly started = new Set<ElectedComponent>();
  private readonly leading = new Map<ElectedComponent, ControlPlaneInstance>();
  private boots = 0;

  /**
   * @param nodes the control-plane nodes, in order
   * @param work what each component's leader runs
   */
  /**
   * @param uidStreams the apiserver's uid streams (apiserver/internal.ts): the assembly runs its candidates'
   *   writes on a stream of their own, which no client can ask for
   */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly uidStreams: UIDStreams,
    readonly nodes: string[],
    private readonly work: Record<ElectedComponent, LeaderWork>,
  ) {
    this.ids = ctx.rng.derive('leader-election');
  }

  /** True with more than one control-plane node (participants carry the node's name). */
  get ha(): boolean {
    return this.nodes.length > 1;
  }

  /** Starts every node's instances (at boot). */
  start(): void {
    for (const n of this.nodes) this.bootNode(n);
  }

  /** The machine controller powered a node off or on (machines.ts). Ignores worker nodes. */
  machinePowered(node: string, on: boolean): void {
    if (!this.nodes.includes(node)) return;
    if (on && this.down.has(node)) {
      this.down.delete(node);
      this.bootNode(node);
    } else if (!on && !this.down.has(node)) {
      this.down.add(node);
      this.apiservers.get(node)?.stop();
      for (const inst of this.instances.filter((i) => i.node === node)) {
        inst.elector.stop();
        if (this.leading.get(inst.component) === inst) {
          this.leading.delete(inst.component);
          this.note(
            inst,
            `${inst.participant} down with node ${node}: it stops acting; Lease ${LEASE_NAMESPACE}/${inst.component} is left to expire`,
          );
          this.work[inst.component].pause('');
        }
      }
      this.instances.splice(0, this.instances.length, ...this.instances.filter((i) => i.node !== node));
    }
  }

  /** The instance leading `component` now, if any. */
  leader(component: ElectedComponent): ControlPlaneInstance | undefined {
    return this.leading.get(component);
  }

  /** Every live instance (and the kube-apiservers), node by node. Down nodes list their components as down. */
  view(): ControlPlaneInstanceView[] {
    const out: ControlPlaneInstanceView[] = [];
    for (const node of this.nodes) {
      const api = this.apiservers.get(node);
      const isDown = this.down.has(node);
      out.push({
        node,
        component: 'kube-apiserver',
        participant: this.participant('kube-apiserver', node),
        identity: api?.holderIdentity ?? '',
        role: isDown ? 'down' : 'active',
      });
      for (const component of ['kube-controller-manager', 'kube-scheduler'] as const) {
        const inst = this.instances.find((i) => i.node === node && i.component === component);
        const role: InstanceRole = isDown || !inst ? 'down' : this.leading.get(component) === inst ? 'leader' : 'standby';
        out.push({ node, component, participant: this.participant(component, node), identity: inst?.identity ?? '', role });
      }
    }
    return out;
  }

  private note(inst: ControlPlaneInstance, summary: string): void {
    this.ctx.relay.record({ from: inst.participant, to: inst.participant, kind: 'note', summary });
  }

  private participant(component: string, node: string): string {
    return this.ha ? `${component} (${node})` : component;
  }

  private bootNode(node: string): void {
    const isolate = <T>(fn: () => T): T => this.uidStreams.withRng(this.ids, fn);
    const apiUser: RequestUser = { ...users.system('kube-apiserver'), participant: this.participant('kube-apiserver', node) };
    const apiLeases = this.ctx.client(apiUser).resource('coordination.k8s.io', 'leases');
    const identity = new APIServerIdentityLease(node, `${apiserverID(node)}_${this.ids.uuid()}`, this.ctx.clock, apiLeases, isolate);
    this.apiservers.set(node, identity);
    identity.start();
    for (const component of ['kube-controller-manager', 'kube-scheduler'] as const) this.startCandidate(node, component);
  }

  private startCandidate(node: string, component: ElectedComponent): void {
    const participant = this.participant(component, node);
    const base = component === 'kube-scheduler' ? users.scheduler() : users.controllerManager();
    const client = this.ctx.client({ ...base, participant });
    const identity = `${node}_${this.ids.uuid()}`;
    const lock = new LeaseLock(
      LEASE_NAMESPACE,
      component,
      identity,
      client.resource('coordination.k8s.io', 'leases'),
      this.ctx.recorder(client, EVENT_SOURCE[component]),
      (fn) => this.uidStreams.withRng(this.ids, fn),
    );
    // the callbacks name the instance the elector belongs to
    let inst: ControlPlaneInstance | undefined;
    const elector = new LeaderElector(
      {
        lock,
        ...LEADER_ELECTION_DEFAULTS,
        participant,
        callbacks: {
          onStartedLeading: () => inst && this.startedLeading(inst),
          onStoppedLeading: () => inst && this.stoppedLeading(inst),
        },
      },
      this.ctx.clock,
      this.ctx.rng.derive(`leader-election/${component}/${node}/${this.boots++}`),
      this.ctx.relay,
    );
    inst = { node, component, participant, identity, elector };
    this.instances.push(inst);
    inst.elector.run();
  }

  private startedLeading(inst: ControlPlaneInstance): void {
    this.leading.set(inst.component, inst);
    const w = this.work[inst.component];
    if (!this.started.has(inst.component)) {
      this.started.add(inst.component);
      w.start();
    } else {
      this.note(inst, `${inst.participant} became leader: relist and resync — level-triggered loops catch up on what no one did meanwhile`);
      w.resume('');
    }
  }

  /** leaderelection lost while alive: the process exits and the kubelet restarts it as a new candidate. */
  private stoppedLeading(inst: ControlPlaneInstance): void {
    if (this.leading.get(inst.component) === inst) {
      this.leading.delete(inst.component);
      this.note(inst, `${inst.participant}: leaderelection lost — the process exits and restarts as a candidate`);
      this.work[inst.component].pause('');
    }
    this.instances.splice(this.instances.indexOf(inst), 1);
    this.startCandidate(inst.node, inst.component);
  }
}
