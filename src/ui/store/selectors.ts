/**
 * Module-level selectors (stable function identities, docs/style.md#ui-state). Per-item
 * selectors are factories memoized per key, so each card subscribes to its own object only.
 */
import type { KubeState } from './store';
import type { Deadline, StoredObject } from './types';
import { formatCountdown } from '../format';

export const selectApplying = (s: KubeState) => s.applying;
export const selectApplyResults = (s: KubeState) => s.results;
export const selectNotice = (s: KubeState) => s.notice;
export const selectTopology = (s: KubeState) => s.topology;
export const selectObjects = (s: KubeState) => s.objects;
export const selectEvents = (s: KubeState) => s.events;
export const selectHops = (s: KubeState) => s.hops;
export const selectSequenceOptions = (s: KubeState) => s.sequence;
export const selectSelected = (s: KubeState) => s.selected;
export const selectSimMs = (s: KubeState) => s.simMs;
export const selectStartMs = (s: KubeState) => s.startMs;
/** Simulated now (epoch seconds): changes at most once per simulated second. */
export const selectNowSec = (s: KubeState) => Math.floor((s.startMs + s.simMs) / 1000);
export const selectRunning = (s: KubeState) => s.running;
export const selectSpeed = (s: KubeState) => s.speed;
export const selectDeadlines = (s: KubeState) => s.deadlines;
export const selectProfile = (s: KubeState) => s.profile;
export const selectConnection = (s: KubeState) => s.connection;

function memoByKey<T>(make: (key: string) => (s: KubeState) => T): (key: string) => (s: KubeState) => T {
  const cache = new Map<string, (s: KubeState) => T>();
  return (key) => {
    let f = cache.get(key);
    if (!f) {
      f = make(key);
      cache.set(key, f);
    }
    return f;
  };
}

/** The stored object under `key` (undefined once deleted). */
export const selectObject = memoByKey(
  (key) =>
    (s: KubeState): StoredObject | undefined =>
      s.objects.get(key),
);

/** The latest relay pulse along a graph link. */
export const selectPulse = memoByKey((link) => (s: KubeState) => s.pulses[link]);

/** Deadlines still ahead (a countdown at 0:00 says nothing), earliest first. */
function futureDeadlines(s: KubeState): Deadline[] {
  const now = s.startMs + s.simMs;
  return s.deadlines.filter((d) => d.at > now);
}

/**
 * The earliest deadline about a node as "<what> in m:ss": the node's own (grace period) or
 * the taint eviction of a Pod bound to it ("eviction in 4:12"). A Pod's other deadlines
 * (probes, back-offs) are the Pod's, not the node's. Null when none.
 */
export const selectNodeDeadline = memoByKey((node) => (s: KubeState): string | null => {
  const now = s.startMs + s.simMs;
  for (const d of futureDeadlines(s)) {
    if (d.object === `Node/${node}` || d.label.startsWith(`${node}: `))
      return `${d.label.replace(`${node}: `, '')} in ${formatCountdown(d.at - now)}`;
    // tainteviction.ts labels its timers "taint eviction of NS/NAME at Ns"
    if (d.label.startsWith('taint eviction') && s.topology.pods.some((p) => p.key === d.object && p.node === node))
      return `eviction in ${formatCountdown(d.at - now)}`;
  }
  return null;
});

/** The earliest deadline still ahead as "<what> in m:ss", or null. */
export const selectNextDeadline = (s: KubeState): string | null => {
  const d = futureDeadlines(s)[0];
  return d ? `${d.label} in ${formatCountdown(d.at - (s.startMs + s.simMs))}` : null;
};
/** Every deadline still ahead, one per line (the countdown's tooltip). */
export const selectDeadlineList = (s: KubeState): string =>
  futureDeadlines(s)
    .map((d) => `${d.label} in ${formatCountdown(d.at - (s.startMs + s.simMs))}`)
    .join('\n');
export const selectMoreDeadlines = (s: KubeState) => Math.max(0, futureDeadlines(s).length - 1);
export const selectEventCount = (s: KubeState) => s.events.size;

/** Whether a node's machine is powered off (its Machine's `spec.power`, docs/architecture.md#machines). */
export const selectPoweredOffNode = memoByKey((node) => (s: KubeState) => s.objects.get(`Machine/${node}`)?.object.spec?.power === 'Off');

/**
 * The instances of a leader-elected component (`kube-controller-manager`, `kube-scheduler`),
 * one per control-plane node, as `node:role` words joined by spaces (a string, so the card
 * re-renders only when a role changes): `leader` for the node in the holderIdentity
 * (`<node>_<uuid>`) of the Lease `kube-system/<component>`, `down` for a node whose machine is
 * off, `standby` for the others. A leader whose machine is off reads `down` while its Lease
 * has not yet expired. '' before the Lease exists.
 */
export const selectLeaderInstances = memoByKey((component) => (s: KubeState): string => {
  const holder = s.objects.get(`Lease/kube-system/${component}`)?.object.spec?.holderIdentity;
  if (typeof holder !== 'string') return '';
  const cut = holder.lastIndexOf('_');
  const leader = cut < 0 ? holder : holder.slice(0, cut);
  const words: string[] = [];
  for (const n of s.topology.nodes) {
    if (!n.controlPlane) continue;
    const off = s.objects.get(`Machine/${n.name}`)?.object.spec?.power === 'Off';
    words.push(`${n.name}:${off ? 'down' : n.name === leader ? 'leader' : 'standby'}`);
  }
  if (!s.topology.nodes.some((n) => n.name === leader)) words.push(`${leader}:leader`);
  return words.join(' ');
});
