/**
 * Pure graph model: topology + view options → the cards and edges of the graph, before any
 * top-level position is known. Inside a node group the model places its own children (kubelet,
 * kube-proxy, Pods in one column); the top-level boxes ("blocks": the control-plane node, worker
 * nodes, the unscheduled area and the object cards) are arranged by elkjs (elk-layout.ts) in
 * fixed rows (elk partitions), top to bottom:
 *
 *   0  kubectl · HPAs · Ingresses
 *   1  control plane · Deployments, StatefulSets, DaemonSets, CronJobs · Services
 *   2  ReplicaSets · Jobs · EndpointSlices
 *   3  worker nodes with their Pods · unscheduled
 *   4  PVCs      5  PVs      6  StorageClasses
 *
 * Readable with hundreds of Pods: beyond {@link GROUP_THRESHOLD} Pods of one owner on one node
 * the Pods collapse into a group chip ("web-7c9f… ×24"), expanded by a click (view-store.ts).
 */
import type { GraphTopology } from '../store/types';
import type { FlowEdge, FlowNode, Rel } from './flow-types';
import type { GraphView, Layer } from './view-store';
import {
  APISERVER_CARD,
  CONTROLLER_MANAGER_CARD,
  COREDNS_CARD,
  ETCD_CARD,
  KUBECTL_CARD,
  SCHEDULER_CARD,
  kubeProxyCard,
  kubeletCard,
  linkId,
} from './participants';

export const POD_W = 150;
export const POD_H = 34;
export const POD_STEP = 40;
export const NODE_W = 170;
export const NODE_PODS_Y = 82;
export const CP_W = 404;
export const CP_H = 240;
export const OBJ_W = 160;
export const OBJ_H = 50;
export const KUBECTL_W = 120;
/** More Pods than this of one owner on one node collapse into a group chip. */
export const GROUP_THRESHOLD = 5;
export const UNSCHEDULED_AREA = 'area:unscheduled';
export const CP_GROUP = 'group:control-plane';

/** Controllers kube-controller-manager runs (shown on its card). */
const CONTROLLERS = ['deployment', 'replicaset', 'endpointslice', 'statefulset · daemonset', 'job · cronjob', 'node-lifecycle', 'horizontal-pod-autoscaler', 'persistentvolume-binder', 'garbage-collector'];

/** Rows of the layout (elk partitions). */
export const ROW = { clients: 0, owners: 1, owned: 2, nodes: 3, claims: 4, volumes: 5, classes: 6 } as const;

/** A top-level box elk arranges. */
export interface Block {
  id: string;
  row: number;
  width: number;
  height: number;
}

export interface GraphModel {
  /** Every flow node; top-level ones (blocks) at {0,0} until placed (layout.ts). */
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Top-level boxes in model order (row, then key order). */
  blocks: Block[];
  /** Edges between blocks (children mapped to their block), unique: elk's input. */
  links: [string, string][];
  /** Pod key → id of the flow node showing it (the Pod's card or its collapsed group). */
  shownAs: Map<string, string>;
}

/** The id of the group chip for `owner`'s Pods on `where` (a node name or "unscheduled"). */
export function groupId(where: string, owner: string): string {
  return `group:${where}:${owner}`;
}

type PodEntry = GraphTopology['pods'][number];
type Row = { kind: 'pod'; key: string } | { kind: 'group'; id: string; owner: string; keys: string[]; expanded: boolean };

/** Rows of Pods inside one node group: single Pods, and per owner above the threshold a group chip (followed by its Pods when expanded). */
export function podRows(pods: readonly PodEntry[], where: string, expanded: ReadonlySet<string>): Row[] {
  const byOwner = new Map<string, string[]>();
  for (const p of pods) if (p.owner) byOwner.set(p.owner, [...(byOwner.get(p.owner) ?? []), p.key]);
  const rows: Row[] = [];
  const done = new Set<string>();
  for (const p of pods) {
    const keys = p.owner ? byOwner.get(p.owner) : undefined;
    if (!p.owner || !keys || keys.length <= GROUP_THRESHOLD) {
      rows.push({ kind: 'pod', key: p.key });
      continue;
    }
    if (done.has(p.owner)) continue;
    done.add(p.owner);
    const id = groupId(where, p.owner);
    const open = expanded.has(id);
    rows.push({ kind: 'group', id, owner: p.owner, keys, expanded: open });
    if (open) for (const key of keys) rows.push({ kind: 'pod', key });
  }
  return rows;
}

/** Height of a node group holding `rows` rows of Pods (header, kubelet row, Pods, a line for a countdown). */
export function groupHeight(rows: number): number {
  return Math.max(NODE_PODS_Y + rows * POD_STEP + 4, 126);
}

const AT = { x: 0, y: 0 };

/** Builds the model; `view` says which layers are drawn and which Pod groups are open. */
export function buildModel(t: GraphTopology, view: GraphView): GraphModel {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const blocks: Block[] = [];
  const shownAs = new Map<string, string>();
  const parentOf = new Map<string, string>();
  const on = (l: Layer) => view.layers[l];
  const block = (id: string, row: number, width: number, height: number) => blocks.push({ id, row, width, height });

  const placeRows = (parentId: string, where: string, pods: readonly PodEntry[], x0: number, y0: number, columns: number) => {
    const rows = podRows(pods, where, view.expanded);
    rows.forEach((r, i) => {
      const position = { x: x0 + (i % columns) * (POD_W + 20), y: y0 + Math.floor(i / columns) * POD_STEP };
      if (r.kind === 'pod') {
        nodes.push({ id: r.key, type: 'pod', parentId, position, width: POD_W, height: POD_H, data: { key: r.key } });
        shownAs.set(r.key, r.key);
        parentOf.set(r.key, parentId);
      } else {
        nodes.push({ id: r.id, type: 'podGroup', parentId, position, width: POD_W, height: POD_H, data: { id: r.id, owner: r.owner, keys: r.keys, expanded: r.expanded } });
        parentOf.set(r.id, parentId);
        if (!r.expanded) for (const k of r.keys) shownAs.set(k, r.id);
      }
    });
    return rows.length;
  };

  // row 0: kubectl
  nodes.push({ id: KUBECTL_CARD, type: 'component', position: AT, width: KUBECTL_W, height: 40, data: { card: KUBECTL_CARD, title: 'kubectl', subtitle: 'you' } });
  block(KUBECTL_CARD, ROW.clients, KUBECTL_W, 40);

  const podsByNode = new Map<string | null, PodEntry[]>();
  const known = new Set(t.nodes.map((n) => n.name));
  for (const p of t.pods) {
    const where = p.node !== null && known.has(p.node) ? p.node : null; // bound to an unknown node: unscheduled area
    podsByNode.set(where, [...(podsByNode.get(where) ?? []), p]);
  }

  // row 1: the control-plane node with its components (and any Pods tolerating its taint, two columns)
  const cp = t.nodes.find((n) => n.controlPlane);
  const cpId = cp?.key ?? CP_GROUP;
  const cpIndex = nodes.length;
  const child = (id: string, x: number, y: number, w: number, h: number, title: string, subtitle: string, items?: string[]) => {
    nodes.push({ id, type: 'component', parentId: cpId, position: { x, y }, width: w, height: h, data: items ? { card: id, title, subtitle, items } : { card: id, title, subtitle } });
    parentOf.set(id, cpId);
  };
  child(APISERVER_CARD, 120, 44, 164, 48, 'kube-apiserver', 'authn · authz · admission');
  child(ETCD_CARD, 10, 112, 118, 48, 'etcd', 'MVCC key-value store');
  child(CONTROLLER_MANAGER_CARD, 138, 112, 128, 116, 'kube-controller-manager', 'controllers', CONTROLLERS);
  child(SCHEDULER_CARD, 276, 112, 118, 48, 'kube-scheduler', 'binds Pods to nodes');
  child(COREDNS_CARD, 276, 180, 118, 48, 'coredns', 'cluster DNS · kube-dns');
  const relay = (card: string, sh: string, th: string) => edges.push({ id: linkId(card), type: 'relay', source: card, target: APISERVER_CARD, sourceHandle: sh, targetHandle: th, data: { link: linkId(card) } });
  for (const [card, sh, th] of [
    [KUBECTL_CARD, 'b', 't'],
    [ETCD_CARD, 't', 'l'],
    [CONTROLLER_MANAGER_CARD, 't', 'b'],
    [SCHEDULER_CARD, 't', 'r'],
    [COREDNS_CARD, 't', 'r'],
  ] as const) {
    relay(card, sh, th);
  }
  let cpRows = 0;
  if (cp) {
    for (const [id, role, y] of [
      [kubeletCard(cp.name), 'kubelet', 180],
      [kubeProxyCard(cp.name), 'kube-proxy', 206],
    ] as const) {
      nodes.push({ id, type: 'kubelet', parentId: cpId, position: { x: 10, y }, width: 118, height: 22, data: { node: cp.name, role } });
      parentOf.set(id, cpId);
      relay(id, 'r', 'l');
    }
    cpRows = placeRows(cpId, cp.name, podsByNode.get(cp.name) ?? [], 10, CP_H - 4, 2);
  }
  const cpH = CP_H + Math.ceil(cpRows / 2) * POD_STEP;
  nodes.splice(cpIndex, 0, { id: cpId, type: 'nodeGroup', position: AT, width: CP_W, height: cpH, data: { key: cp?.key ?? '', name: cp?.name ?? 'control plane', controlPlane: true, width: CP_W, height: cpH } });
  block(cpId, ROW.owners, CP_W, cpH);

  // row 3: worker nodes with their kubelet, kube-proxy and Pods; then the unscheduled area
  for (const n of t.nodes) {
    if (n.controlPlane) continue;
    const index = nodes.length;
    for (const [id, role, x] of [
      [kubeletCard(n.name), 'kubelet', 10],
      [kubeProxyCard(n.name), 'kube-proxy', 88],
    ] as const) {
      nodes.push({ id, type: 'kubelet', parentId: n.key, position: { x, y: 44 }, width: 72, height: 30, data: { node: n.name, role } });
      parentOf.set(id, n.key);
      relay(id, 't', 'b');
    }
    const h = groupHeight(placeRows(n.key, n.name, podsByNode.get(n.name) ?? [], 10, NODE_PODS_Y, 1));
    nodes.splice(index, 0, { id: n.key, type: 'nodeGroup', position: AT, width: NODE_W, height: h, data: { key: n.key, name: n.name, controlPlane: false, width: NODE_W, height: h } });
    block(n.key, ROW.nodes, NODE_W, h);
  }
  const unscheduled = podsByNode.get(null) ?? [];
  const areaIndex = nodes.length;
  const ah = groupHeight(placeRows(UNSCHEDULED_AREA, 'unscheduled', unscheduled, 10, NODE_PODS_Y - 34, 1) - 1);
  nodes.splice(areaIndex, 0, { id: UNSCHEDULED_AREA, type: 'area', position: AT, width: NODE_W, height: ah, data: { count: unscheduled.length, width: NODE_W, height: ah } });
  block(UNSCHEDULED_AREA, ROW.nodes, NODE_W, ah);

  // object cards, per layer
  const shown = new Set<string>();
  const card = (key: string, type: 'workload' | 'object', row: number) => {
    nodes.push(type === 'workload' ? { id: key, type, position: AT, width: OBJ_W, height: OBJ_H, data: { key } } : { id: key, type, position: AT, width: OBJ_W, height: OBJ_H, data: { key } });
    block(key, row, OBJ_W, OBJ_H);
    shown.add(key);
  };
  if (on('workloads')) {
    for (const d of t.deployments) card(d.key, 'workload', ROW.owners);
    for (const rs of t.replicaSets) card(rs.key, 'workload', ROW.owned);
    for (const w of t.workloads) card(w.key, 'object', w.key.startsWith('Job/') ? ROW.owned : ROW.owners);
  }
  if (on('networking')) {
    for (const s of t.services) card(s.key, 'object', ROW.owners);
    for (const s of t.endpointSlices) card(s.key, 'object', ROW.owned);
    for (const i of t.ingresses) card(i.key, 'object', ROW.clients);
  }
  if (on('storage')) {
    for (const c of t.pvcs) card(c.key, 'object', ROW.claims);
    for (const v of t.pvs) card(v.key, 'object', ROW.volumes);
    for (const c of t.storageClasses) card(c.key, 'object', ROW.classes);
  }
  if (on('autoscaling')) for (const h of t.hpas) card(h.key, 'object', ROW.clients);

  // object edges (only between cards that are drawn; Pods map to their group chip)
  const seen = new Set<string>();
  const link = (rel: Rel, source: string | null | undefined, target: string | null | undefined) => {
    if (!source || !target) return;
    const id = rel === 'own' ? `own:${target}` : `${rel}:${source}>${target}`;
    if (seen.has(id)) return;
    seen.add(id);
    edges.push({ id, type: 'owner', source, target, sourceHandle: 'b', targetHandle: 't', className: `rel-${rel}`, data: { rel } });
  };
  const vis = (key: string | null | undefined) => (key && shown.has(key) ? key : null);
  const podCard = (key: string) => shownAs.get(key) ?? null;
  if (on('workloads')) {
    for (const rs of t.replicaSets) link('own', vis(rs.owner), rs.key);
    for (const w of t.workloads) link('own', vis(w.owner), w.key);
    for (const p of t.pods) link('own', vis(p.owner), podCard(p.key));
  }
  if (on('networking')) {
    for (const s of t.endpointSlices) {
      link('select', vis(s.service), s.key);
      for (const p of s.pods) link('endpoint', s.key, podCard(p));
    }
    for (const i of t.ingresses) for (const s of i.services) link('route', i.key, vis(s));
  }
  if (on('storage')) {
    for (const p of t.pods) for (const c of p.claims ?? []) link('claim', podCard(p.key), vis(c));
    for (const c of t.pvcs) {
      if (c.volume && shown.has(c.volume)) link('bind', c.key, c.volume);
      else link('class', c.key, vis(c.storageClass));
    }
    for (const v of t.pvs) link('class', v.key, vis(v.storageClass));
  }
  if (on('autoscaling')) for (const h of t.hpas) link('scale', h.key, vis(h.target));

  // elk's edges: between blocks
  const blockOf = (id: string) => parentOf.get(id) ?? id;
  const pairs = new Set<string>();
  const links: [string, string][] = [[KUBECTL_CARD, cpId]]; // kubectl sits above kube-apiserver
  for (const e of edges) {
    if (e.type !== 'owner') continue;
    const a = blockOf(e.source);
    const b = blockOf(e.target);
    if (a === b || pairs.has(`${a}\n${b}`)) continue;
    pairs.add(`${a}\n${b}`);
    links.push([a, b]);
  }
  blocks.sort((a, b) => a.row - b.row);
  return { nodes, edges, blocks, links, shownAs };
}
