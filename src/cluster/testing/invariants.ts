/**
 * Cluster invariants under seeded random action sequences (issue 8 §4), shared by the CI
 * property test (invariants.test.ts, a small count) and `npm run soak` (src/cli/soak.ts).
 *
 * An action sequence mixes what a user does in the app: apply Deployments (random replicas,
 * maxSurge, maxUnavailable, image), scale, set image, kill / restore / add nodes, delete Pods,
 * and advance simulated time. {@link runSequence} plays it on a fresh cluster, checks
 * {@link checkStep} after every step, then stops the faults (restores every dead node), settles
 * and checks {@link checkConverged}. A violation is returned with the step log so that the
 * seed can be replayed.
 *
 * The rollout bounds, precisely (pkg/controller/deployment/util/deployment_util.go):
 * - MaxSurge(d) / MaxUnavailable(d) come from ResolveFenceposts: surge rounds up, unavailable
 *   rounds down, both percentages of spec.replicas; unavailable becomes 1 when both are 0,
 *   and MaxUnavailable is capped at spec.replicas.
 * - The deployment controller only guarantees them for its own actions: NewRSNewReplicas never
 *   scales the new ReplicaSet past `replicas + maxSurge` counted as the sum of the ReplicaSets'
 *   spec.replicas (GetReplicaCountForReplicaSets), and reconcileOldReplicaSets never scales an
 *   old ReplicaSet down below `replicas − maxUnavailable` available Pods. Faults (a dead node,
 *   a deleted Pod) and user changes mid-rollout (scale, a new strategy) legitimately break the
 *   bounds for a while: proportional scaling and a lowered maxSurge leave surplus in place.
 * So the checked property is: for a Deployment whose rollout started from a clean state (all
 * replicas available and updated, every node Ready, no fault since), with no fault, scale or
 * strategy change since, after the controller has observed the current generation:
 *   Σ ReplicaSet spec.replicas ≤ replicas + maxSurge,
 *   non-terminating Pods it owns (after each ReplicaSet observed its generation) ≤ replicas + maxSurge,
 *   Ready non-terminating Pods it owns ≥ replicas − maxUnavailable.
 */
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import type { SharedInformer } from '../client/informer';

/** One user action of a sequence. Indices are taken modulo what exists. */
export type Action =
  | { op: 'apply'; dep: number; replicas: number; maxSurge: number | string; maxUnavailable: number | string; tag: number }
  | { op: 'scale'; dep: number; replicas: number }
  | { op: 'setImage'; dep: number; tag: number }
  | { op: 'killNode'; node: number }
  | { op: 'restoreNode'; node: number }
  | { op: 'addNode' }
  | { op: 'deletePod'; pod: number }
  | { op: 'advance'; ms: number };

/** Result of one sequence: `violation` is undefined when every invariant held. */
export interface SequenceResult {
  violation?: string;
  /** One line per step, `#i action → outcome`, for the failure report. */
  log: string[];
}

/** Images the sequences roll between (all present in the simulated registry). */
export const TAGS = ['nginx:1.27', 'nginx:1.28', 'nginx:1.29'];
const DEPLOYMENTS = ['web-a', 'web-b', 'web-c'];
const MACHINES = 'machines.sim.kube-relay.dev';
/** The desired power of a node's Machine (spec.power): a kill is an API write the machine controller acts on a moment later. */
const power = (c: Cluster, node: string): string | undefined => c.get(MACHINES, '', node)?.spec?.power;
/** Upper bounds of "memory stays bounded" for these small clusters. */
export const BOUNDS = { objects: 400, events: 6_000, relayCapacity: 20_000 };

/** A violation found by a check (thrown inside {@link runSequence}, caught there). */
export class InvariantViolation extends Error {}

function manifest(a: Extract<Action, { op: 'apply' }>): string {
  const name = DEPLOYMENTS[a.dep % DEPLOYMENTS.length];
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: a.replicas,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: a.maxSurge, maxUnavailable: a.maxUnavailable } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: TAGS[a.tag % TAGS.length], resources: { requests: { cpu: '50m', memory: '16Mi' } } }] },
      },
    },
  });
}

/** getScaledValueFromIntOrPercent (k8s.io/apimachinery/pkg/util/intstr). */
function scaled(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const pct = Number(v.slice(0, -1));
  return roundUp ? Math.ceil((pct * total) / 100) : Math.floor((pct * total) / 100);
}

/** MaxSurge / MaxUnavailable of deployment_util.go, from the stored Deployment. */
export function fenceposts(d: KObject): { maxSurge: number; maxUnavailable: number } {
  const replicas = d.spec.replicas ?? 1;
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  const surge = scaled(ru.maxSurge ?? '25%', replicas, true);
  let unavailable = scaled(ru.maxUnavailable ?? '25%', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { maxSurge: surge, maxUnavailable: Math.min(unavailable, replicas) };
}

const isReady = (p: KObject): boolean =>
  (p.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
const terminating = (o: KObject): boolean => !!o.metadata.deletionTimestamp;
const controllerOf = (o: KObject): { kind: string; name: string; uid: string } | undefined =>
  (o.metadata.ownerReferences ?? []).find((r: { controller?: boolean }) => r.controller);

/** Per-run state the checks need: which Deployments are in an undisturbed rollout. */
export class Tracker {
  /** Deployment name → true when the rollout bounds are being checked for it. */
  clean = new Map<string, boolean>();
  /** resource/ns/name → simulated time of its last change (for informer lag). */
  lastChange = new Map<string, number>();
  constructor(readonly c: Cluster) {
    c.onChange((ch) => this.lastChange.set(`${ch.resource}/${ch.object.metadata.namespace ?? ''}/${ch.object.metadata.name}`, c.now()));
  }
  disturbAll(): void {
    for (const k of this.clean.keys()) this.clean.set(k, false);
  }
}

/** Applies one action; returns what happened, in words, for the log. */
export function applyAction(c: Cluster, t: Tracker, a: Action): string {
  const deps = () => c.list('deployments.apps', 'default');
  switch (a.op) {
    case 'apply': {
      const name = DEPLOYMENTS[a.dep % DEPLOYMENTS.length];
      const before = c.get('deployments.apps', 'default', name);
      const [r] = c.apply(manifest(a));
      if (
        before &&
        (before.spec.replicas !== a.replicas ||
          JSON.stringify(before.spec.strategy?.rollingUpdate) !==
            JSON.stringify({ maxSurge: a.maxSurge, maxUnavailable: a.maxUnavailable }))
      )
        t.clean.set(name, false);
      if (!before) t.clean.set(name, false);
      return r.message ?? `${r.object} ${r.action}`;
    }
    case 'scale': {
      const d = deps()[a.dep % Math.max(1, deps().length)];
      if (!d) return 'no deployment';
      t.clean.set(d.metadata.name, false);
      return kubectl(c, `scale deployment/${d.metadata.name} --replicas=${a.replicas}`);
    }
    case 'setImage': {
      const d = deps()[a.dep % Math.max(1, deps().length)];
      if (!d) return 'no deployment';
      return kubectl(c, `set image deployment/${d.metadata.name} app=${TAGS[a.tag % TAGS.length]}`);
    }
    case 'killNode': {
      const on = [...c.kubelets.values()].filter((k) => power(c, k.nodeName) === 'On' && k.nodeName !== 'control-plane');
      if (on.length <= 1) return 'kept the last worker';
      const k = on[a.node % on.length];
      t.disturbAll();
      c.killNode(k.nodeName);
      return `killed ${k.nodeName}`;
    }
    case 'restoreNode': {
      const off = [...c.kubelets.values()].filter((k) => power(c, k.nodeName) === 'Off');
      if (!off.length) return 'nothing to restore';
      const k = off[a.node % off.length];
      t.disturbAll();
      c.restoreNode(k.nodeName);
      return `restored ${k.nodeName}`;
    }
    case 'addNode': {
      const name = `node-${c.kubelets.size + 1}`;
      if (c.kubelets.has(name)) return 'exists';
      c.addNode({ name });
      return `added ${name}`;
    }
    case 'deletePod': {
      const pods = c.list('pods', 'default').filter((p) => !terminating(p));
      if (!pods.length) return 'no pod';
      const p = pods[a.pod % pods.length];
      const owner = p.metadata.labels?.app;
      if (owner) t.clean.set(owner, false);
      c.deletePod('default', p.metadata.name);
      return `deleted ${p.metadata.name}`;
    }
    case 'advance':
      c.advance(a.ms);
      return `t=${Math.round((c.now() - t0(c)) / 1000)} s`;
  }
}
function kubectl(c: Cluster, line: string): string {
  const r = c.kubectl(line);
  return (r.error ?? r.output).trim();
}
const startAt = new WeakMap<Cluster, number>();
const t0 = (c: Cluster): number => startAt.get(c) ?? 0;

function fail(msg: string): never {
  throw new InvariantViolation(msg);
}

function ownedPods(c: Cluster, rss: KObject[]): KObject[] {
  const uids = new Set(rss.map((r) => r.metadata.uid));
  return c.list('pods', 'default').filter((p) => uids.has(controllerOf(p)?.uid ?? ''));
}

/** The rollout bounds (see the file comment) for every Deployment in an undisturbed rollout. */
export function checkRolloutBounds(c: Cluster, t: Tracker): void {
  // a powered-off machine is a fault in effect even while its Node still reads Ready (the node
  // lifecycle controller notices only after the 50 s grace period): no rollout starts clean then
  const nodesReady = c.list('nodes').every((n) => isReady(n)) && c.list(MACHINES, '').every((m) => m.spec?.power !== 'Off');
  const rsAll = c.list('replicasets.apps', 'default');
  for (const d of c.list('deployments.apps', 'default')) {
    const name = d.metadata.name;
    const rss = rsAll.filter((r) => controllerOf(r)?.uid === d.metadata.uid);
    const pods = ownedPods(c, rss);
    const active = pods.filter((p) => !terminating(p));
    const observed = d.status?.observedGeneration === d.metadata.generation;
    const { maxSurge, maxUnavailable } = fenceposts(d);
    const replicas = d.spec.replicas ?? 1;
    const complete =
      observed &&
      d.status?.updatedReplicas === replicas &&
      d.status?.availableReplicas === replicas &&
      (d.status?.replicas ?? 0) === replicas;
    if (!t.clean.get(name)) {
      if (complete && nodesReady && active.length === replicas && active.every(isReady)) t.clean.set(name, true);
      continue;
    }
    if (!observed) continue;
    const specSum = rss.reduce((s, r) => s + (r.spec.replicas ?? 0), 0);
    if (specSum > replicas + maxSurge) fail(`${name}: Σ ReplicaSet spec.replicas ${specSum} > replicas ${replicas} + maxSurge ${maxSurge}`);
    if (rss.every((r) => r.status?.observedGeneration === r.metadata.generation) && active.length > replicas + maxSurge) {
      fail(`${name}: ${active.length} non-terminating Pods > replicas ${replicas} + maxSurge ${maxSurge}`);
    }
    const ready = active.filter(isReady).length;
    if (ready < replicas - maxUnavailable) fail(`${name}: ${ready} Ready Pods < replicas ${replicas} − maxUnavailable ${maxUnavailable}`);
  }
}

/** No object lost or duplicated: unique keys and uids; every Pod's controller exists or it is being deleted. */
export function checkIdentity(c: Cluster): void {
  const keys = new Set<string>();
  const uids = new Set<string>();
  const all = [...c.objects(), ...c.events()];
  for (const o of all) {
    const k = `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (keys.has(k)) fail(`duplicate object ${k}`);
    if (uids.has(o.metadata.uid ?? k)) fail(`duplicate uid ${o.metadata.uid} (${k})`);
    keys.add(k);
    uids.add(o.metadata.uid ?? k);
  }
  const rsByUid = new Map(c.list('replicasets.apps', 'default').map((r) => [r.metadata.uid, r]));
  const depByUid = new Map(c.list('deployments.apps', 'default').map((d) => [d.metadata.uid, d]));
  for (const r of rsByUid.values()) {
    const o = controllerOf(r);
    if (o && !depByUid.has(o.uid) && !terminating(r)) fail(`ReplicaSet ${r.metadata.name} owned by a missing Deployment ${o.name}`);
  }
  for (const p of c.list('pods', 'default')) {
    const o = controllerOf(p);
    if (!o) fail(`Pod ${p.metadata.name} has no controller`);
    if (!rsByUid.has(o.uid) && !terminating(p)) fail(`Pod ${p.metadata.name} owned by a missing ReplicaSet ${o.name}`);
  }
}

/** The informers whose caches are compared with the store (kube-controller-manager's). */
function watchedInformers(c: Cluster): [string, SharedInformer][] {
  const f = c.controllerManager.informers;
  return [
    ['pods', f.informerFor('', 'pods')],
    ['replicasets.apps', f.informerFor('apps', 'replicasets')],
    ['deployments.apps', f.informerFor('apps', 'deployments')],
    ['nodes', f.informerFor('', 'nodes')],
  ];
}

/**
 * Every watcher's view equals a fresh list: each informer's cache holds exactly the stored
 * objects at their stored resourceVersion, except objects changed within the watch latency
 * (their event is still in flight).
 */
export function checkInformers(c: Cluster, t: Tracker): void {
  const lagMs = c.timings.watchLatencyMs;
  for (const [resource, inf] of watchedInformers(c)) {
    const store = new Map(c.list(resource).map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));
    const cache = new Map(inf.list().map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));
    for (const k of new Set([...store.keys(), ...cache.keys()])) {
      if (store.get(k) === cache.get(k)) continue;
      const changed = t.lastChange.get(`${resource}/${k}`);
      if (changed !== undefined && c.now() - changed <= lagMs) continue;
      fail(`informer ${resource} ${k}: cache rv ${cache.get(k) ?? 'absent'} ≠ store rv ${store.get(k) ?? 'absent'}`);
    }
  }
}

/** Memory stays bounded: stored objects, Events and the relay buffer. */
export function checkBounded(c: Cluster): void {
  const objects = c.objects().length;
  const events = c.events().length;
  const hops = c.relay.all().length;
  if (objects > BOUNDS.objects) fail(`${objects} stored objects > ${BOUNDS.objects}`);
  if (events > BOUNDS.events) fail(`${events} Events > ${BOUNDS.events}`);
  if (hops > c.relay.capacity) fail(`relay holds ${hops} hops > capacity ${c.relay.capacity}`);
}

/** All invariants that must hold after every step. */
export function checkStep(c: Cluster, t: Tracker): void {
  checkIdentity(c);
  checkRolloutBounds(c, t);
  checkInformers(c, t);
  checkBounded(c);
}

/**
 * After faults stop (every node restored) and the cluster settled: every Deployment is
 * complete — its new ReplicaSet has spec.replicas Ready, Running Pods with the Deployment's
 * image, old ReplicaSets are at 0, no Pod is left terminating, and no Pod is orphaned.
 */
export function checkConverged(c: Cluster): void {
  const rsAll = c.list('replicasets.apps', 'default');
  for (const d of c.list('deployments.apps', 'default')) {
    const name = d.metadata.name;
    const replicas = d.spec.replicas ?? 1;
    const image = d.spec.template.spec.containers[0].image;
    if (d.status?.observedGeneration !== d.metadata.generation)
      fail(`${name}: observedGeneration ${d.status?.observedGeneration} ≠ generation ${d.metadata.generation}`);
    for (const f of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'] as const) {
      if ((d.status?.[f] ?? 0) !== replicas) fail(`${name}: status.${f} ${d.status?.[f] ?? 0} ≠ spec.replicas ${replicas}`);
    }
    const rss = rsAll.filter((r) => controllerOf(r)?.uid === d.metadata.uid);
    const current = rss.filter((r) => r.spec.template.spec.containers[0].image === image);
    if (current.length !== 1) fail(`${name}: ${current.length} ReplicaSets with image ${image}`);
    for (const r of rss)
      if (r !== current[0] && (r.spec.replicas ?? 0) !== 0)
        fail(`${name}: old ReplicaSet ${r.metadata.name} still has ${r.spec.replicas} replicas`);
    const pods = ownedPods(c, rss);
    const good = pods.filter((p) => !terminating(p) && isReady(p) && p.status?.phase === 'Running' && p.spec.containers[0].image === image);
    if (good.length !== replicas || pods.length !== replicas) {
      const seen = pods.map(
        (p) =>
          `${p.metadata.name} on ${p.spec.nodeName ?? '(unscheduled)'} ${p.status?.phase}${terminating(p) ? ' terminating' : ''}${isReady(p) ? ' Ready' : ''}`,
      );
      fail(`${name}: ${good.length} Ready Running Pods with ${image} of ${pods.length} Pods, want ${replicas} (${seen.join('; ')})`);
    }
  }
  for (const p of c.list('pods', 'default')) if (terminating(p)) fail(`Pod ${p.metadata.name} still terminating after settle`);
}

/** How long the final settle may take (simulated): eviction 300 s + back-offs, with room. */
export const SETTLE_LIMIT_MS = 30 * 60_000;

/**
 * Plays `actions` on a fresh 3-worker cluster seeded with `seed`, checking after every step;
 * then restores every dead node, settles and checks convergence and bounds.
 */
export function runSequence(seed: number, actions: Action[]): SequenceResult {
  const log: string[] = [];
  const c = new Cluster({ seed, relayCapacity: BOUNDS.relayCapacity });
  startAt.set(c, c.now());
  const t = new Tracker(c);
  try {
    actions.forEach((a, i) => {
      const out = applyAction(c, t, a);
      log.push(`#${i} ${JSON.stringify(a)} → ${out}`);
      checkStep(c, t);
    });
    for (const k of c.kubelets.values()) if (power(c, k.nodeName) === 'Off') c.restoreNode(k.nodeName);
    log.push('restore every node; settle');
    const quiet = c.settle(SETTLE_LIMIT_MS);
    if (!quiet) fail(`no quiet within ${SETTLE_LIMIT_MS / 60_000} min of settle`);
    checkStep(c, t);
    checkConverged(c);
    return { log };
  } catch (e) {
    if (e instanceof InvariantViolation) return { violation: e.message, log };
    return { violation: `uncaught: ${(e as Error).stack ?? String(e)}`, log };
  }
}
