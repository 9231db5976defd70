/**
 * Pure reducers: (state, worker batch) → the next state's changed fields. Collections are
 * replaced, never mutated (STYLE.md Part D §7), so subscribers see every change by identity.
 */
import type { ObjectChangeMsg, TickBatch } from '../../worker/protocol';
import { linkOfHop } from '../graph/participants';
import type { KubeState } from './store';
import { RELAY_CAP } from './slices/relay';
import { EMPTY_TOPOLOGY } from './slices/resources';
import type { GraphTopology, KObject, Pulse, StoredObject } from './types';

/** Events the UI keeps (oldest dropped first). */
export const EVENTS_CAP = 1_000;

const GRAPH_KINDS = new Set(['Node', 'Pod', 'ReplicaSet', 'Deployment']);

function ownerKey(o: KObject): string | null {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller);
  if (!ref) return null;
  return o.metadata.namespace ? `${ref.kind}/${o.metadata.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}

function isControlPlane(n: KObject): boolean {
  return n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined;
}

/** The graph's shape, from all objects. */
export function computeTopology(objects: Map<string, StoredObject>): GraphTopology {
  const t: GraphTopology = { nodes: [], pods: [], replicaSets: [], deployments: [] };
  for (const { key, object: o } of objects.values()) {
    switch (o.kind) {
      case 'Node':
        t.nodes.push({ key, name: o.metadata.name, controlPlane: isControlPlane(o) });
        break;
      case 'Pod':
        t.pods.push({ key, node: (o.spec?.nodeName as string | undefined) || null, owner: ownerKey(o) });
        break;
      case 'ReplicaSet':
        t.replicaSets.push({ key, owner: ownerKey(o) });
        break;
      case 'Deployment':
        t.deployments.push({ key });
        break;
    }
  }
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  t.nodes.sort((a, b) => Number(b.controlPlane) - Number(a.controlPlane) || a.name.localeCompare(b.name, 'en', { numeric: true }));
  t.pods.sort(byKey);
  t.replicaSets.sort(byKey);
  t.deployments.sort(byKey);
  return t;
}

/** Whether a change can move, add or remove a card of the graph. */
function touchesTopology(c: ObjectChangeMsg, prev: StoredObject | undefined): boolean {
  if (!GRAPH_KINDS.has(c.object.kind)) return false;
  if (c.type !== 'MODIFIED' || !prev) return true;
  const a = prev.object;
  const b = c.object;
  if (a.kind === 'Pod' && a.spec?.nodeName !== b.spec?.nodeName) return true;
  if (a.kind === 'Node' && isControlPlane(a) !== isControlPlane(b)) return true;
  return ownerKey(a) !== ownerKey(b);
}

/** Folds one worker batch into the state; returns only the fields that change. */
export function reduceBatch(s: KubeState, b: TickBatch): Partial<KubeState> {
  // A reset batch replaces everything (also the first batch of a restarted worker, whose
  // generations count from 1 again); a delta is only valid for the generation it belongs to.
  if (!b.reset && b.gen !== s.gen) return {};
  const out: Partial<KubeState> = {
    gen: b.gen,
    simMs: b.simMs,
    startMs: b.startMs,
    running: b.running,
    speed: b.speed,
    profile: b.profile,
  };
  if (b.applySeq !== s.applySeq) out.applySeq = b.applySeq;
  if (b.fault && s.notice !== `engine stopped: ${b.fault}`) out.notice = `engine stopped: ${b.fault}`;
  if (b.deadlines.length || s.deadlines.length) out.deadlines = b.deadlines;

  // objects
  if (b.reset || b.changes.length) {
    const objects = b.reset ? new Map<string, StoredObject>() : new Map(s.objects);
    let topo = b.reset;
    for (const c of b.changes) {
      const prev = objects.get(c.key);
      if (!topo && touchesTopology(c, prev)) topo = true;
      if (c.type === 'DELETED') objects.delete(c.key);
      else objects.set(c.key, { key: c.key, resource: c.resource, object: c.object, row: c.row, controllers: c.controllers });
    }
    out.objects = objects;
    if (topo) out.topology = objects.size ? computeTopology(objects) : EMPTY_TOPOLOGY;
    if (s.selected && !objects.has(s.selected)) out.selected = null;
  }

  // events
  if (b.reset || b.events.length) {
    const events = b.reset ? new Map<string, KObject>() : new Map(s.events);
    for (const c of b.events) {
      if (c.type === 'DELETED') events.delete(c.key);
      else {
        events.delete(c.key); // re-insert: Map order = last written
        events.set(c.key, c.object);
      }
    }
    while (events.size > EVENTS_CAP) events.delete(events.keys().next().value as string);
    out.events = events;
  }

  // relay
  if (b.reset || b.hops.length) {
    const base = b.reset ? [] : s.hops;
    const hops = base.length + b.hops.length > RELAY_CAP ? [...base, ...b.hops].slice(-RELAY_CAP) : base.concat(b.hops);
    out.hops = hops;
    const pulses: Record<string, Pulse> = { ...(b.reset ? {} : s.pulses) };
    for (const h of b.hops) {
      if (h.category === 'heartbeat') continue;
      const l = linkOfHop(h.from, h.to);
      if (l) pulses[l.link] = { seq: h.seq, toApiserver: l.toApiserver, summary: h.summary };
    }
    out.pulses = pulses;
  }
  return out;
}
