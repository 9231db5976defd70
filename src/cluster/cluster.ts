/**
 * The simulated cluster: one kube-apiserver with its etcd, kube-controller-manager's
 * controllers, kube-scheduler, and a kubelet per node — all on one simulated clock and one
 * seeded RNG, so a run is reproducible from (options, actions).
 *
 * This facade is what the Web Worker, the headless scenario runner and the tests drive.
 * Components are wired exactly as in a real cluster: they only watch and write the
 * apiserver; none calls another.
 */
import {
  KubernetesServiceController,
  SystemNamespacesController,
  kubernetesEndpoints,
  kubernetesEndpointSlice,
  kubernetesService,
} from './controlplane/bootstrap-controller';
import { SimClock, DEFAULT_START_MS, type Deadline } from './sim/clock';
import { Rng } from './sim/rng';
import { RelayRecorder } from './relay/recorder';
import type { RelayHop } from './relay/relay-event';
import { APIServer } from './apiserver/apiserver';
import { apiserverStorage } from './apiserver/internal';
import { STRATEGIES } from './apiserver/registry';
import { installCRDSupport } from './apiserver/crd';
import { installStorageObjectInUseProtection } from './apiserver/storage-protection';
import { installResourceQuotaAdmission } from './quota/admission';
import { createBootstrapPolicy, installAuthorization } from './controlplane/rbac-bootstrap';
import { impersonateUser, type ImpersonationRequest } from './apiserver/auth/impersonation';
import { MACHINE_CRD, MACHINE_GROUP, MachineController, machineFor } from './machines';
import { KubeProxy } from './proxy/kube-proxy';
import { RulesetCache } from './proxy/ruleset-cache';
import { ClusterDNS } from './dns/resolver';
import { dnsBootstrapObjects } from './dns/coredns';
import type { StoreEvent } from './storage/mvcc';
import { deepCopy, type KObject } from './api/types';
import { isNodeHeartbeatOnly } from './api/heartbeat';
import { NodeHeartbeats } from './sim/heartbeats';
import { NODE_LEASE_NAMESPACE } from './kubelet/lease';
import { users, type Client } from './client/clientset';
import { ComponentContext } from './component-context';
import { KUBERNETES_DEFAULTS, type Timings } from './timings';
import { ImageRegistry } from './sim/image-registry';
import { Kubelet, type NodeConfig } from './kubelet/kubelet';
import { KubeScheduler } from './scheduler/scheduler';
import { ControllerManager } from './controllers/controller-manager';
import { ControlPlane } from './control-plane';
import { MetricsServer } from './metrics/metrics-server';
import { LoadControl } from './traffic/load';
import { ingressNginxBootstrapObjects } from './controllers/ingress-nginx';
import { TrafficGenerator } from './traffic/traffic';
import { nslookup } from './traffic/nslookup';
import type { DnsLookupResult, TrafficRequest, TrafficResult } from './userland/traffic-types';
import { podExecVia } from './traffic/pod-exec';
import type { ExecEnv } from './kubectl/cmd/exec';
import type { KubectlEnv } from './kubectl/command';
import { applyManifest, type ApplyOptions, type ApplyResult } from './kubectl/apply';
import { runKubectl, type KubectlResult } from './kubectl/command';
import type { GetWatchSession, WatchEnv } from './kubectl/cmd/get-watch';
import { StandaloneContainers } from './docker/standalone';
import { runDocker } from './docker/cli';
import { UserControllers } from './user-controller/manager';
import type { SandboxFactory, UserControllerSpec, UserControllerStatus } from './user-controller/types';

export type { ApplyResult, ApplyOptions, NodeConfig, RelayHop, Deadline, Timings, KubectlResult };

/** Options of {@link Cluster}; everything optional (docs/scenario-format.md#cluster). */
export interface ClusterOptions {
  /** RNG seed (default 1). */
  seed?: number;
  /** A count of worker nodes (node-1..node-N, plus a control-plane node), or the full list. Default 3. */
  nodes?: number | NodeConfig[];
  /** Simulated registry: references that fail to pull. */
  images?: { missing?: string[] };
  /** Override timings (default: Kubernetes v1.33's). */
  timings?: Partial<Timings>;
  /** Simulated start, ms since the epoch (default 2026-01-01T00:00:00Z). */
  startMs?: number;
  /** Relay ring-buffer capacity (hops). */
  relayCapacity?: number;
  /** Run kube-proxy on every node (default true; large benchmarks may turn it off). */
  kubeProxy?: boolean;
  /** Deploy CoreDNS in kube-system at boot (default true). */
  coreDNS?: boolean;
  /**
   * Where the learner's controllers run (user-controller/types.ts): node's vm headless
   * (src/cli/controller-vm.ts), a Web Worker in the browser. Without it, starting one fails.
   */
  controllerSandbox?: SandboxFactory;
  /**
   * The control plane: `replicas` control-plane nodes (default 1; 3 for an HA control plane:
   * control-plane, control-plane2, control-plane3, kind's names), each running its own
   * kube-apiserver, kube-controller-manager and kube-scheduler; the last two elect a leader
   * (control-plane.ts). Applies to the default node list; a full `nodes` list marks its
   * control-plane nodes with `controlPlane: true`.
   */
  controlPlane?: { replicas?: number };
  /**
   * kube-apiserver's `--authorization-mode`: `Node,RBAC` (default: the Node authorizer and
   * RBAC with the v1.33 bootstrap policy, auth/) or `AlwaysAllow` (every request allowed).
   */
  authorizationMode?: 'Node,RBAC' | 'AlwaysAllow';
  /**
   * Lazy node heartbeats (docs/time-model.md#lazy-node-heartbeats): idle kubelets' Lease
   * renewals computed rather than written while only kube-controller-manager watches Leases, and
   * the node-lifecycle monitor skipping nodes it has nothing to do for. Default: on from
   * {@link LAZY_HEARTBEAT_NODES} nodes.
   */
  lazyHeartbeats?: boolean;
}

/** From this many nodes (control-plane nodes included) the lazy node heartbeats are on by default. */
export const LAZY_HEARTBEAT_NODES = 1000;

const LEASES = 'leases.coordination.k8s.io';

/** How long before time zero the cluster boots (simulated ms). */
export const BOOT_MS = 30_000;

/** Default worker capacity: 4 CPU, 8 GiB, 110 pods. */
export const DEFAULT_WORKER_CAPACITY = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' };

/** The name of the `i`-th control-plane node (1-based), kind's style: control-plane, control-plane2, … */
export function controlPlaneNodeName(i: number): string {
  return i === 1 ? 'control-plane' : `control-plane${i}`;
}

/** The default node list: `controlPlanes` tainted control-plane nodes (default 1) and `workers` workers. */
export function defaultNodes(workers = 3, controlPlanes = 1): NodeConfig[] {
  const nodes: NodeConfig[] = [];
  for (let i = 1; i <= controlPlanes; i++) {
    nodes.push({
      name: controlPlaneNodeName(i),
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      capacity: { cpu: '2', memory: '4Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      controlPlane: true,
    });
  }
  for (let i = 1; i <= workers; i++) nodes.push({ name: `node-${i}`, capacity: { ...DEFAULT_WORKER_CAPACITY } });
  return nodes;
}

/** A change to a stored object, as the UI's watch stream carries it. */
export interface ObjectChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** group-qualified resource, e.g. "pods", "deployments.apps" */
  resource: string;
  object: KObject;
  /** true for Lease renewals and node heartbeats */
  heartbeat: boolean;
}

export class Cluster {
  readonly clock: SimClock;
  readonly rng: Rng;
  readonly relay: RelayRecorder;
  readonly api: APIServer;
  readonly images: ImageRegistry;
  readonly timings: Timings;
  readonly ctx: ComponentContext;
  readonly kubelets = new Map<string, Kubelet>();
  /** kube-proxy per node (iptables mode). */
  readonly kubeProxies = new Map<string, KubeProxy>();
  /** kube-proxy sync results shared by nodes that see the same Services and endpoints */
  private readonly rulesetCache = new RulesetCache();
  /** Cluster DNS (what CoreDNS answers), for lookups from the UI and tests. */
  readonly dns: ClusterDNS;
  readonly scheduler: KubeScheduler;
  readonly controllerManager: ControllerManager;
  /** The simulated metrics-server (metrics.k8s.io): Pod usage from per-workload load settings. */
  readonly metrics: MetricsServer;
  /** Per-workload CPU load settings (traffic/load.ts), fed to metrics-server. */
  readonly loads: LoadControl;
  /** The traffic generator (traffic/traffic.ts): requests routed by DNS, kube-proxy rules and ingress-nginx. */
  readonly traffic: TrafficGenerator;
  /** The simulated hypervisor: powers machines (nodes) off and on from Machine objects. */
  readonly machines: MachineController;
  /** The control-plane instances per control-plane node and their leader election (control-plane.ts). */
  readonly controlPlane: ControlPlane;
  /** Containers started the `docker run` way on a machine, outside Kubernetes (docker/standalone.ts). */
  readonly docker: StandaloneContainers;
  /** The kubectl user's client (what the editor's Apply and the kubectl bar use). */
  readonly kubectlClient: Client;
  /** The learner's controllers (user-controller/manager.ts). */
  readonly userControllers: UserControllers;
  private lastChangeAt: number;
  private changeListeners: ((c: ObjectChange) => void)[] = [];

  constructor(readonly options: ClusterOptions = {}) {
    this.timings = { ...KUBERNETES_DEFAULTS, ...options.timings };
    // The cluster boots BOOT_MS before the scenario's time zero, so that at 00:00:00 the
    // nodes are registered and every controller has synced (as on a cluster that exists).
    this.clock = new SimClock((options.startMs ?? DEFAULT_START_MS) - BOOT_MS);
    this.rng = new Rng(options.seed ?? 1);
    this.relay = new RelayRecorder(() => this.clock.now(), options.relayCapacity);
    this.images = new ImageRegistry(options.images?.missing ?? []);
    this.api = new APIServer(this.clock, this.rng, this.relay, STRATEGIES, { watchLatencyMs: this.timings.watchLatencyMs });
    installCRDSupport(this.api);
    installStorageObjectInUseProtection(this.api);
    installResourceQuotaAdmission(this.api);
    if (options.authorizationMode !== 'AlwaysAllow') installAuthorization(this.api);
    this.ctx = new ComponentContext(this.api, this.clock, this.rng, this.relay, this.timings, this.images);
    const nodeCount =
      typeof options.nodes === 'object' ? options.nodes.length : (options.nodes ?? 3) + (options.controlPlane?.replicas ?? 1);
    this.installHeartbeats(options.lazyHeartbeats ?? nodeCount >= LAZY_HEARTBEAT_NODES);
    this.kubectlClient = this.ctx.client(users.kubectl());
    this.lastChangeAt = this.clock.now();
    this.api.store.listen((ev) => this.onStoreEvent(ev));

    this.bootstrap();
    this.docker = new StandaloneContainers({
      now: () => this.clock.now(),
      rng: this.rng,
      relay: this.relay,
      images: this.images,
      powered: (n) => this.kubelets.get(n)?.powered,
    });
    this.machines = new MachineController(this.ctx, this.kubelets, this.kubeProxies, (n, on) => {
      this.docker.machinePowered(n, on);
      this.controlPlane.machinePowered(n, on);
    });
    this.metrics = new MetricsServer(this.ctx);
    this.loads = new LoadControl(this.metrics);
    this.controllerManager = new ControllerManager(this.ctx, { metrics: this.metrics });
    const nodes = typeof options.nodes === 'object' ? options.nodes : defaultNodes(options.nodes ?? 3, options.controlPlane?.replicas ?? 1);
    // kube-scheduler's hostname (its Events' reportingInstance): the first control-plane node
    this.scheduler = new KubeScheduler(this.ctx, nodes.find((n) => n.controlPlane)?.name ?? 'control-plane');
    for (const n of nodes) this.startKubelet(n);
    this.reconcileAPIServerEndpoints(nodes);
    this.machines.start();
    this.metrics.start();
    // kube-controller-manager and kube-scheduler start when their instance becomes leader (at
    // once with one candidate); a node list without a control-plane node runs them off-node
    const cpNodes = nodes.filter((n) => n.controlPlane).map((n) => n.name);
    this.controlPlane = new ControlPlane(this.ctx, this.api, cpNodes.length ? cpNodes : ['control-plane'], {
      'kube-controller-manager': this.controllerManager,
      'kube-scheduler': this.scheduler,
    });
    this.controlPlane.start();
    this.dns = new ClusterDNS(this.ctx);
    this.dns.start();
    this.userControllers = new UserControllers(this.ctx, options.controllerSandbox);
    this.traffic = new TrafficGenerator({
      ctx: this.ctx,
      objects: this.api,
      dns: this.dns,
      kubelets: this.kubelets,
      kubeProxies: this.kubeProxies,
      ingress: this.controllerManager.ingressNginx,
      authenticateToken: (token) => this.api.authenticateToken(token),
    });
    // let the kubelets register and the controllers sync before anyone applies anything
    this.clock.runUntil(options.startMs ?? DEFAULT_START_MS);
    this.lastChangeAt = this.clock.now();
    // The relay starts at time zero: the boot is not part of anyone's story. (Sequence numbers
    // keep counting, so a cause that points into the boot simply is not in the buffer.)
    this.relay.clear();
  }

  /** System objects kube-apiserver creates at start-up (namespaces, the `kubernetes` Service). */
  private bootstrap(): void {
    const sys = this.ctx.client(users.system('kube-apiserver'));
    const ns = sys.resource('', 'namespaces');
    for (const name of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) {
      ns.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } });
    }
    if (this.api.authorizer) createBootstrapPolicy(this.api, this.options.seed ?? 1);
    sys.resource('', 'services').create('default', kubernetesService());
    sys.resource('apiextensions.k8s.io', 'customresourcedefinitions').create('', MACHINE_CRD);
    // kind's default StorageClass (local-path-provisioner under the name `standard`)
    sys.resource('storage.k8s.io', 'storageclasses').create('', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    // ingress-nginx's IngressClass (controllers/ingress-nginx.ts), the default class
    this.installIngressClass(sys);
    if (this.options.coreDNS !== false) {
      for (const o of dnsBootstrapObjects()) {
        const info = this.api.registry.forKind(o.apiVersion, o.kind);
        if (!info) throw new Error(`bootstrap: no resource for ${o.apiVersion} ${o.kind}`);
        sys.resource(info.group, info.resource).create(o.metadata.namespace ?? '', o);
      }
    }
  }

  /**
   * Creates ingress-nginx's IngressClass `nginx` without moving the seeded RNG (it was added
   * after the RNG sequence of every existing scenario was fixed): its uid comes from an RNG of
   * its own, and the shared RNG is put back after the create.
   */
  private installIngressClass(sys: Client): void {
    const rng = this.rng as unknown as { a: number; b: number; c: number; d: number };
    const saved = { ...rng };
    for (const o of ingressNginxBootstrapObjects()) {
      sys.resource('networking.k8s.io', 'ingressclasses').create('', o);
      const stored = this.api.store.get('ingressclasses.networking.k8s.io', o.metadata.name);
      if (stored) stored.obj.metadata.uid = new Rng(((this.options.seed ?? 1) ^ 0x1a9e55) >>> 0).uuid();
    }
    Object.assign(rng, saved);
  }

  /**
   * The `kubernetes` Service's endpoints: the apiserver's own address (the control-plane
   * node's InternalIP) on 6443, as the apiserver's endpoint reconciler writes them
   * (pkg/controlplane/reconcilers, EndpointsAdapter: an Endpoints and an EndpointSlice
   * both named `kubernetes`).
   */
  private reconcileAPIServerEndpoints(nodes: NodeConfig[]): void {
    const cp = nodes.find((n) => n.controlPlane) ?? nodes[0];
    const idx = cp ? nodes.indexOf(cp) : 0;
    const ip = `172.18.0.${idx + 2}`;
    const sys = this.ctx.client(users.system('kube-apiserver'));
    sys.resource('', 'endpoints').create('default', kubernetesEndpoints(ip));
    sys.resource('discovery.k8s.io', 'endpointslices').create('default', kubernetesEndpointSlice(ip));
    // …and keeps all three (a deleted one is back at the next EndpointInterval tick)
    new KubernetesServiceController(this.ctx, apiserverStorage(this.api), ip).start();
    new SystemNamespacesController(this.ctx, apiserverStorage(this.api)).start();
  }

  private startKubelet(cfg: NodeConfig): Kubelet {
    this.ctx
      .client(users.system('kube-relay'))
      .resource(MACHINE_GROUP, 'machines')
      .create('', machineFor(cfg.name), { summary: `Machine ${cfg.name}: power On` });
    const k = new Kubelet(this.ctx, cfg);
    this.kubelets.set(cfg.name, k);
    k.start();
    if (this.options.kubeProxy !== false) {
      const kp = new KubeProxy(this.ctx, cfg.name, { rulesetCache: this.rulesetCache });
      this.kubeProxies.set(cfg.name, kp);
      kp.start();
    }
    return k;
  }

  /**
   * The lazy node heartbeats (sim/heartbeats.ts): a read of a node Lease first writes it up to
   * its kubelet's latest renewal, a read of a Node its latest skipped status report; a Lease or
   * Node watch of anyone but kube-controller-manager and kube-scheduler (whose handlers do nothing
   * on a heartbeat; the node-lifecycle controller computes the renewals itself) disengages the
   * lazy path while open.
   */
  private installHeartbeats(enabled: boolean): void {
    const hb = new NodeHeartbeats(enabled, () => this.clock.now());
    this.ctx.heartbeats = hb;
    if (!enabled) return;
    this.api.store.readHooks.set(LEASES, (key) => {
      if (key === undefined) hb.materialize();
      else if (key.startsWith(`${NODE_LEASE_NAMESPACE}/`)) hb.materialize(key.slice(NODE_LEASE_NAMESPACE.length + 1));
    });
    this.api.store.readHooks.set('nodes', (key) => hb.materializePosts(key));
    const controlPlane = new Set([users.controllerManager().name, users.scheduler().name]);
    this.api.watchHook = (user, resource) =>
      (resource === LEASES || resource === 'nodes') && !controlPlane.has(user.name) ? hb.addObserver() : undefined;
  }

  private onStoreEvent(ev: StoreEvent): void {
    if (ev.resource === 'nodes' && this.ctx.heartbeats.enabled) this.kubelets.get(ev.obj.metadata.name)?.wakeStatusSync();
    const heartbeat = isHeartbeat(ev);
    if (!heartbeat) this.lastChangeAt = this.clock.now();
    if (this.changeListeners.length) {
      const c: ObjectChange = { type: ev.type, resource: ev.resource, object: ev.obj, heartbeat };
      for (const l of this.changeListeners) l(c);
    }
  }

  /**
   * Subscribes to every stored-object change (the UI's watch stream). Returns the unsubscribe.
   * With `heartbeats: false` the listener gets no heartbeat change (Lease renewals, status
   * reports) and the lazy node heartbeats stay on; otherwise they are off while it listens.
   */
  onChange(l: (c: ObjectChange) => void, opts: { heartbeats?: boolean } = {}): () => void {
    const listener = opts.heartbeats === false ? (c: ObjectChange) => void (c.heartbeat || l(c)) : l;
    this.changeListeners.push(listener);
    // the full stream carries every Lease renewal: the lazy heartbeats stay off while it is open
    const release = opts.heartbeats === false ? () => {} : this.ctx.heartbeats.addObserver();
    return () => {
      release();
      this.changeListeners = this.changeListeners.filter((x) => x !== listener);
    };
  }

  // ---- actions -----------------------------------------------------------------------

  /** `kubectl apply -f` of a (multi-document) manifest, as the kubectl user. */
  apply(text: string, opts: ApplyOptions & { as?: ImpersonationRequest } = {}): ApplyResult[] {
    const { as, ...rest } = opts;
    return applyManifest(as ? this.clientAs(as) : this.kubectlClient, text, rest);
  }

  /**
   * The kubectl client acting as another user (kubectl's --as / --as-group), the
   * impersonation authorized as kube-apiserver does (auth/impersonation.ts).
   * @throws StatusError 403 when the admin may not impersonate (never, with cluster-admin).
   */
  clientAs(as: ImpersonationRequest): Client {
    return this.ctx.client(impersonateUser(this.api.authorizer, this.kubectlClient.user, as));
  }

  /**
   * Runs one kubectl command line as the kubectl user (the kubectl bar, the scenario `kubectl` step); `stdin` feeds `apply -f -`.
   * With `onWatch`, `get -w` hands its live session (kubectl/cmd/get-watch.ts) to it; without, `-w` prints once.
   * `opts.as` is the kubeconfig's impersonation (the UI's "Acting as", KubectlEnv.as): a line's own `--as` overrides it.
   */
  kubectl(
    line: string,
    stdin?: string,
    onWatch?: (session: GetWatchSession) => void,
    opts: { as?: ImpersonationRequest } = {},
  ): KubectlResult {
    // kubectl exec (kubectl/cmd/exec.ts): the kubelets' containers and the data plane
    const env: KubectlEnv & ExecEnv & WatchEnv = {
      watch: onWatch && { now: () => this.clock.now(), open: onWatch },
      kubelets: this.kubelets,
      metrics: (this as { metrics?: unknown }).metrics,
      stdin,
      podExec: podExecVia(this.kubelets, () => this.clock.now()),
      nslookup: (name, ns, from) => nslookup(this.dns, name, ns, from),
      sendRequests: (req) => this.traffic.send(req),
      ...(opts.as ? { as: opts.as } : {}),
    };
    return runKubectl(this.kubectlClient, line, this.clock.now(), env);
  }

  /** `nslookup NAME` from a Pod of `fromNamespace` through cluster DNS (traffic/nslookup.ts). */
  dnsLookup(name: string, fromNamespace: string): DnsLookupResult {
    return nslookup(this.dns, name, fromNamespace || 'default');
  }

  /** Sends a batch of HTTP requests (traffic/traffic.ts); draws from the seeded RNG. */
  sendRequests(request: TrafficRequest): TrafficResult[] {
    return this.traffic.send(request);
  }

  /** Advances simulated time by `ms`, running whatever falls due. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /** Fires the next pending timer (the UI's "step"). False when nothing is pending. */
  step(): boolean {
    return this.clock.step();
  }

  /**
   * True when a `settle` ending at `endMs` (simulated ms since the epoch) would stop now:
   * quiet for `quietMs` with no known deadline before `endMs`, or `endMs` reached. For
   * settles played on the wall clock (the UI's tours), which cannot jump time.
   */
  settledBy(endMs: number, quietMs = 30_000): boolean {
    const now = this.clock.now();
    if (now >= endMs) return true;
    const dl = this.clock.nextDeadlineAt();
    return now >= this.lastChangeAt + quietMs && !(dl !== undefined && dl <= endMs);
  }

  /**
   * Advances until quiet (docs/time-model.md#settle): no object other than Leases and node
   * heartbeats changed for `quietMs`, and no known deadline falls before the limit.
   * @returns true when the quiet came, false when the limit ended it.
   */
  settle(limitMs: number, quietMs = 30_000): boolean {
    const end = this.clock.now() + limitMs;
    for (;;) {
      // a held clock (a user controller's reconcile awaited in its sandbox) cannot move: not settled
      if (this.clock.held) return false;
      const now = this.clock.now();
      const quietAt = this.lastChangeAt + quietMs;
      const dl = this.clock.nextDeadlineAt();
      const blocked = dl !== undefined && dl <= end;
      if (now >= quietAt && !blocked) return true;
      if (now >= end) return false;
      let target = Math.min(end, this.clock.nextAt() ?? Infinity);
      if (now < quietAt) target = Math.min(target, quietAt);
      this.clock.runUntil(Math.max(target, now));
    }
  }

  /**
   * Powers a node's machine off (`spec.power: Off` on its Machine, as the kubectl user): the
   * machine controller stops the kubelet — heartbeats stop, containers are gone. The node
   * lifecycle controller notices the silence and sets a known deadline for the moment the
   * grace period runs out (for `settle` and the UI's countdown).
   * @throws Error when the node does not exist.
   */
  killNode(name: string): void {
    this.setPower(name, 'Off');
  }

  /** Powers a node's machine back on: the kubelet starts fresh and re-syncs its Pods. */
  restoreNode(name: string): void {
    this.setPower(name, 'On');
  }

  private setPower(name: string, power: 'On' | 'Off'): void {
    this.kubelet(name);
    const rc = this.kubectlClient.resource(MACHINE_GROUP, 'machines');
    const m = deepCopy(rc.get('', name, { quiet: true }));
    m.spec = { ...m.spec, power };
    rc.update(m, { summary: `power ${power === 'Off' ? 'off' : 'on'} machine ${name} (spec.power=${power})` });
  }

  /** Adds a node at run time: a new kubelet registers it. Throws when the name exists. */
  addNode(cfg: NodeConfig): void {
    if (this.kubelets.has(cfg.name)) throw new Error(`node "${cfg.name}" already exists`);
    this.startKubelet({ ...cfg, capacity: { ...DEFAULT_WORKER_CAPACITY, ...cfg.capacity } });
  }

  /**
   * Removes a node for good, as an operator decommissions one: its machine is powered off,
   * the Node object is deleted (`kubectl delete node`), and its kubelet and kube-proxy are
   * gone. Pods still bound to it are force-deleted by the pod garbage collector after its
   * 40 s quarantine; their controllers replace them elsewhere. Throws when the node does not
   * exist.
   */
  removeNode(name: string): void {
    const k = this.kubelet(name);
    if (k.powered) this.setPower(name, 'Off');
    this.kubectlClient.resource('', 'nodes').delete('', name, { summary: `delete Node ${name} (decommission)` });
    this.kubectlClient.resource(MACHINE_GROUP, 'machines').delete('', name, { summary: `delete Machine ${name}` });
    k.powerOff();
    this.kubeProxies.get(name)?.powerOff();
    this.docker.machineRemoved(name);
    this.kubelets.delete(name);
    this.kubeProxies.delete(name);
  }

  /**
   * A `docker …` command line against a machine's own engine (docker/cli.ts), e.g.
   * `docker -H ssh://node-1 run -d --restart=always --name web nginx`: stdout, stderr, exit code.
   */
  dockerCommand(line: string): KubectlResult {
    return runDocker(this.docker, line, this.clock.now());
  }

  /**
   * Starts a learner's controller (again after an edit: the old one stops first); see
   * docs/user-controllers.md. Throws Error when it cannot start (no sandbox, no `for` kind,
   * an unknown kind).
   */
  startController(spec: UserControllerSpec): UserControllerStatus {
    return this.userControllers.start(spec);
  }

  /** Stops a learner's controller (harmless when none runs under that name). */
  stopController(name: string): void {
    this.userControllers.stop(name);
  }

  /**
   * `kubectl delete pod` (graceful), as the kubectl user or (`opts.as`) the identity it impersonates.
   * Throws StatusError 404, or 403 when that identity may not delete the Pod.
   */
  deletePod(namespace: string, name: string, opts: { as?: ImpersonationRequest } = {}): void {
    (opts.as ? this.clientAs(opts.as) : this.kubectlClient).resource('', 'pods').delete(namespace, name);
  }

  /** The kubelet of a node. Throws when there is none. */
  kubelet(name: string): Kubelet {
    const k = this.kubelets.get(name);
    if (!k) throw new Error(`node "${name}" not found`);
    return k;
  }

  // ---- reading ------------------------------------------------------------------------

  /** Every stored object except Events, sorted by apiVersion, kind, namespace, name. */
  objects(): KObject[] {
    const out: KObject[] = [];
    for (const r of this.api.store.resources()) {
      if (r === 'events' || r === 'events.events.k8s.io') continue;
      for (const e of this.api.store.list(r)) out.push(e.obj);
    }
    return out.sort(compareObjects);
  }

  /** core/v1 Events in creation order. */
  events(): KObject[] {
    return this.api.store
      .list('events')
      .sort((a, b) => a.createRev - b.createRev)
      .map((e) => e.obj);
  }

  /** Stored objects of one resource ("pods", "deployments.apps"), optionally in a namespace. */
  list(resource: string, namespace?: string): KObject[] {
    return this.api.store.list(resource, namespace).map((e) => e.obj);
  }

  /** One stored object, or undefined. */
  get(resource: string, namespace: string, name: string): KObject | undefined {
    return this.api.store.get(resource, namespace ? `${namespace}/${name}` : name)?.obj;
  }

  /** Pending deadlines (countdowns for the UI). */
  deadlines(): Deadline[] {
    return this.clock.deadlines();
  }

  /** Simulated now, ms since the epoch. */
  now(): number {
    return this.clock.now();
  }
}

/** Sort order of snapshots: apiVersion, kind, namespace, name. */
export function compareObjects(a: KObject, b: KObject): number {
  const ka = [a.apiVersion, a.kind, a.metadata.namespace ?? '', a.metadata.name ?? ''];
  const kb = [b.apiVersion, b.kind, b.metadata.namespace ?? '', b.metadata.name ?? ''];
  for (let i = 0; i < 4; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

/** Lease renewals and node status updates that only refresh heartbeat times. */
export function isHeartbeat(ev: StoreEvent): boolean {
  if (ev.resource === 'leases.coordination.k8s.io') return true;
  if (ev.resource !== 'nodes' || ev.type !== 'MODIFIED' || !ev.prev) return false;
  return isNodeHeartbeatOnly(ev.obj, ev.prev);
}
