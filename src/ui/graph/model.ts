/**
 * Pure graph model: topology + view options → the cards and edges of the graph, before any
 * top-level position is known. Inside a box the model places its own children; the top-level
 * boxes ("blocks") are placed in rows by placement.ts, top to bottom:
 *
 *   top      kubectl · the control-plane node as a strip (its components as chips)
 *   clients  Ingresses
 *   owners   HPAs (each left of what it scales), Deployments, StatefulSets, DaemonSets, CronJobs · Services
 *   owned    ReplicaSets · Jobs · EndpointSlices
 *   nodes    worker nodes with their Pods, in name order · unscheduled (the main, large row)
 *   claims   PVCs, each followed by its PV and StorageClass (one row: the graph stays short)
 *
 * Readable with hundreds of Pods: beyond {@link GROUP_THRESHOLD} Pods of one owner on one node
 * the Pods collapse into a group chip ("web-7c9f… ×24"), expanded by a click (view-store.ts).
 * The cluster's own objects (kube-system, the `kubernetes` Service, unused StorageClasses) are
 * drawn only with the `system` layer on (see {@link isSystemObject}).
 */
import type { GraphTopology } from '../store/types';
import type { FlowEdge, FlowNode, Rel } from './flow-types';
import type { GraphView, Layer } from './view-store';
import { estimateMeasure, type FontName, type Measure } from './text-measure';
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
  userControllerCard,
} from './participants';

/**
 * Card sizes, flow units (1 unit = 1 CSS px at zoom 1). Widths are minimums: every card is as
 * wide as its text (text-measure.ts), so names, Pod names with their hash and IPs read whole.
 */
export const POD_W = 144;
/** A Pod card: name, STATUS + READY, IP (three lines). */
export const POD_H = 42;
export const POD_STEP = 46;
export const NODE_W = 160;
/** y of a worker node's agents (kubelet, kube-proxy: at the top, so their links leave the node without crossing its header). */
export const NODE_AGENTS_Y = 4;
/** y of the first Pod row inside a worker node (below the agents, the header at y 36 and the status line: app.css `.node-card.worker`). */
export const NODE_PODS_Y = 88;
/** Width of the unscheduled area while no Pod waits there (at least; its text decides). */
export const AREA_EMPTY_W = 112;
export const OBJ_W = 146;
export const OBJ_H = 52;
/** Horizontal room a card's border and padding take around its text (app.css `.card`), plus 2 px. */
const CARD_PAD = 18;
/** Same for Pod cards (4 px left border, 6 px padding each side), plus 3 px. */
const POD_PAD = 20;
export const KUBECTL_W = 72;
export const KUBECTL_H = 34;
/** The control-plane strip: chips row A at {@link STRIP_A_Y}, kube-apiserver's row B at {@link STRIP_B_Y}. */
export const STRIP_A_Y = 24;
export const STRIP_B_Y = 68;
export const STRIP_H = 112;
/** More Pods than this of one owner on one node collapse into a group chip. */
export const GROUP_THRESHOLD = 5;
export const UNSCHEDULED_AREA = 'area:unscheduled';
/** y of the first Pod in the unscheduled area (below its header and caption). */
const AREA_PODS_Y = 44;
export const CP_GROUP = 'group:control-plane';

/** Controllers kube-controller-manager runs (its card's tooltip; the subtitle counts them). */
export const CONTROLLERS = [
  'deployment',
  'replicaset',
  'replication',
  'endpointslice',
  'statefulset',
  'daemonset',
  'job',
  'cronjob',
  'node-lifecycle',
  'horizontal-pod-autoscaler',
  'persistentvolume-binder',
  'garbage-collector',
];

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
  return Math.max(NODE_PODS_Y + rows * POD_STEP + 4, 120);
}

/** The text a card shows (object cards: kind label, name and summary lines), for sizing. */
export interface CardText {
  kind: string;
  name: string;
  lines: string[];
}

/** What {@link buildModel} measures with: text widths, and the current text of object cards. */
export interface Sizing {
  measure: Measure;
  /** The summary an object card shows now (object-summary.ts), or undefined when unknown. */
  cardText?: (key: string) => CardText | undefined;
  /** The running user controllers (docs/user-controllers.md): a card each in the control-plane strip, after coredns. */
  userControllers?: readonly string[];
}

/** Widest STATUS a Pod card reserves room for (kubectl's common Pod statuses). */
const WIDE_STATUS = 'ContainerCreating';
/** Widest Pod IP (the cluster's Pod CIDR 10.244.0.0/16). */
const WIDE_IP = '10.244.255.255';

/** Width of a card whose lines are `lines` (each [text, font]), at least `min`. */
function fit(measure: Measure, min: number, pad: number, lines: [string, FontName][]): number {
  let w = 0;
  for (const [text, font] of lines) w = Math.max(w, measure(text, font));
  return Math.max(min, Math.ceil(w + pad));
}

const AT = { x: 0, y: 0 };

/** Chips of the control-plane strip: id, minimum width, title, subtitle (row A), left to right. */
const STRIP_CHIPS: [id: string, w: number, title: string, subtitle: string][] = [
  [ETCD_CARD, 84, 'etcd', 'MVCC key-value store'],
  [CONTROLLER_MANAGER_CARD, 150, 'kube-controller-manager', `${CONTROLLERS.length} controllers`],
  [SCHEDULER_CARD, 116, 'kube-scheduler', 'binds Pods to nodes'],
  [COREDNS_CARD, 100, 'coredns', 'cluster DNS · kube-dns'],
];
const STRIP_X0 = 10;
const STRIP_GAP = 8;
const APISERVER_X = 73;
const APISERVER_W = 190;
/** The agents' texts: title, subtitle (running / stopped). */
const AGENTS = { kubelet: ['kubelet', 'containerd', 'stopped'], 'kube-proxy': ['kube-proxy', 'iptables', 'stopped'] } as const;

/**
 * Builds the model; `view` says which layers are drawn and which Pod groups are open; `sizing`
 * measures the cards' text (default: an estimate, for tests without a DOM).
 */
export function buildModel(t: GraphTopology, view: GraphView, sizing: Sizing = { measure: estimateMeasure }): GraphModel {
  const { measure } = sizing;
  const agentW = (role: 'kubelet' | 'kube-proxy') =>
    fit(measure, 60, CARD_PAD - 2, [
      [AGENTS[role][0], 'agent'],
      [AGENTS[role][1], 'sub'],
      [AGENTS[role][2], 'sub'],
    ]);
  const kubeletW = agentW('kubelet');
  const proxyW = agentW('kube-proxy');
  const podName = (key: string) => key.slice(key.lastIndexOf('/') + 1);
  /**
   * A Pod name as wide as any sibling's: generateName's 5-character random suffix
   * (apimachinery's utilrand alphabet) measured as its widest letter, so a replacement Pod
   * with another suffix fits the same card and asks for no new layout.
   */
  const widestName = (name: string) => name.replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-mmmmm');
  /** Width of the Pod cards holding `pods` (one width per node: the column stays straight). */
  const podWidth = (pods: readonly PodEntry[]) => {
    let w = Math.max(measure(WIDE_IP, 'podName'), measure(WIDE_STATUS, 'podStatus') + 6 + measure('0/1', 'sub'));
    for (const p of pods) {
      w = Math.max(w, measure(widestName(podName(p.key)), 'podName'));
      if (p.owner) w = Math.max(w, measure(`▾ ${podName(p.owner)} ×${pods.length}`, 'groupName'));
    }
    return Math.max(POD_W, Math.ceil(w + POD_PAD));
  };
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
  const placeRows = (
    parentId: string,
    where: string,
    pods: readonly PodEntry[],
    x0: number,
    y0: number,
    perColumn: number,
    podW = podWidth(pods),
  ) => {
    const rows = podRows(pods, where, view.expanded);
    rows.forEach((r, i) => {
      const position = { x: x0 + Math.floor(i / perColumn) * (podW + 8), y: y0 + (i % perColumn) * POD_STEP };
      if (r.kind === 'pod') {
        addChild({ id: r.key, type: 'pod', parentId, position, width: podW, height: POD_H, data: { key: r.key } });
        shownAs.set(r.key, r.key);
      } else {
        addChild({
          id: r.id,
          type: 'podGroup',
          parentId,
          position,
          width: podW,
          height: POD_H,
          data: { id: r.id, owner: r.owner, keys: r.keys, expanded: r.expanded },
        });
        if (!r.expanded) for (const k of r.keys) shownAs.set(k, r.id);
      }
    });
    return rows.length;
  };
  const relay = (card: string, sh: string, th: string) =>
    edges.push({
      id: linkId(card),
      type: 'relay',
      source: card,
      target: APISERVER_CARD,
      sourceHandle: sh,
      targetHandle: th,
      data: { link: linkId(card) },
    });

  const podsByNode = new Map<string | null, PodEntry[]>();
  const known = new Set(t.nodes.map((n) => n.name));
  for (const p of t.pods) {
    const where = p.node !== null && known.has(p.node) ? p.node : null; // bound to an unknown node: unscheduled area
    (podsByNode.get(where) ?? podsByNode.set(where, []).get(where)!).push(p);
  }

  // top row: kubectl, then the control-plane node as a strip: row A etcd · kube-controller-manager
  // · kube-scheduler · coredns, row B kube-apiserver · kubelet · kube-proxy, then any Pods
  // tolerating its taint in columns of two
  nodes.push({
    id: KUBECTL_CARD,
    type: 'component',
    position: AT,
    width: KUBECTL_W,
    height: KUBECTL_H,
    data: { card: KUBECTL_CARD, title: 'kubectl', subtitle: 'you' },
  });
  block(KUBECTL_CARD, ROW.top, KUBECTL_W, KUBECTL_H);
  relay(KUBECTL_CARD, 'r', 'l');
  const cp = t.nodes.find((n) => n.controlPlane);
  const cpId = cp?.key ?? CP_GROUP;
  const cpIndex = nodes.length;
  const chip = (id: string, x: number, y: number, w: number, h: number, title: string, subtitle: string, tip?: string) =>
    addChild({
      id,
      type: 'component',
      parentId: cpId,
      position: { x, y },
      width: w,
      height: h,
      data: { card: id, title, subtitle, ...(tip ? { tip } : {}) },
    });
  const chipW = (min: number, title: string, subtitle: string) =>
    fit(measure, min, CARD_PAD, [
      [title, 'title'],
      [subtitle, 'sub'],
    ]);
  const apiserverW = chipW(APISERVER_W, 'kube-apiserver', 'authn · authz · admission');
  chip(APISERVER_CARD, APISERVER_X, STRIP_B_Y, apiserverW, 38, 'kube-apiserver', 'authn · authz · admission');
  let stripEnd = APISERVER_X + apiserverW;
  let ax = STRIP_X0;
  for (const [id, min, title, subtitle] of STRIP_CHIPS) {
    const w = chipW(min, title, subtitle);
    chip(id, ax, STRIP_A_Y, w, 38, title, subtitle, id === CONTROLLER_MANAGER_CARD ? CONTROLLERS.join(' · ') : undefined);
    relay(id, 'b', 't');
    ax += w + STRIP_GAP;
  }
  for (const name of sizing.userControllers ?? []) {
    const id = userControllerCard(name);
    const w = chipW(100, name, 'your controller');
    addChild({
      id,
      type: 'component',
      parentId: cpId,
      position: { x: ax, y: STRIP_A_Y },
      width: w,
      height: 38,
      data: { card: id, title: name, subtitle: 'your controller', user: true },
    });
    relay(id, 'b', 't');
    ax += w + STRIP_GAP;
  }
  stripEnd = Math.max(stripEnd, ax - STRIP_GAP);
  let cpColumns = 0;
  let cpPodW = POD_W;
  if (cp) {
    const kx = APISERVER_X + apiserverW + 20;
    for (const [id, role, x, w, sh, th] of [
      [kubeletCard(cp.name), 'kubelet', kx, kubeletW, 'l', 'r'],
      [kubeProxyCard(cp.name), 'kube-proxy', kx + kubeletW + 8, proxyW, 'b', 'r'],
    ] as const) {
      addChild({
        id,
        type: 'kubelet',
        parentId: cpId,
        position: { x, y: STRIP_B_Y + 3 },
        width: w,
        height: 32,
        data: { node: cp.name, role },
      });
      relay(id, sh, th);
    }
    stripEnd = Math.max(stripEnd, kx + kubeletW + 8 + proxyW);
    const cpPods = podsByNode.get(cp.name) ?? [];
    cpPodW = podWidth(cpPods);
    cpColumns = Math.ceil(placeRows(cpId, cp.name, cpPods, stripEnd + 18, STRIP_A_Y, 2, cpPodW) / 2);
  }
  const stripCore = stripEnd + 10;
  const cpW = stripCore + (cpColumns ? 8 + cpColumns * (cpPodW + 8) : 0);
  nodes.splice(cpIndex, 0, {
    id: cpId,
    type: 'nodeGroup',
    position: AT,
    width: cpW,
    height: STRIP_H,
    data: { key: cp?.key ?? '', name: cp?.name ?? 'control plane', controlPlane: true, width: cpW, height: STRIP_H },
  });
  block(cpId, ROW.top, cpW, STRIP_H);

  // the main row: worker nodes (and further control-plane nodes) in name order with their kubelet, kube-proxy and Pods; then the unscheduled area
  /** header: name, a gap, two mini buttons (power, remove: 26 px each, 6 px gaps); status line: the widest badge. */
  const headerW = (name: string) => 8 + measure(name, 'nodeName') + 6 + 26 + 6 + 26 + 10;
  for (const n of t.nodes) {
    // the first control-plane node is the strip; the others of an HA control plane are drawn as nodes
    if (n === cp) continue;
    const index = nodes.length;
    for (const [id, role, x, w] of [
      [kubeletCard(n.name), 'kubelet', 8, kubeletW],
      [kubeProxyCard(n.name), 'kube-proxy', 8 + kubeletW + 4, proxyW],
    ] as const) {
      addChild({
        id,
        type: 'kubelet',
        parentId: n.key,
        position: { x, y: NODE_AGENTS_Y },
        width: w,
        height: 30,
        data: { node: n.name, role },
      });
      relay(id, 't', 'b');
    }
    const pods = podsByNode.get(n.name) ?? [];
    const podW = podWidth(pods);
    const w = Math.max(NODE_W, 8 + podW + 8, 8 + kubeletW + 4 + proxyW + 8, headerW(n.name));
    const h = groupHeight(placeRows(n.key, n.name, pods, 8, NODE_PODS_Y, Infinity, podW));
    nodes.splice(index, 0, {
      id: n.key,
      type: 'nodeGroup',
      position: AT,
      width: w,
      height: h,
      data: { key: n.key, name: n.name, controlPlane: false, width: w, height: h },
    });
    block(n.key, ROW.nodes, w, h);
  }
  const unscheduled = podsByNode.get(null) ?? [];
  const areaIndex = nodes.length;
  const areaPodW = podWidth(unscheduled);
  const aRows = placeRows(UNSCHEDULED_AREA, 'unscheduled', unscheduled, 8, AREA_PODS_Y, Infinity, areaPodW);
  const areaTextW = Math.max(
    AREA_EMPTY_W,
    8 + measure('unscheduled', 'nodeName') + 6 + measure(String(unscheduled.length), 'badge') + 14 + 10,
    fit(measure, 0, 18, [['Pending, no node yet', 'sub']]),
  );
  const aw = aRows ? Math.max(NODE_W, areaTextW, 8 + areaPodW + 8) : areaTextW;
  const ah = aRows ? Math.max(AREA_PODS_Y + aRows * POD_STEP + 4, 120) : 60;
  nodes.splice(areaIndex, 0, {
    id: UNSCHEDULED_AREA,
    type: 'area',
    position: AT,
    width: aw,
    height: ah,
    data: { count: unscheduled.length, width: aw, height: ah },
  });
  block(UNSCHEDULED_AREA, ROW.nodes, aw, ah);

  // object cards, per layer; the cluster's own objects only with the system layer
  const system = on('system');
  const userOnly = <T extends { key: string }>(list: readonly T[]) => (system ? list : list.filter((o) => !isSystemObject(o.key)));
  const shown = new Set<string>();
  /** An object card's width: its kind label and name, and its summary lines (with room for their numbers to grow). */
  const objectWidth = (key: string, type: 'workload' | 'object') => {
    const name = key.slice(key.lastIndexOf('/') + 1);
    const text = sizing.cardText?.(key);
    const kindLabel = type === 'workload' ? (key.startsWith('Deployment/') ? 'DEPLOY' : 'RS') : (text?.kind ?? '').toUpperCase();
    const titleW = measure(`${kindLabel} `, 'kind') + measure(text?.name ?? name, 'title');
    const lines = type === 'workload' ? ['ready 88/88 · up-to-date 88'] : (text?.lines ?? []);
    const w = Math.max(titleW, ...lines.map((l) => measure(l, 'sub') + (/\d/.test(l) ? 12 : 0)));
    return Math.max(OBJ_W, Math.ceil(w + CARD_PAD + 4));
  };
  const card = (key: string, type: 'workload' | 'object', row: number) => {
    const w = objectWidth(key, type);
    nodes.push(
      type === 'workload'
        ? { id: key, type, position: AT, width: w, height: OBJ_H, data: { key } }
        : { id: key, type, position: AT, width: w, height: OBJ_H, data: { key } },
    );
    block(key, row, w, OBJ_H);
    shown.add(key);
  };
  // HPAs beside what they scale (placement.ts puts a same-row client left of its target), PVs and
  // StorageClasses beside their claims: fewer rows, so the graph fits a 1280×800 window
  if (on('autoscaling')) for (const h of userOnly(t.hpas)) card(h.key, 'object', ROW.owners);
  if (on('networking')) for (const i of userOnly(t.ingresses)) card(i.key, 'object', ROW.clients);
  if (on('workloads')) {
    for (const d of userOnly(t.deployments)) card(d.key, 'workload', ROW.owners);
    for (const w of userOnly(t.workloads)) card(w.key, 'object', w.key.startsWith('Job/') ? ROW.owned : ROW.owners);
  }
  if (on('networking')) for (const s of userOnly(t.services)) card(s.key, 'object', ROW.owners);
  if (on('workloads')) for (const rs of userOnly(t.replicaSets)) card(rs.key, 'workload', ROW.owned);
  if (on('networking'))
    for (const s of t.endpointSlices)
      if (system || (!isSystemObject(s.key) && !(s.service && isSystemObject(s.service)))) card(s.key, 'object', ROW.owned);
  if (on('storage')) {
    const pvcs = userOnly(t.pvcs);
    const used = new Set([...pvcs.map((c) => c.storageClass), ...t.pvs.map((v) => v.storageClass)]);
    for (const c of pvcs) card(c.key, 'object', ROW.claims);
    for (const v of t.pvs) card(v.key, 'object', ROW.claims);
    for (const c of t.storageClasses) if (system || used.has(c.key)) card(c.key, 'object', ROW.claims);
  }

  // object edges (only between cards that are drawn; Pods map to their group chip)
  const rowOf = new Map(blocks.map((b) => [b.id, b.row]));
  const seen = new Set<string>();
  const link = (rel: Rel, source: string | null | undefined, target: string | null | undefined) => {
    if (!source || !target) return;
    const id = rel === 'own' ? `own:${target}` : `${rel}:${source}>${target}`;
    if (seen.has(id)) return;
    seen.add(id);
    // into a Pod (or its group chip) inside a node: from the left, RelayEdge.tsx routes it down the gap beside the node
    const intoPod = childAt.has(target) && !childAt.has(source);
    // two cards of one row: side by side, source left of target (placement.ts)
    const sameRow = rowOf.get(source) !== undefined && rowOf.get(source) === rowOf.get(target);
    edges.push({
      id,
      type: 'owner',
      source,
      target,
      sourceHandle: sameRow ? 'r' : 'b',
      targetHandle: sameRow ? 'l' : intoPod ? 'l' : 't',
      className: `rel-${rel}`,
      data: { rel },
    });
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
