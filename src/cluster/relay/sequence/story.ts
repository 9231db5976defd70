/**
 * The relay's default view (pure): the story of the latest user action, as the seed's sequence
 * diagram tells `kubectl apply → Pod` — the action's own hops (kubectl → kube-apiserver →
 * etcd…), then every hop they caused, transitively (RelayHop.cause), grouped per
 * reconciliation under its controller's note. Background (Lease renewals, node status,
 * resyncs, churn nobody's action caused) is not part of it.
 *
 * Folding, so that a story reads like the seed's diagram:
 * - a watch event the apiserver delivered to several informers (one hop per watcher, the same
 *   cause, verb, object and resourceVersion) is drawn once: to the first watcher that acted on
 *   it, naming the others ({@link DrawnHop.watchers}); in the story, a delivery no watcher
 *   acted on is left out;
 * - the same reaction of one per-node agent on every node (kube-proxy's "synced 39 rules")
 *   is drawn once on a `kube-proxy ×4` lane;
 * - in the story, kubelet ↔ containerd calls are drawn on the kubelet's own lane (the seed's
 *   "kubelet: image pull → container start"), so a node costs one lane.
 */
import type { ActionStory, RelayHop } from '../relay-event';
import { hopObject } from './hop-object';

/** A hop as the diagram draws it: possibly standing for several hops of the relay. */
export interface DrawnHop extends RelayHop {
  /** A folded watch event: every informer it was delivered to, in delivery order. */
  watchers?: string[];
  /** Of {@link watchers}, those that acted on it (a later hop names the delivery as its cause). */
  acting?: string[];
  /** A folded per-node reaction: the participants that each did the same (`kube-proxy/node-1`…). */
  actors?: string[];
  /** seqs of every relay hop this drawn hop stands for (itself first). */
  folded?: number[];
}

/** Per-node agents (docs/architecture.md#relay-participants: `kubelet/NODE`, `kube-proxy/NODE`, `containerd/NODE`). */
const PER_NODE = /^(kubelet|kube-proxy|containerd)\/(.+)$/;

/**
 * Whether `h` belongs to `story`, given `members` (the seqs of its hops seen so far, `h`'s
 * predecessors in seq order): recorded while the action ran (seq…endSeq), caused by one of the
 * story's hops, or a reconciliation's note (a decision or note hop) about one of its subjects.
 * The one rule of {@link storyHops} and of the incremental membership (story-keep.ts).
 */
export function inStory(h: RelayHop, story: ActionStory, members: ReadonlySet<number>): boolean {
  if (h.seq < story.seq) return false;
  if (h.seq <= story.endSeq || (h.cause !== null && members.has(h.cause))) return true;
  const subjects = story.subjects;
  if (!subjects.length || h.note === undefined || (h.kind !== 'decision' && h.kind !== 'note')) return false;
  const o = hopObject(h);
  return o !== null && subjects.some((s) => s.resource === o.resource && s.namespace === o.namespace && s.name === o.name);
}

/**
 * The hops of `story`, oldest first: those recorded while the action ran (seq…endSeq), every
 * later hop whose cause is one of the story's (transitively), and the reconciliations (a
 * decision or note hop opening one) about one of the story's subjects, with what they caused.
 * Hops before `story.seq` are never part of it. See {@link inStory}.
 */
export function storyHops(hops: readonly RelayHop[], story: ActionStory): RelayHop[] {
  const members = new Set<number>();
  const out: RelayHop[] = [];
  for (const h of hops) {
    if (!inStory(h, story, members)) continue;
    members.add(h.seq);
    out.push(h);
  }
  return out;
}

/** What identifies one watch event across its deliveries. */
function watchKey(h: RelayHop): string {
  return `${h.cause ?? ''}\u0000${h.verb ?? ''}\u0000${h.resource ?? ''}\u0000${h.namespace ?? ''}\u0000${h.name ?? ''}\u0000${h.resourceVersion ?? ''}\u0000${h.summary}`;
}

/** `kube-proxy ×4` for several per-node agents of one kind, else null. */
function laneOfMany(names: readonly string[]): string | null {
  if (names.length < 2) return null;
  const m = names.map((n) => PER_NODE.exec(n));
  const comp = m[0]?.[1];
  if (!comp || m.some((x) => x?.[1] !== comp)) return null;
  return `${comp} ×${names.length}`;
}

/**
 * Draws each watch event once (see the module comment). `causes` is the set of seqs some hop
 * names as its cause (what acted). With `onlyActed`, deliveries nobody acted on are dropped.
 * Returns the drawn hops in relay order (a folded event at its first delivery) and, per
 * folded delivery seq, the seq of the drawn hop standing for it.
 */
export function foldWatches(
  hops: readonly RelayHop[],
  causes: ReadonlySet<number>,
  onlyActed: boolean,
): { hops: DrawnHop[]; drawnAs: Map<number, number> } {
  const groups = new Map<string, RelayHop[]>();
  for (const h of hops) {
    if (h.kind !== 'watch') continue;
    const k = watchKey(h);
    const g = groups.get(k);
    if (g) g.push(h);
    else groups.set(k, [h]);
  }
  const out: DrawnHop[] = [];
  const drawnAs = new Map<number, number>();
  const done = new Set<string>();
  for (const h of hops) {
    if (h.kind !== 'watch') {
      out.push(h);
      continue;
    }
    const k = watchKey(h);
    if (done.has(k)) continue;
    done.add(k);
    const g = groups.get(k)!;
    const acted = g.filter((d) => causes.has(d.seq));
    if (onlyActed && !acted.length) continue;
    const rep = acted[0] ?? g[0];
    // a per-node agent acting alike on every node: the arrow goes to its "kube-proxy ×4" lane
    const comp = PER_NODE.exec(rep.to)?.[1];
    const many = comp ? laneOfMany(acted.map((d) => d.to).filter((t) => PER_NODE.exec(t)?.[1] === comp)) : null;
    const drawn: DrawnHop = {
      ...rep,
      seq: rep.seq,
      to: many ?? rep.to,
      watchers: g.map((d) => d.to),
      acting: acted.map((d) => d.to),
      folded: g.map((d) => d.seq),
    };
    for (const d of g) drawnAs.set(d.seq, rep.seq);
    out.push(drawn);
  }
  return { hops: out, drawnAs };
}

/**
 * Draws once what every per-node agent of one kind did alike in reaction to one folded watch
 * event (the same kind and text, e.g. four kube-proxies' "synced 39 rules …"): on one
 * `kube-proxy ×N` lane. `drawnAs` maps a delivery to the drawn hop standing for it.
 */
export function foldPerNodeReactions(hops: readonly DrawnHop[], drawnAs: ReadonlyMap<number, number>): DrawnHop[] {
  const keyOf = (h: DrawnHop): string | null => {
    if (h.from !== h.to || h.cause === null || !drawnAs.has(h.cause)) return null;
    const m = PER_NODE.exec(h.from);
    return m ? `${drawnAs.get(h.cause)}\u0000${m[1]}\u0000${h.kind}\u0000${h.summary}` : null;
  };
  const groups = new Map<string, DrawnHop[]>();
  for (const h of hops) {
    const k = keyOf(h);
    if (k === null) continue;
    const g = groups.get(k);
    if (g) g.push(h);
    else groups.set(k, [h]);
  }
  const out: DrawnHop[] = [];
  const done = new Set<string>();
  for (const h of hops) {
    const k = keyOf(h);
    if (k === null) {
      out.push(h);
      continue;
    }
    if (done.has(k)) continue;
    done.add(k);
    const g = groups.get(k)!;
    const lane = laneOfMany(g.map((x) => x.from));
    out.push(lane ? { ...h, from: lane, to: lane, actors: g.map((x) => x.from), folded: g.map((x) => x.seq) } : h);
  }
  return out;
}

/**
 * A kubelet ↔ containerd call drawn on the kubelet's own lane (a self-arrow whose text names
 * containerd), so that a node costs the story one lane; other hops as they are.
 */
export function ontoKubeletLane(h: DrawnHop): DrawnHop {
  const f = PER_NODE.exec(h.from);
  const t = PER_NODE.exec(h.to);
  if (!f || !t || f[2] !== t[2]) return h;
  if (f[1] === 'kubelet' && t[1] === 'containerd') return { ...h, to: h.from, summary: `→ containerd: ${h.summary}` };
  if (f[1] === 'containerd' && t[1] === 'kubelet') return { ...h, from: h.to, summary: `containerd: ${h.summary}` };
  return h;
}

/**
 * Puts each reconciliation's hops together at the place of its first one (its note heads the
 * block); every other hop keeps its order. Causality is kept: a hop caused by a block's write
 * comes after the whole block.
 */
export function groupByReconciliation<T extends RelayHop>(hops: readonly T[]): T[] {
  const byId = new Map<number, T[]>();
  for (const h of hops) {
    if (h.reconcile === undefined) continue;
    const g = byId.get(h.reconcile);
    if (g) g.push(h);
    else byId.set(h.reconcile, [h]);
  }
  if (!byId.size) return hops.slice();
  const out: T[] = [];
  const emitted = new Set<number>();
  for (const h of hops) {
    if (h.reconcile === undefined) out.push(h);
    else if (!emitted.has(h.reconcile)) {
      emitted.add(h.reconcile);
      out.push(...byId.get(h.reconcile)!);
    }
  }
  return out;
}

/**
 * Folds a successful response into the request it answers (story view): `create Pod
 * default/peekcart-57f6cd6664-<generated> → 201` names the generated Pod, a containerd call
 * reads `PullImage … → image … (sha256:…)`. A response to kubectl stays an arrow of its own
 * (kubectl's part ends there: the seed's "created ✓"), and so does every error (4xx, 5xx).
 */
export function foldResponses(hops: readonly DrawnHop[]): DrawnHop[] {
  const at = new Map<number, number>();
  const out: DrawnHop[] = [];
  for (const h of hops) {
    const qi = h.kind === 'response' && h.cause !== null ? at.get(h.cause) : undefined;
    const q = qi === undefined ? undefined : out[qi];
    const status = /^(\d{3}) /.exec(h.summary)?.[1];
    const ok = status === undefined || status.startsWith('2');
    if (q && q.kind === 'request' && q.from === h.to && q.to === h.from && h.to !== 'kubectl' && ok) {
      let summary = q.summary;
      if (h.name && summary.includes('<generated>'))
        summary = summary.replace(/\S*<generated>/, `${h.namespace ? `${h.namespace}/` : ''}${h.name}`);
      out[qi!] = { ...q, summary: `${summary} → ${status ?? h.summary}`, folded: [...(q.folded ?? [q.seq]), h.seq] };
      continue;
    }
    if (h.kind === 'request') at.set(h.seq, out.length);
    out.push(h);
  }
  return out;
}

/** Every seq some hop names as its cause. */
export function causesOf(hops: readonly RelayHop[]): Set<number> {
  const s = new Set<number>();
  for (const h of hops) if (h.cause !== null) s.add(h.cause);
  return s;
}
