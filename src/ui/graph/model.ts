/**
 * Pure graph model: topology + view options → the cards and edges of the graph, before any
 * top-level position is known. Inside a box the model places its own children; the top-level
 * boxes ("blocks") are placed in rows by placement.ts, top to bottom:
 *
 *   top      kubectl · the control-plane node as a strip (its components as chips)
 *   clients  HPAs · Ingresses
 *   owners   Deployments, StatefulSets, DaemonSets, CronJobs · Services
 *   owned    ReplicaSets · Jobs · EndpointSlices
 *   nodes    worker nodes with their Pods, in name order · unscheduled (the main, large row)
 *   claims · volumes · classes   PVCs, PVs, StorageClasses
 *
 * Readable with hundreds of Pods: beyond {@link GROUP_THRESHOLD} Pods of one owner on one node
 * the Pods collapse into a group chip ("web-7c9f… ×24"), expanded by a click (view-store.ts).
 * The cluster's own objects (kube-system, the `kubernetes` Service, unused StorageClasses) are
 * drawn only with the `system` layer on (see {@link isSystemObject}).
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

/** Card sizes, flow units (1 unit = 1 CSS px at zoom 1). */
export const POD_W = 144;
export const POD_H = 34;
export const POD_STEP = 38;
export const NODE_W = 160;
/** y of the first Pod row inside a worker node (below the header, status line and agents). */
export const NODE_PODS_Y = 76;
/** Width of the unscheduled area while no Pod waits there. */
export const AREA_EMPTY_W = 112;
export const OBJ_W = 146;
export const OBJ_H = 52;
export const KUBECTL_W = 72;
export const KUBECTL_H = 34;
/** The control-plane strip: chips row A at {@link STRIP_A_Y}, kube-apiserver's row B at {@link STRIP_B_Y}. */
export const STRIP_A_Y = 24;
export const STRIP_B_Y = 68;
export const STRIP_H = 112;
/** More Pods than this of one owner on one node collapse into a group chip. */
export const GROUP_THRESHOLD = 5;
export const UNSCHEDULED_AREA = 'area:unscheduled';
export const CP_GROUP = 'group:control-plane';

/** Controllers kube-controller-manager runs (its card's tooltip-sized subtitle). */
const CONTROLLERS = 'deployment · replicaset · endpointslice · statefulset · daemonset · job · cronjob · node-lifecycle · horizontal-pod-autoscaler · persistentvolume-binder · garbage-collector';

/** Rows of the layout, top to bottom (placement.ts). */
export const ROW = { top: 0, clients: 1, owners: 2, owned: 3, nodes: 4, claims: 5, volumes: 6, classes: 7 } as const;

/** A top-level box placement.ts positions. */
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
  /** Top-level boxes in model order (row, then topology order: nodes by name). */
  blocks: Block[];
  /** Child flow node id → its block and the x of its centre inside the block (placement anchors). */
  childAt: Map<string, { block: string; cx: number }>;
  /** Pod key → id of the flow node showing it (the Pod's card or its collapsed group). */
  shownAs: Map<string, string>;
}

/** Namespaces whose objects belong to the cluster itself. */
const SYSTEM_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);
const KUBERNETES_SERVICE = 'Service/default/kubernetes';

/**
 * Whether a namespaced store key ("Kind/NS/NAME") is one of the cluster's own objects: in a
 * system namespace, or the apiserver's `default/kubernetes` Service.
 */
export function isSystemObject(key: string): boolean {
  if (key === KUBERNETES_SERVICE) return true;
  const parts = key.split('/');
  return parts.length === 3 && SYSTEM_NAMESPACES.has(parts[1]);
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
  for (const p of pods) if (p.owner) (byOwner.get(p.owner) ?? byOwner.set(p.owner, []).get(p.owner)!).push(p.key); // push: linear in Pods (20,000 of one owner)
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

/** Height of a worker node holding `rows` rows of Pods (header, status line, agents, Pods). */
export function groupHeight(rows: number): number {
  return Math.max(NODE_PODS_Y + rows * POD_STEP + 6, 120);
}

const AT = { x: 0, y: 0 };

/** Chips of the control-plane strip: id, x, width, title, subtitle (row A), left to right. */
const STRIP_CHIPS: [id: string, x: number, w: number, title: string, subtitle: string][] = [
  [ETCD_CARD, 10, 84, 'etcd', 'MVCC key-value store'],
  [CONTROLLER_MANAGER_CARD, 102, 170, 'kube-controller-manager', CONTROLLERS],
  [SCHEDULER_CARD, 280, 116, 'kube-scheduler', 'binds Pods to nodes'],
  [COREDNS_CARD, 404, 100, 'coredns', 'cluster DNS · kube-dns'],
];
/** Width of the strip's components (rows A and B), before any Pod columns. */
const STRIP_CORE_W = 514;
const APISERVER_X = 73;
const APISERVER_W = 190;

/** Builds the model; `view` says which layers are drawn and which Pod groups are open. */
export function buildModel(t: GraphTopology, view: GraphView): GraphModel {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const blocks: Block[] = [];
  const shownAs = new Map<string, string>();
  const childAt = new Map<string, { block: string; cx: number }>();
  const on = (l: Layer) => view.layers[l];
  const block = (id: string, row: number, width: number, height: number) => blocks.push({ id, row, width, height });
  const addChild = (n: FlowNode & { parentId: string }) => {
    nodes.push(n);
    childAt.set(n.id, { block: n.parentId, cx: n.position.x + (n.width ?? 0) / 2 });
  };

  /** Places Pod rows (single Pods and group chips) in `columns` columns of `perColumn` rows. */
  const placeRows = (parentId: string, where: string, pods: readonly PodEntry[], x0: number, y0: number, perColumn: number) => {
    const rows = podRows(pods, where, view.expanded);
    rows.forEach((r, i) => {
      const position = { x: x0 + Math.floor(i / perColumn) * (POD_W + 8), y: y0 + (i % perColumn) * POD_STEP };
      if (r.kind === 'pod') {
        addChild({ id: r.key, type: 'pod', parentId, position, width: POD_W, height: POD_H, data: { key: r.key } });
        shownAs.set(r.key, r.key);
      } else {
        addChild({ id: r.id, type: 'podGroup', parentId, position, width: POD_W, height: POD_H, data: { id: r.id, owner: r.owner, keys: r.keys, expanded: r.expanded } });
        if (!r.expanded) for (const k of r.keys) shownAs.set(k, r.id);
      }
    });
    return rows.length;
  };
  const relay = (card: string, sh: string, th: string) => edges.push({ id: linkId(card), type: 'relay', source: card, target: APISERVER_CARD, sourceHandle: sh, targetHandle: th, data: { link: linkId(card) } });

  const podsByNode = new Map<string | null, PodEntry[]>();
  const known = new Set(t.nodes.map((n) => n.name));
  for (const p of t.pods) {
    const where = p.node !== null && known.has(p.node) ? p.node : null; // bound to an unknown node: unscheduled area
    (podsByNode.get(where) ?? podsByNode.set(where, []).get(where)!).push(p);
  }

  // top row: kubectl, then the control-plane node as a strip: row A etcd · kube-controller-manager
  // · kube-scheduler · coredns, row B kube-apiserver · kubelet · kube-proxy, then any Pods
  // tolerating its taint in columns of two
  nodes.push({ id: KUBECTL_CARD, type: 'component', position: AT, width: KUBECTL_W, height: KUBECTL_H, data: { card: KUBECTL_CARD, title: 'kubectl', subtitle: 'you' } });
  block(KUBECTL_CARD, ROW.top, KUBECTL_W, KUBECTL_H);
  relay(KUBECTL_CARD, 'r', 'l');
  const cp = t.nodes.find((n) => n.controlPlane);
  const cpId = cp?.key ?? CP_GROUP;
  const cpIndex = nodes.length;
  const chip = (id: string, x: number, y: number, w: number, h: number, title: string, subtitle: string) => addChild({ id, type: 'component', parentId: cpId, position: { x, y }, width: w, height: h, data: { card: id, title, subtitle } });
  chip(APISERVER_CARD, APISERVER_X, STRIP_B_Y, APISERVER_W, 38, 'kube-apiserver', 'authn · authz · admission');
  for (const [id, x, w, title, subtitle] of STRIP_CHIPS) {
    chip(id, x, STRIP_A_Y, w, 38, title, subtitle);
    relay(id, 'b', 't');
  }
  let cpColumns = 0;
  if (cp) {
    for (const [id, role, x, sh, th] of [
      [kubeletCard(cp.name), 'kubelet', APISERVER_X + APISERVER_W + 20, 'l', 'r'],
      [kubeProxyCard(cp.name), 'kube-proxy', APISERVER_X + APISERVER_W + 100, 'b', 'r'],
    ] as const) {
      addChild({ id, type: 'kubelet', parentId: cpId, position: { x, y: STRIP_B_Y + 3 }, width: 76, height: 32, data: { node: cp.name, role } });
      relay(id, sh, th);
    }
    cpColumns = Math.ceil(placeRows(cpId, cp.name, podsByNode.get(cp.name) ?? [], STRIP_CORE_W + 8, STRIP_A_Y, 2) / 2);
  }
  const cpW = STRIP_CORE_W + 8 + cpColumns * (POD_W + 8);
  nodes.splice(cpIndex, 0, { id: cpId, type: 'nodeGroup', position: AT, width: cpW, height: STRIP_H, data: { key: cp?.key ?? '', name: cp?.name ?? 'control plane', controlPlane: true, width: cpW, height: STRIP_H } });
  block(cpId, ROW.top, cpW, STRIP_H);

  // the main row: worker nodes in name order with their kubelet, kube-proxy and Pods; then the unscheduled area
  for (const n of t.nodes) {
    if (n.controlPlane) continue;
    const index = nodes.length;
    for (const [id, role, x] of [
      [kubeletCard(n.name), 'kubelet', 8],
      [kubeProxyCard(n.name), 'kube-proxy', 82],
    ] as const) {
      addChild({ id, type: 'kubelet', parentId: n.key, position: { x, y: 41 }, width: 70, height: 30, data: { node: n.name, role } });
      relay(id, 't', 'b');
    }
    const h = groupHeight(placeRows(n.key, n.name, podsByNode.get(n.name) ?? [], 8, NODE_PODS_Y, Infinity));
    nodes.splice(index, 0, { id: n.key, type: 'nodeGroup', position: AT, width: NODE_W, height: h, data: { key: n.key, name: n.name, controlPlane: false, width: NODE_W, height: h } });
    block(n.key, ROW.nodes, NODE_W, h);
  }
  const unscheduled = podsByNode.get(null) ?? [];
  const areaIndex = nodes.length;
  const aRows = placeRows(UNSCHEDULED_AREA, 'unscheduled', unscheduled, 8, NODE_PODS_Y - 34, Infinity);
  const aw = aRows ? NODE_W : AREA_EMPTY_W;
  const ah = aRows ? groupHeight(aRows - 1) : 60;
  nodes.splice(areaIndex, 0, { id: UNSCHEDULED_AREA, type: 'area', position: AT, width: aw, height: ah, data: { count: unscheduled.length, width: aw, height: ah } });
  block(UNSCHEDULED_AREA, ROW.nodes, aw, ah);

  // object cards, per layer; the cluster's own objects only with the system layer
  const system = on('system');
  const userOnly = <T extends { key: string }>(list: readonly T[]) => (system ? list : list.filter((o) => !isSystemObject(o.key)));
  const shown = new Set<string>();
  const card = (key: string, type: 'workload' | 'object', row: number) => {
    nodes.push(type === 'workload' ? { id: key, type, position: AT, width: OBJ_W, height: OBJ_H, data: { key } } : { id: key, type, position: AT, width: OBJ_W, height: OBJ_H, data: { key } });
    block(key, row, OBJ_W, OBJ_H);
    shown.add(key);
  };
  if (on('autoscaling')) for (const h of userOnly(t.hpas)) card(h.key, 'object', ROW.clients);
  if (on('networking')) for (const i of userOnly(t.ingresses)) card(i.key, 'object', ROW.clients);
  if (on('workloads')) {
    for (const d of userOnly(t.deployments)) card(d.key, 'workload', ROW.owners);
    for (const w of userOnly(t.workloads)) card(w.key, 'object', w.key.startsWith('Job/') ? ROW.owned : ROW.owners);
  }
  if (on('networking')) for (const s of userOnly(t.services)) card(s.key, 'object', ROW.owners);
  if (on('workloads')) for (const rs of userOnly(t.replicaSets)) card(rs.key, 'workload', ROW.owned);
  if (on('networking')) for (const s of t.endpointSlices) if (system || (!isSystemObject(s.key) && !(s.service && isSystemObject(s.service)))) card(s.key, 'object', ROW.owned);
  if (on('storage')) {
    const pvcs = userOnly(t.pvcs);
    const used = new Set([...pvcs.map((c) => c.storageClass), ...t.pvs.map((v) => v.storageClass)]);
    for (const c of pvcs) card(c.key, 'object', ROW.claims);
    for (const v of t.pvs) card(v.key, 'object', ROW.volumes);
    for (const c of t.storageClasses) if (system || used.has(c.key)) card(c.key, 'object', ROW.classes);
  }

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
    for (const rs of t.replicaSets) if (shown.has(rs.key)) link('own', vis(rs.owner), rs.key);
    for (const w of t.workloads) if (shown.has(w.key)) link('own', vis(w.owner), w.key);
    for (const p of t.pods) link('own', vis(p.owner), podCard(p.key));
  }
  if (on('networking')) {
    for (const s of t.endpointSlices) {
      if (!shown.has(s.key)) continue;
      link('select', vis(s.service), s.key);
      for (const p of s.pods) link('endpoint', s.key, podCard(p));
    }
    for (const i of t.ingresses) if (shown.has(i.key)) for (const s of i.services) link('route', i.key, vis(s));
  }
  if (on('storage')) {
    for (const p of t.pods) for (const c of p.claims ?? []) link('claim', podCard(p.key), vis(c));
    for (const c of t.pvcs) {
      if (!shown.has(c.key)) continue;
      if (c.volume && shown.has(c.volume)) link('bind', c.key, c.volume);
      else link('class', c.key, vis(c.storageClass));
    }
    for (const v of t.pvs) link('class', v.key, vis(v.storageClass));
  }
  if (on('autoscaling')) for (const h of t.hpas) if (shown.has(h.key)) link('scale', h.key, vis(h.target));

  blocks.sort((a, b) => a.row - b.row);
  return { nodes, edges, blocks, childAt, shownAs };
}
