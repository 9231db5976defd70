/**
 * kube-controller-manager: one process hosting the controllers, sharing one set of informers
 * (cmd/kube-controller-manager/app/controllermanager.go: CreateControllerContext builds one
 * SharedInformerFactory; each NewXController registers handlers on it; the factory starts
 * after every controller was constructed).
 *
 * Controllers hosted: deployment, replicaset, replication (ReplicationControllers), garbage collector, namespace, endpointslice, node
 * lifecycle, taint eviction, serviceaccount and the others below. Each is constructed with `(ctx, informers)` and registers its handlers in its
 * constructor.
 *
 * pause/resume (a paused component misses what happens meanwhile): pause stops the informers' watches and holds
 * every work queue, so the controllers miss what happens meanwhile; resume relists (the
 * reflector's relist emits adds, updates and deletes for everything that changed), releases
 * the queues and resyncs every controller — level-triggered loops catch up on what they
 * missed (the seed's §1).
 */
import type { ComponentContext } from '../component-context';
import { SharedInformerFactory, type Categorizer } from '../client/informer';
import { users } from '../client/clientset';
import { isNodeHeartbeatOnly } from '../api/heartbeat';
import { DeploymentController } from './deployment';
import { ReplicaSetController } from './replicaset';
import { ReplicationManager } from './replication';
import { GarbageCollector } from './garbagecollector';
import { NamespaceController } from './namespace';
import { EndpointSliceController } from './endpointslice';
import { NodeLifecycleController } from './nodelifecycle';
import { TaintEvictionController } from './tainteviction';
import { PodGCController } from './podgc';
import { ServiceLoadBalancerController } from './service-lb';
import { IngressNginxController } from './ingress-nginx';
import { ClusterRoleAggregationController } from './clusterrole-aggregation';
import { EndpointsController } from './endpoints';
import { JobController } from './job';
import { TTLAfterFinishedController } from './ttlafterfinished';
import { RootCACertPublisher } from './root-ca-cert-publisher';
import { ServiceAccountsController } from './serviceaccount';
import { ResourceQuotaController } from './resourcequota';
import { DaemonSetsController } from './daemonset';
import { StatefulSetController } from './statefulset';
import { PersistentVolumeController } from './persistentvolume';
import { PVCProtectionController, PVProtectionController } from './volume-protection';
import { ExternalProvisioners } from './external-provisioner';
import { CronJobController } from './cronjob';
import { HorizontalController } from './podautoscaler';
import { DisruptionController } from './disruption';
import type { ResourceMetricsAPI } from '../metrics/metrics-server';

/** Relay participant of the process itself (pause/resume notes). */
export const ControllerManagerName = 'kube-controller-manager';

/** What the manager may call on a hosted controller; every member is optional. */
interface HostedController {
  run?(): void;
  pause?(): void;
  resume?(): void;
  resync?(): void;
}

/** Lease renewals and node heartbeats are `heartbeat` hops; Events are `event` hops. */
export const categorizeWatch: Categorizer = (ev) => {
  const kind = ev.object.kind;
  if (kind === 'Lease') return 'heartbeat';
  if (kind === 'Event') return 'event';
  if (kind === 'Node' && ev.type === 'MODIFIED' && ev.oldObject && isNodeHeartbeatOnly(ev.object, ev.oldObject)) return 'heartbeat';
  return undefined;
};

export class ControllerManager {
  readonly informers: SharedInformerFactory;
  readonly deployment: DeploymentController;
  readonly replicaSet: ReplicaSetController;
  /** The ReplicationController manager: the ReplicaSet controller over conversion adapters (replication.ts). */
  readonly replication: ReplicationManager;
  readonly garbageCollector: GarbageCollector;
  readonly namespace: NamespaceController;
  readonly endpointSlice: EndpointSliceController;
  readonly nodeLifecycle: NodeLifecycleController;
  readonly taintEviction: TaintEvictionController;
  readonly podGC: PodGCController;
  readonly serviceLB: ServiceLoadBalancerController;
  readonly endpoints: EndpointsController;
  readonly job: JobController;
  readonly ttlAfterFinished: TTLAfterFinishedController;
  readonly cronJob: CronJobController;
  readonly horizontalPodAutoscaler: HorizontalController;
  readonly disruption: DisruptionController;
  readonly daemonSet: DaemonSetsController;
  readonly statefulSet: StatefulSetController;
  readonly persistentVolume: PersistentVolumeController;
  readonly pvcProtection: PVCProtectionController;
  readonly pvProtection: PVProtectionController;
  readonly rootCACertPublisher: RootCACertPublisher;
  readonly serviceAccount: ServiceAccountsController;
  readonly resourceQuota: ResourceQuotaController;
  /** Simulated external provisioners (kind's local-path-provisioner and any other); not a kube-controller-manager controller. */
  readonly provisioners: ExternalProvisioners;
  /** The simulated ingress-nginx controller (IngressClass `nginx`); not a kube-controller-manager controller. */
  readonly ingressNginx: IngressNginxController;
  readonly clusterRoleAggregation: ClusterRoleAggregationController;
  private started = false;
  private paused = false;

  /**
   * Builds the shared informer factory and every controller; nothing runs until {@link start}.
   * @param opts.metrics the resource metrics API (metrics-server) the HPA controller reads
   */
  constructor(
    private readonly ctx: ComponentContext,
    opts: { metrics?: ResourceMetricsAPI } = {},
  ) {
    this.informers = new SharedInformerFactory(ctx.client(users.controllerManager()), categorizeWatch);
    this.deployment = new DeploymentController(ctx, this.informers);
    this.replicaSet = new ReplicaSetController(ctx, this.informers);
    this.replication = new ReplicationManager(ctx, this.informers);
    this.garbageCollector = new GarbageCollector(ctx, this.informers);
    this.namespace = new NamespaceController(ctx, this.informers);
    this.endpointSlice = new EndpointSliceController(ctx, this.informers);
    this.nodeLifecycle = new NodeLifecycleController(ctx, this.informers);
    this.taintEviction = new TaintEvictionController(ctx, this.informers);
    this.podGC = new PodGCController(ctx, this.informers);
    this.serviceLB = new ServiceLoadBalancerController(ctx, this.informers);
    this.endpoints = new EndpointsController(ctx, this.informers);
    this.job = new JobController(ctx, this.informers);
    this.ttlAfterFinished = new TTLAfterFinishedController(ctx, this.informers);
    this.cronJob = new CronJobController(ctx, this.informers);
    this.horizontalPodAutoscaler = new HorizontalController(ctx, this.informers, opts.metrics);
    this.disruption = new DisruptionController(ctx, this.informers);
    this.daemonSet = new DaemonSetsController(ctx, this.informers);
    this.statefulSet = new StatefulSetController(ctx, this.informers);
    this.persistentVolume = new PersistentVolumeController(ctx, this.informers);
    this.pvcProtection = new PVCProtectionController(ctx, this.informers);
    this.pvProtection = new PVProtectionController(ctx, this.informers);
    this.rootCACertPublisher = new RootCACertPublisher(ctx, this.informers);
    this.serviceAccount = new ServiceAccountsController(ctx, this.informers);
    this.resourceQuota = new ResourceQuotaController(ctx, this.informers);
    this.provisioners = new ExternalProvisioners(ctx, this.informers);
    this.ingressNginx = new IngressNginxController(ctx, this.informers);
    this.clusterRoleAggregation = new ClusterRoleAggregationController(ctx, this.informers);
  }

  /** Every hosted controller, in construction order. */
  get controllers(): HostedController[] {
    return [
      this.deployment,
      this.replicaSet,
      this.replication,
      this.garbageCollector,
      this.namespace,
      this.endpointSlice,
      this.nodeLifecycle,
      this.taintEviction,
      this.job,
      this.ttlAfterFinished,
      this.cronJob,
      this.horizontalPodAutoscaler,
      this.disruption,
      this.daemonSet,
      this.statefulSet,
      this.podGC,
      this.serviceLB,
      this.endpoints,
      this.persistentVolume,
      this.pvcProtection,
      this.pvProtection,
      this.rootCACertPublisher,
      this.serviceAccount,
      this.resourceQuota,
      this.provisioners,
      this.ingressNginx,
      this.clusterRoleAggregation,
    ] as HostedController[];
  }

  /** Starts the informers (initial list + watch), then each controller's periodic work. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.informers.start();
    for (const c of this.controllers) c.run?.();
  }

  /** True while paused. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Stops processing: watches stopped, work queues held; `summary` is the relay note ('' for none). Idempotent. */
  pause(summary = 'kube-controller-manager paused: watches stopped, work queues held'): void {
    if (!this.started || this.paused) return;
    this.paused = true;
    for (const c of this.controllers) c.pause?.();
    this.informers.stop();
    this.note(summary);
  }

  /** Resumes: relist (catch-up events), queues released, every controller resynced. Idempotent. */
  resume(summary = 'kube-controller-manager resumed: relist and resync — level-triggered loops catch up'): void {
    if (!this.started || !this.paused) return;
    this.paused = false;
    this.note(summary);
    this.informers.restart();
    for (const c of this.controllers) c.resume?.();
    for (const c of this.controllers) c.resync?.();
  }

  private note(summary: string): void {
    if (!summary) return;
    this.ctx.relay.record({ from: ControllerManagerName, to: ControllerManagerName, kind: 'note', summary });
  }
}
