/**
 * The scheduler cache: NodeInfo per node, built from the node informer and from assigned
 * pods, including *assumed* pods — pods the scheduler has chosen a node for and whose
 * binding has not yet been confirmed by the watch — so that the next cycle already counts
 * their requests.
 *
 * Mirrors pkg/scheduler/backend/cache/cache.go (AssumePod, FinishBinding, ForgetPod,
 * AddPod confirming an assumed pod, UpdatePod, RemovePod, AddNode/UpdateNode/RemoveNode)
 * and node_tree.go (nodes listed round-robin across zones, in the order they were added).
 *
 * Scheduling cycles here are synchronous on the simulated clock, so the cache itself is the
 * snapshot (UpdateSnapshot is a no-op); preemption clones NodeInfos for its what-ifs. Upstream's
 * UpdateSnapshot copies only the NodeInfos whose generation moved since the last cycle; here no
 * NodeInfo is copied at all: each event updates its node's NodeInfo in place (a new generation)
 * and a cycle reads them as they are, with what the plugins need of the Node precomputed by
 * NodeInfo.setNode (node-info.ts).
 */
import type { Node, Pod } from '../api/objects';
import { NodeInfo, newPodInfo, podKey, type PodInfo } from './node-info';

interface PodState {
  pi: PodInfo;
  nodeName: string;
  assumed: boolean;
}

const ZONE_LABEL = 'topology.kubernetes.io/zone';
const REGION_LABEL = 'topology.kubernetes.io/region';

/** Cache of the cluster as the scheduler sees it. */
export class SchedulerCache {
  private nodes = new Map<string, NodeInfo>();
  private podStates = new Map<string, PodState>();
  private ordered: NodeInfo[] | null = null;
  /** How many nodes carry each normalized image name (ImageStateSummary.NumNodes). */
  private imageNodes = new Map<string, number>();
  /** NodeInfos with pods with (required anti-)affinity (the snapshot's HavePodsWith… lists). */
  private withAffinity = new Set<NodeInfo>();
  private withRequiredAntiAffinity = new Set<NodeInfo>();

  constructor(private readonly priorityOf: (pod: Pod) => number) {}

  // ---- nodes ---------------------------------------------------------------------------

  /** cache.AddNode / UpdateNode. */
  addOrUpdateNode(node: Node): void {
    const name = node.metadata.name;
    let ni = this.nodes.get(name);
    if (ni?.node) this.countImages(ni, -1);
    if (!ni) {
      ni = new NodeInfo(node);
      this.nodes.set(name, ni);
      this.ordered = null;
    } else {
      const zoneChanged = zoneOf(ni.node) !== zoneOf(node) || !ni.node;
      ni.setNode(node);
      if (zoneChanged) this.ordered = null;
    }
    this.countImages(ni, 1);
  }

  /** cache.RemoveNode: the NodeInfo stays while pods still point at it (upstream keeps it too). */
  removeNode(name: string): void {
    const ni = this.nodes.get(name);
    if (!ni) return;
    if (ni.node) this.countImages(ni, -1);
    if (ni.pods.size) ni.removeNode();
    else this.nodes.delete(name);
    this.ordered = null;
  }

  private countImages(ni: NodeInfo, d: number): void {
    for (const name of ni.images.keys()) this.imageNodes.set(name, (this.imageNodes.get(name) ?? 0) + d);
  }

  /** Number of nodes that have an image (for ImageLocality's spread scaling). */
  imageNumNodes(name: string): number {
    return this.imageNodes.get(name) ?? 0;
  }

  /** The NodeInfo of a node, if the node exists. */
  nodeInfo(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    return ni?.node ? ni : undefined;
  }

  /**
   * Every node with a Node object, in node-tree order: zones round-robin, each zone's nodes
   * in the order they were added (nodeTree.list()).
   */
  list(): NodeInfo[] {
    if (this.ordered) return this.ordered;
    const zones = new Map<string, NodeInfo[]>();
    for (const ni of this.nodes.values()) {
      if (!ni.node) continue;
      const z = zoneOf(ni.node);
      let arr = zones.get(z);
      if (!arr) zones.set(z, (arr = []));
      arr.push(ni);
    }
    const out: NodeInfo[] = [];
    const lists = [...zones.values()];
    for (let i = 0; out.length < lists.reduce((s, l) => s + l.length, 0); i++) {
      for (const l of lists) if (i < l.length) out.push(l[i]);
    }
    this.ordered = out;
    return out;
  }

  /** Number of nodes (with Node objects). */
  get nodeCount(): number {
    return this.list().length;
  }

  // ---- pods ----------------------------------------------------------------------------

  private uidOf(pod: Pod): string {
    return pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
  }

  private nodeFor(name: string): NodeInfo {
    let ni = this.nodes.get(name);
    if (!ni) {
      ni = new NodeInfo();
      this.nodes.set(name, ni);
    }
    return ni;
  }

  private place(pod: Pod, nodeName: string, assumed: boolean, key?: string): void {
    const pi = newPodInfo(pod, this.priorityOf(pod), key);
    const ni = this.nodeFor(nodeName);
    ni.addPod(pi);
    if (ni.podsWithAffinity.size) this.withAffinity.add(ni);
    if (ni.podsWithRequiredAntiAffinity.size) this.withRequiredAntiAffinity.add(ni);
    this.podStates.set(pi.uid, { pi, nodeName, assumed });
  }

  private unplace(uid: string): void {
    const st = this.podStates.get(uid);
    if (!st) return;
    const ni = this.nodes.get(st.nodeName);
    ni?.removePod(uid);
    if (ni && !ni.podsWithAffinity.size) this.withAffinity.delete(ni);
    if (ni && !ni.podsWithRequiredAntiAffinity.size) this.withRequiredAntiAffinity.delete(ni);
    if (ni && !ni.node && ni.pods.size === 0) this.nodes.delete(st.nodeName);
    this.podStates.delete(uid);
  }

  /** cache.AssumePod: counts `pod` on `nodeName` before the binding is confirmed. */
  assumePod(pod: Pod, nodeName: string): void {
    const uid = this.uidOf(pod);
    if (this.podStates.has(uid))
      throw new Error(`pod ${pod.metadata.namespace}/${pod.metadata.name}(${uid}) is in the cache, so can't be assumed`);
    // the copy is keyed like the informer's Pod it was made from
    this.place({ ...pod, spec: { ...pod.spec, nodeName } }, nodeName, true, podKey(pod));
  }

  /** cache.ForgetPod: drops an assumed pod (binding failed). */
  forgetPod(pod: Pod): void {
    const uid = this.uidOf(pod);
    if (this.podStates.get(uid)?.assumed) this.unplace(uid);
  }

  /** True while the pod is assumed and not yet confirmed (cache.IsAssumedPod). */
  isAssumed(pod: Pod): boolean {
    return this.podStates.get(this.uidOf(pod))?.assumed === true;
  }

  /** cache.AddPod: an assigned pod seen by the informer (confirms an assumed pod). */
  addPod(pod: Pod): void {
    const uid = this.uidOf(pod);
    if (this.podStates.has(uid)) this.unplace(uid);
    this.place(pod, pod.spec.nodeName!, false);
  }

  /** cache.UpdatePod. */
  updatePod(_old: Pod, pod: Pod): void {
    this.addPod(pod);
  }

  /** cache.RemovePod. */
  removePod(pod: Pod): void {
    this.unplace(this.uidOf(pod));
  }

  /**
   * Nodes (with Node objects) that have pods with pod affinity or anti-affinity
   * (Snapshot.HavePodsWithAffinityList), in no particular order.
   */
  havePodsWithAffinityList(): NodeInfo[] {
    const out: NodeInfo[] = [];
    for (const ni of this.withAffinity) if (ni.node) out.push(ni);
    return out;
  }

  /** Nodes that have pods with required anti-affinity (HavePodsWithRequiredAntiAffinityList). */
  havePodsWithRequiredAntiAffinityList(): NodeInfo[] {
    const out: NodeInfo[] = [];
    for (const ni of this.withRequiredAntiAffinity) if (ni.node) out.push(ni);
    return out;
  }

  /** The cached PodInfo of a pod, if assigned or assumed. */
  podInfo(uid: string): PodInfo | undefined {
    return this.podStates.get(uid)?.pi;
  }
}

function zoneOf(node: Node | undefined): string {
  const l = node?.metadata.labels ?? {};
  const region = l[REGION_LABEL] ?? '';
  const zone = l[ZONE_LABEL] ?? '';
  return region || zone ? `${region}:\u0000:${zone}` : '';
}
