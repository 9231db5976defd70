/**
 * Pure layout: graph topology → positioned React Flow nodes and edges.
 *
 *   kubectl
 *   ┌ control-plane node ───────────────┐  Deployments  ReplicaSets
 *   │        kube-apiserver             │
 *   │ etcd   kube-controller-manager  kube-scheduler │
 *   └───────────────────────────────────┘
 *   ┌ node-1 ┐ ┌ node-2 ┐ ┌ node-3 ┐ ┌ unscheduled ┐
 *   │kubelet │ │kubelet │ │kubelet │ │  Pending     │
 *   │ pods…  │ │ pods…  │ │ pods…  │ │  pods…       │
 *
 * Identity means "unchanged" (STYLE.md Part D §9): a node or edge whose position, size and
 * data equal the previous layout's is returned as the previous object, so React Flow and the
 * memoized cards skip it. Cards select their live object by key themselves; the layout only
 * changes when the topology does.
 */
import type { GraphTopology } from '../store/types';
import type { FlowEdge, FlowNode } from './flow-types';
import {
  APISERVER_CARD,
  CONTROLLER_MANAGER_CARD,
  ETCD_CARD,
  KUBECTL_CARD,
  SCHEDULER_CARD,
  kubeletCard,
  linkId,
} from './participants';

export const POD_W = 150;
export const POD_H = 34;
const POD_STEP = 40;
export const NODE_W = 170;
const NODE_GAP = 16;
const NODE_PODS_Y = 82;
const NODES_Y = 334;
const CP_Y = 64;
const CP_W = 404;
const CP_H = 240;
const WORKLOAD_X = CP_W + 24;
const WORKLOAD_W = 168;
const WORKLOAD_STEP = 52;
export const UNSCHEDULED_AREA = 'area:unscheduled';

/** Controllers kube-controller-manager runs (shown on its card). */
const CONTROLLERS = ['deployment', 'replicaset', 'node-lifecycle', 'endpointslice', 'garbage-collector', 'namespace'];

export interface Layout {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** Height of a node group: header, kubelet, Pods, and a line for a countdown. */
function groupHeight(pods: number): number {
  return Math.max(NODE_PODS_Y + pods * POD_STEP + 4, 126);
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const va = a[k];
    const vb = b[k];
    if (Array.isArray(va) && Array.isArray(vb)) {
      if (va.length !== vb.length || va.some((x, i) => x !== vb[i])) return false;
    } else if (va !== vb) return false;
  }
  return true;
}

function sameNode(a: FlowNode, b: FlowNode): boolean {
  return (
    a.type === b.type &&
    a.parentId === b.parentId &&
    a.position.x === b.position.x &&
    a.position.y === b.position.y &&
    a.width === b.width &&
    a.height === b.height &&
    shallowEqual(a.data as Record<string, unknown>, b.data as Record<string, unknown>)
  );
}

function sameEdge(a: FlowEdge, b: FlowEdge): boolean {
  return a.type === b.type && a.source === b.source && a.target === b.target && a.sourceHandle === b.sourceHandle && a.targetHandle === b.targetHandle;
}

/** Lays out the topology; reuses `prev` objects that did not change. */
export function layoutGraph(t: GraphTopology, prev?: Layout): Layout {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];

  nodes.push({ id: KUBECTL_CARD, type: 'component', position: { x: 120, y: 0 }, width: 164, height: 40, data: { card: KUBECTL_CARD, title: 'kubectl', subtitle: 'you' } });

  const podsByNode = new Map<string | null, string[]>();
  for (const p of t.pods) {
    const list = podsByNode.get(p.node) ?? [];
    list.push(p.key);
    podsByNode.set(p.node, list);
  }

  // the control-plane node (or a plain group when the cluster has none), with any Pods that
  // tolerate its taint in two columns below the components
  const cp = t.nodes.find((n) => n.controlPlane);
  const cpId = cp?.key ?? 'group:control-plane';
  const cpPods = cp ? (podsByNode.get(cp.name) ?? []) : [];
  const cpH = CP_H + Math.ceil(cpPods.length / 2) * POD_STEP;
  nodes.push({
    id: cpId,
    type: 'nodeGroup',
    position: { x: 0, y: CP_Y },
    width: CP_W,
    height: cpH,
    data: { key: cp?.key ?? '', name: cp?.name ?? 'control plane', controlPlane: true, width: CP_W, height: cpH },
  });
  const child = (id: string, x: number, y: number, w: number, h: number, title: string, subtitle: string, items?: string[]) =>
    nodes.push({ id, type: 'component', parentId: cpId, position: { x, y }, width: w, height: h, data: items ? { card: id, title, subtitle, items } : { card: id, title, subtitle } });
  child(APISERVER_CARD, 120, 44, 164, 48, 'kube-apiserver', 'authn · authz · admission');
  child(ETCD_CARD, 10, 112, 118, 48, 'etcd', 'MVCC key-value store');
  child(CONTROLLER_MANAGER_CARD, 138, 112, 128, 116, 'kube-controller-manager', 'controllers', CONTROLLERS);
  child(SCHEDULER_CARD, 276, 112, 118, 48, 'kube-scheduler', 'binds Pods to nodes');
  if (cp) nodes.push({ id: kubeletCard(cp.name), type: 'kubelet', parentId: cpId, position: { x: 10, y: 180 }, width: 118, height: 48, data: { node: cp.name } });

  for (const [card, sh, th] of [
    [KUBECTL_CARD, 'b', 't'],
    [ETCD_CARD, 't', 'l'],
    [CONTROLLER_MANAGER_CARD, 't', 'b'],
    [SCHEDULER_CARD, 't', 'r'],
  ] as const) {
    edges.push({ id: linkId(card), type: 'relay', source: card, target: APISERVER_CARD, sourceHandle: sh, targetHandle: th, data: { link: linkId(card) } });
  }
  if (cp) {
    const k = kubeletCard(cp.name);
    edges.push({ id: linkId(k), type: 'relay', source: k, target: APISERVER_CARD, sourceHandle: 'r', targetHandle: 'l', data: { link: linkId(k) } });
  }

  // workloads: Deployments, then their ReplicaSets beside them
  let wy = CP_Y;
  for (const d of t.deployments) {
    nodes.push({ id: d.key, type: 'workload', position: { x: WORKLOAD_X, y: wy }, width: WORKLOAD_W, height: 44, data: { key: d.key } });
    wy += WORKLOAD_STEP;
  }
  let ry = CP_Y;
  for (const rs of t.replicaSets) {
    nodes.push({ id: rs.key, type: 'workload', position: { x: WORKLOAD_X + WORKLOAD_W + 16, y: ry }, width: WORKLOAD_W, height: 44, data: { key: rs.key } });
    ry += WORKLOAD_STEP;
    if (rs.owner && t.deployments.some((d) => d.key === rs.owner)) {
      edges.push({ id: `own:${rs.key}`, type: 'owner', source: rs.owner, target: rs.key, sourceHandle: 'r', targetHandle: 'l', data: {} });
    }
  }
  cpPods.forEach((key, i) => {
    nodes.push({ id: key, type: 'pod', parentId: cpId, position: { x: 10 + (i % 2) * (POD_W + 20), y: CP_H - 4 + Math.floor(i / 2) * POD_STEP }, width: POD_W, height: POD_H, data: { key } });
  });
  const nodesY = Math.max(NODES_Y, CP_Y + cpH + 30, wy + 24, ry + 24);

  // worker nodes with their kubelet and Pods, then the unscheduled area
  const known = new Set(t.nodes.map((n) => n.name));
  let x = 0;
  const placePods = (parentId: string, keys: string[]) => {
    keys.forEach((key, i) => {
      nodes.push({ id: key, type: 'pod', parentId, position: { x: 10, y: NODE_PODS_Y + i * POD_STEP }, width: POD_W, height: POD_H, data: { key } });
    });
  };
  for (const n of t.nodes) {
    if (n.controlPlane) continue;
    const pods = podsByNode.get(n.name) ?? [];
    const h = groupHeight(pods.length);
    nodes.push({ id: n.key, type: 'nodeGroup', position: { x, y: nodesY }, width: NODE_W, height: h, data: { key: n.key, name: n.name, controlPlane: false, width: NODE_W, height: h } });
    const k = kubeletCard(n.name);
    nodes.push({ id: k, type: 'kubelet', parentId: n.key, position: { x: 10, y: 44 }, width: POD_W, height: 30, data: { node: n.name } });
    edges.push({ id: linkId(k), type: 'relay', source: k, target: APISERVER_CARD, sourceHandle: 't', targetHandle: 'b', data: { link: linkId(k) } });
    placePods(n.key, pods);
    x += NODE_W + NODE_GAP;
  }
  // Pods bound to a node the graph does not know (deleted Node object) join the unscheduled area
  const unscheduled = [...(podsByNode.get(null) ?? [])];
  for (const [node, keys] of podsByNode) if (node !== null && !known.has(node)) unscheduled.push(...keys);
  const ah = groupHeight(unscheduled.length);
  nodes.push({ id: UNSCHEDULED_AREA, type: 'area', position: { x, y: nodesY }, width: NODE_W, height: ah, data: { count: unscheduled.length, width: NODE_W, height: ah } });
  placePods(UNSCHEDULED_AREA, unscheduled);

  // ownership: ReplicaSet → its Pods
  const rsKeys = new Set(t.replicaSets.map((r) => r.key));
  for (const p of t.pods) {
    if (p.owner && rsKeys.has(p.owner)) edges.push({ id: `own:${p.key}`, type: 'owner', source: p.owner, target: p.key, sourceHandle: 'b', targetHandle: 't', data: {} });
  }

  if (!prev) return { nodes, edges };
  const prevNodes = new Map(prev.nodes.map((n) => [n.id, n]));
  const prevEdges = new Map(prev.edges.map((e) => [e.id, e]));
  return {
    nodes: nodes.map((n) => {
      const p = prevNodes.get(n.id);
      return p && sameNode(p, n) ? p : n;
    }),
    edges: edges.map((e) => {
      const p = prevEdges.get(e.id);
      return p && sameEdge(p, e) ? p : e;
    }),
  };
}
