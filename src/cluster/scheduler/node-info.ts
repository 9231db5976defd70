/**
 * PodInfo and NodeInfo: what the scheduler knows about a pod (its requests, priority, host
 * ports) and a node (allocatable, requested and non-zero requested resources, pods, used
 * host ports, images).
 *
 * Mirrors pkg/scheduler/framework/types.go (PodInfo, NodeInfo, Resource, AddPod/RemovePod,
 * calculateResource), k8s.io/component-helpers/resource/helpers.go (PodRequests: sum of
 * containers, max with init containers, sidecars, overhead) and pkg/scheduler/util
 * (DefaultMilliCPURequest = 100m, DefaultMemoryRequest = 200 MiB).
 *
 * Units: cpu in millicores, memory and ephemeral-storage in bytes, pods as a count.
 */
import type { Node, Pod } from '../api/objects';
import type { Taint } from '../api/taints';
import { bytesOf, cpuMillis, quantityValue } from '../api/quantity';
import { matches, type Selector } from '../api/labels';
import { sharedObjectKey } from '../api/object-key';

/** schedutil.DefaultMilliCPURequest: 100m, used for scoring containers without a cpu request. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** schedutil.DefaultMemoryRequest: 200 MiB, used for scoring containers without a memory request. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** framework.Resource. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  allowedPodNumber: number;
  /** Extended resources (nvidia.com/gpu, hugepages-2Mi…) in base units. */
  scalar: Record<string, number>;
}

/** An empty Resource. */
export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: {} };
}

/** True for resources the scheduler tracks as scalars (extended, hugepages, attachable volumes). */
export function isScalarResourceName(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-');
}

/** framework.NewResource: a ResourceList (as in node.status.allocatable) → Resource. */
export function resourceFromList(rl: Record<string, string | number> | undefined): Resource {
  const r = emptyResource();
  addList(r, rl);
  return r;
}

function addList(r: Resource, rl: Record<string, string | number> | undefined): void {
  if (!rl) return;
  for (const [k, v] of Object.entries(rl)) {
    if (k === 'cpu') r.milliCPU += cpuMillis(v);
    else if (k === 'memory') r.memory += bytesOf(v);
    else if (k === 'pods') r.allowedPodNumber += quantityValue(v);
    else if (k === 'ephemeral-storage') r.ephemeralStorage += bytesOf(v);
    else if (isScalarResourceName(k)) r.scalar[k] = (r.scalar[k] ?? 0) + quantityValue(v);
  }
}

function addRes(a: Resource, b: Resource): void {
  a.milliCPU += b.milliCPU;
  a.memory += b.memory;
  a.ephemeralStorage += b.ephemeralStorage;
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = (a.scalar[k] ?? 0) + v;
}

function maxRes(a: Resource, b: Resource): void {
  a.milliCPU = Math.max(a.milliCPU, b.milliCPU);
  a.memory = Math.max(a.memory, b.memory);
  a.ephemeralStorage = Math.max(a.ephemeralStorage, b.ephemeralStorage);
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = Math.max(a.scalar[k] ?? 0, v);
}

function containerRequests(c: { resources?: { requests?: Record<string, string> } }, nonZero: boolean): Resource {
  const req = c.resources?.requests ?? {};
  const r = resourceFromList(req);
  if (nonZero) {
    if (!('cpu' in req)) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (!('memory' in req)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/**
 * resourcehelper.PodRequests: the sum of the containers' requests, maxed with each init
 * container (restartable "sidecar" init containers add to both), plus spec.overhead. With
 * `nonZero`, a container missing a cpu/memory request counts as 100m / 200Mi (scoring).
 */
export function podRequests(pod: Pod, nonZero = false): Resource {
  const spec = pod.spec ?? {};
  const reqs = emptyResource();
  for (const c of spec.containers ?? []) addRes(reqs, containerRequests(c, nonZero));
  const restartable = emptyResource();
  const initMax = emptyResource();
  for (const ic of spec.initContainers ?? []) {
    const cr = containerRequests(ic, nonZero);
    if (ic.restartPolicy === 'Always') {
      addRes(reqs, cr);
      addRes(restartable, cr);
      maxRes(initMax, restartable);
    } else {
      const tmp = emptyResource();
      addRes(tmp, cr);
      addRes(tmp, restartable);
      maxRes(initMax, tmp);
    }
  }
  maxRes(reqs, initMax);
  if (spec.overhead) addList(reqs, spec.overhead);
  return reqs;
}

/** A host port a pod uses (framework.HostPortInfo entry). */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** The host ports of a pod's containers (schedutil.GetHostPorts). */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

/**
 * framework.PodInfo: a pod plus what the scheduler derives from it once. `priority` is
 * spec.priority (set by the Priority admission plugin from the PriorityClass).
 */
export interface PodInfo {
  pod: Pod;
  /** "namespace/name". */
  key: string;
  uid: string;
  priority: number;
  requests: Resource;
  nonZeroRequests: Resource;
  hostPorts: HostPort[];
}

/** Distinct Resources {@link sharedResource} remembers before it starts over. */
const RESOURCE_POOL_LIMIT = 1024;
const resourcePool = new Map<string, Resource>();
/** The host ports of every Pod that has none (frozen: PodInfo's fields are read-only). */
const NO_HOST_PORTS: HostPort[] = Object.freeze([]) as unknown as HostPort[];

/**
 * One shared frozen Resource per distinct value: the Pods of one template request the same, and a
 * PodInfo's requests are only read (added to and subtracted from a NodeInfo's totals, compared
 * by the plugins). Memory only (200,000 Pending Pods each held two Resources and two `scalar`
 * objects); the pool holds at most {@link RESOURCE_POOL_LIMIT} values and starts over when full.
 */
export function sharedResource(r: Resource): Resource {
  let key = `${r.milliCPU}|${r.memory}|${r.ephemeralStorage}|${r.allowedPodNumber}`;
  for (const [k, v] of Object.entries(r.scalar)) key += `|${k}=${v}`;
  const hit = resourcePool.get(key);
  if (hit) return hit;
  if (resourcePool.size >= RESOURCE_POOL_LIMIT) resourcePool.clear();
  Object.freeze(r.scalar);
  resourcePool.set(key, Object.freeze(r));
  return r;
}

/**
 * Builds a PodInfo. `priority` overrides spec.priority (the scheduler's PriorityClass fallback).
 * Its `requests`, `nonZeroRequests` and `hostPorts` are frozen and may be shared with other
 * PodInfos ({@link sharedResource}).
 */
// The requests of a Pod with one container and no init containers or overhead depend on that
// container's `resources` alone: by that object, when frozen (the store's shared copy for every
// Pod of a ReplicaSet, storage/object-intern.ts), the shared Resource computed for the first.
const requestsByResources = new WeakMap<object, Resource>();
const nonZeroRequestsByResources = new WeakMap<object, Resource>();

/** sharedResource(podRequests(pod, nonZero)), memoized for the common one-container Pod. */
function sharedPodRequests(pod: Pod, nonZero: boolean): Resource {
  const spec = pod.spec;
  const res = spec?.containers?.length === 1 && !spec.initContainers?.length && !spec.overhead ? spec.containers[0].resources : undefined;
  if (!res || !Object.isFrozen(res)) return sharedResource(podRequests(pod, nonZero));
  const memo = nonZero ? nonZeroRequestsByResources : requestsByResources;
  let r = memo.get(res);
  if (!r) memo.set(res, (r = sharedResource(podRequests(pod, nonZero))));
  return r;
}

/** "namespace/name" ("/name" without a namespace), the Pod informers' string when it has one. */
export function podKey(pod: Pod): string {
  return pod.metadata.namespace ? sharedObjectKey(pod) : ['', pod.metadata.name].join('/');
}

/**
 * The scheduler's PodInfo of `pod`. `key`: its {@link podKey} when the caller has it (a copy of
 * an informer's Pod, e.g. the assumed Pod, keeps the original's string rather than registering one).
 */
export function newPodInfo(pod: Pod, priority?: number, key?: string): PodInfo {
  const hostPorts = podHostPorts(pod);
  return {
    pod,
    // the Pod informers' own key string (the queue's maps keep it)
    key: key ?? podKey(pod),
    uid: pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`,
    priority: priority ?? (typeof pod.spec?.priority === 'number' ? pod.spec.priority : 0),
    requests: sharedPodRequests(pod, false),
    nonZeroRequests: sharedPodRequests(pod, true),
    hostPorts: hostPorts.length ? hostPorts : NO_HOST_PORTS,
  };
}

/** Image info of a node (framework.ImageStateSummary without NumNodes, which the cache counts). */
export interface ImageState {
  size: number;
}

let generation = 0;

const HOSTNAME_LABEL = 'kubernetes.io/hostname';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

function ownLabel(labels: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return labels && Object.prototype.hasOwnProperty.call(labels, key) ? labels[key] : undefined;
}

/**
 * framework.NodeInfo: a node and the pods assigned to it (including assumed pods whose
 * binding is in flight). `generation` changes on every mutation.
 */
export class NodeInfo {
  node: Node | undefined;
  /**
   * The node's name ('' without a Node object), kept on the NodeInfo itself: the filters and
   * scorers read it for each of up to thousands of nodes a cycle, and a field is one load where
   * node.metadata.name is three (each a likely cache miss at 5,000 nodes).
   */
  name = '';
  /**
   * What the filters and scorers read of the Node, taken from it by {@link setNode} (they run
   * for each of up to thousands of nodes a cycle; here each is one load from the NodeInfo the
   * cycle already reads, where node.metadata.labels and node.spec are two or three): the
   * node's labels, spec.unschedulable and spec.taints.
   */
  labels: Readonly<Record<string, string>> | undefined = undefined;
  /** The values of the system default spreading's keys (kubernetes.io/hostname, topology.kubernetes.io/zone), undefined when unset. */
  private hostnameLabel: string | undefined = undefined;
  private zoneLabel: string | undefined = undefined;
  unschedulable = false;
  taints: Taint[] | undefined = undefined;
  pods = new Map<string, PodInfo>();
  /** pods.size, kept as a field for the same reason as {@link name} (NodeResourcesFit's "Too many pods"). */
  numPods = 0;
  /**
   * node.status.allocatable (framework.NodeInfo.Allocatable); its cpu, memory,
   * ephemeral-storage and pods are also kept in the flat fields below, which the filters and
   * scorers read.
   */
  allocatable = emptyResource();
  /**
   * The resource counters the filters and scorers read for every node they visit, as fields of
   * the NodeInfo itself rather than of Resource objects it points to (one object to reach per
   * node where there were four; at 5,000 nodes each is a likely cache miss): allocatable cpu
   * (millicores), memory and ephemeral-storage (bytes) and pod count, the sum of the pods'
   * requests (NodeInfo.Requested) and of their non-zero requests (NodeInfo.NonZeroRequested:
   * cpu and memory).
   */
  allocMilliCPU = 0;
  allocMemory = 0;
  allocEphemeralStorage = 0;
  allowedPodNumber = 0;
  reqMilliCPU = 0;
  reqMemory = 0;
  reqEphemeralStorage = 0;
  /** Requested extended resources (NodeInfo.Requested.ScalarResources), in base units. */
  reqScalar: Record<string, number> = {};
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  usedPorts: HostPort[] = [];
  images = new Map<string, ImageState>();
  /** images.size, kept as a field for the same reason as {@link name} (ImageLocality's Score). */
  numImages = 0;
  /**
   * imageSize's last answer, inline: the image name it was asked for (compared by identity
   * first, so callers pass interned names) and its size in bytes, −1 when the node has no such
   * image. setNode, which replaces {@link images}, clears it.
   */
  private lastImage: string | undefined = undefined;
  private lastImageSize = -1;
  /** Pods with pod affinity or anti-affinity (NodeInfo.PodsWithAffinity), by uid. */
  podsWithAffinity = new Map<string, PodInfo>();
  /** Pods with required anti-affinity (NodeInfo.PodsWithRequiredAntiAffinity), by uid. */
  podsWithRequiredAntiAffinity = new Map<string, PodInfo>();
  generation = ++generation;
  /**
   * countMatching's last answer, inline (no map to reach): the cache key it was computed for
   * (compared by identity first, so callers pass interned keys), and its count. A mutation
   * clears it.
   */
  private lastMatchKey: string | undefined = undefined;
  private lastMatchCount = 0;
  /** countMatching's other answers since the last mutation, by cache key (null until a second key is asked). */
  private matchCache: Map<string, number> | null = null;

  constructor(node?: Node) {
    if (node) this.setNode(node);
  }

  /**
   * The node's label `key`, undefined when the node has no such label (an own property: a
   * label named like an Object.prototype member is not inherited). The hostname and zone keys
   * PodTopologySpread reads for every scored node are answered from fields set by setNode.
   */
  label(key: string): string | undefined {
    if (key === HOSTNAME_LABEL) return this.hostnameLabel;
    if (key === ZONE_LABEL) return this.zoneLabel;
    return ownLabel(this.labels, key);
  }

  /** NodeInfo.RemoveNode: the node object is gone (its pods may still point here). */
  removeNode(): void {
    this.node = undefined;
    this.name = '';
    this.labels = undefined;
    this.hostnameLabel = undefined;
    this.zoneLabel = undefined;
    this.unschedulable = false;
    this.taints = undefined;
  }

  /** NodeInfo.SetNode: allocatable and image states from node.status. */
  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name;
    this.labels = node.metadata.labels;
    this.hostnameLabel = ownLabel(this.labels, HOSTNAME_LABEL);
    this.zoneLabel = ownLabel(this.labels, ZONE_LABEL);
    this.unschedulable = node.spec?.unschedulable === true;
    this.taints = node.spec?.taints?.length ? (node.spec.taints as Taint[]) : undefined;
    const alloc = resourceFromList(node.status?.allocatable);
    this.allocatable = alloc;
    this.allocMilliCPU = alloc.milliCPU;
    this.allocMemory = alloc.memory;
    this.allocEphemeralStorage = alloc.ephemeralStorage;
    this.allowedPodNumber = alloc.allowedPodNumber;
    this.images = new Map();
    for (const img of node.status?.images ?? []) {
      for (const n of img.names ?? []) this.images.set(normalizedImageName(n), { size: img.sizeBytes ?? 0 });
    }
    this.numImages = this.images.size;
    this.lastImage = undefined;
    this.touch();
  }

  /** NodeInfo.AddPodInfo. */
  addPod(pi: PodInfo): void {
    this.pods.set(pi.uid, pi);
    this.numPods = this.pods.size;
    const r = pi.requests;
    this.reqMilliCPU += r.milliCPU;
    this.reqMemory += r.memory;
    this.reqEphemeralStorage += r.ephemeralStorage;
    for (const k in r.scalar) this.reqScalar[k] = (this.reqScalar[k] ?? 0) + r.scalar[k];
    this.nonZeroMilliCPU += pi.nonZeroRequests.milliCPU;
    this.nonZeroMemory += pi.nonZeroRequests.memory;
    for (const hp of pi.hostPorts) this.usedPorts.push(hp);
    const aff = pi.pod.spec?.affinity;
    if (aff?.podAffinity || aff?.podAntiAffinity) this.podsWithAffinity.set(pi.uid, pi);
    if ((aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length)
      this.podsWithRequiredAntiAffinity.set(pi.uid, pi);
    this.touch();
  }

  /** NodeInfo.RemovePod. Returns false when the pod was not on this node. */
  removePod(uid: string): boolean {
    const pi = this.pods.get(uid);
    if (!pi) return false;
    this.pods.delete(uid);
    this.numPods = this.pods.size;
    this.podsWithAffinity.delete(uid);
    this.podsWithRequiredAntiAffinity.delete(uid);
    const r = pi.requests;
    this.reqMilliCPU -= r.milliCPU;
    this.reqMemory -= r.memory;
    this.reqEphemeralStorage -= r.ephemeralStorage;
    for (const k in r.scalar) this.reqScalar[k] = (this.reqScalar[k] ?? 0) - r.scalar[k];
    this.nonZeroMilliCPU -= pi.nonZeroRequests.milliCPU;
    this.nonZeroMemory -= pi.nonZeroRequests.memory;
    for (const hp of pi.hostPorts) {
      const i = this.usedPorts.findIndex((u) => u.ip === hp.ip && u.protocol === hp.protocol && u.port === hp.port);
      if (i >= 0) this.usedPorts.splice(i, 1);
    }
    this.touch();
    return true;
  }

  /** NodeInfo.Snapshot(): an independent copy (preemption's what-if). */
  clone(): NodeInfo {
    const c = new NodeInfo();
    c.node = this.node;
    c.name = this.name;
    c.labels = this.labels;
    c.hostnameLabel = this.hostnameLabel;
    c.zoneLabel = this.zoneLabel;
    c.unschedulable = this.unschedulable;
    c.taints = this.taints;
    c.pods = new Map(this.pods);
    c.numPods = this.numPods;
    c.allocatable = this.allocatable;
    c.allocMilliCPU = this.allocMilliCPU;
    c.allocMemory = this.allocMemory;
    c.allocEphemeralStorage = this.allocEphemeralStorage;
    c.allowedPodNumber = this.allowedPodNumber;
    c.reqMilliCPU = this.reqMilliCPU;
    c.reqMemory = this.reqMemory;
    c.reqEphemeralStorage = this.reqEphemeralStorage;
    c.reqScalar = { ...this.reqScalar };
    c.nonZeroMilliCPU = this.nonZeroMilliCPU;
    c.nonZeroMemory = this.nonZeroMemory;
    c.usedPorts = [...this.usedPorts];
    c.podsWithAffinity = new Map(this.podsWithAffinity);
    c.podsWithRequiredAntiAffinity = new Map(this.podsWithRequiredAntiAffinity);
    c.images = this.images;
    c.numImages = this.numImages;
    return c;
  }

  /**
   * The size in bytes of the image named `name` (normalized, imagelocality normalizedImageName)
   * on this node, undefined when the node has none (ImageStateSummary.Size). The last answer is
   * kept on the NodeInfo: ImageLocality asks every scored node for the same names, and a hit
   * reads no Map.
   */
  imageSize(name: string): number | undefined {
    if (this.lastImage !== name) {
      const st = this.images.get(name);
      this.lastImage = name;
      this.lastImageSize = st ? st.size : -1;
    }
    return this.lastImageSize < 0 ? undefined : this.lastImageSize;
  }

  /**
   * Number of non-terminating pods in `namespace` matching `selector`
   * (podtopologyspread countPodsMatchSelector), memoized per generation under `cacheKey`
   * (which must identify both the selector and the namespace; an interned key is compared by
   * identity, one load, where an equal copy is compared character by character).
   */
  countMatching(selector: Selector, namespace: string, cacheKey: string): number {
    const k = cacheKey;
    if (this.lastMatchKey === k) return this.lastMatchCount;
    const hit = this.matchCache?.get(k);
    if (hit !== undefined) return hit;
    let n = 0;
    for (const pi of this.pods.values()) {
      const p = pi.pod;
      if (p.metadata.deletionTimestamp || p.metadata.namespace !== namespace) continue;
      if (matches(selector, p.metadata.labels)) n++;
    }
    if (this.lastMatchKey !== undefined) (this.matchCache ??= new Map()).set(this.lastMatchKey, this.lastMatchCount);
    this.lastMatchKey = k;
    this.lastMatchCount = n;
    return n;
  }

  private touch(): void {
    this.generation = ++generation;
    this.lastMatchKey = undefined;
    this.matchCache = null;
  }
}

/** imagelocality normalizedImageName: a reference without tag or digest gets ":latest". */
export function normalizedImageName(name: string): string {
  const lastSlash = name.lastIndexOf('/');
  const tail = name.slice(lastSlash + 1);
  if (!tail.includes(':') && !name.includes('@')) return `${name}:latest`;
  return name;
}
