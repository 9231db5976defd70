/**
 * GarbageCollector: deletes objects whose owners are gone, and carries out foreground and
 * orphan deletion, after kubernetes/kubernetes pkg/controller/garbagecollector
 * (garbagecollector.go: attemptToDeleteItem, processDeletingDependentsItem,
 * orphanDependents; graph_builder.go: the owner→dependents graph fed by informers).
 *
 * - Background: an object whose every owner is gone (absent, or a different uid) is deleted
 *   with propagationPolicy Background (or the policy its own finalizers ask for).
 * - Foreground: an owner with deletionTimestamp and the `foregroundDeletion` finalizer is
 *   "deleting dependents": its dependents that block owner deletion are deleted (those with
 *   dependents of their own in the foreground too); when none is left the finalizer is removed
 *   and the apiserver removes the owner.
 * - Orphan: an owner with deletionTimestamp and the `orphan` finalizer gets its
 *   ownerReferences stripped from every dependent, then the finalizer removed.
 *
 * The graph covers the kinds in {@link GC_RESOURCES}; add a kind by listing it there. Owners
 * that are not in the graph are checked with a live GET, as upstream's isDangling does.
 * Relay participant `garbage-collector-controller`; it authenticates as the
 * `generic-garbage-collector` service account, as upstream.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { Client } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { parseApiVersion, type ResourceInfo } from '../api/resources';
import type { OwnerReference } from '../api/types';
import type { APIObject, CustomResourceDefinition } from '../api/objects';
import { isNotFound, plural, recordDecision } from './controller-utils';
import { patchObject } from './controller-ref-manager';

/** Relay participant of the garbage collector. */
export const GarbageCollectorName = 'garbage-collector-controller';

/** metav1.FinalizerDeleteDependents and metav1.FinalizerOrphanDependents. */
export const FinalizerDeleteDependents = 'foregroundDeletion';
export const FinalizerOrphanDependents = 'orphan';

/** The (group, resource) pairs the collector watches. */
export const GC_RESOURCES: [string, string][] = [
  ['', 'pods'],
  ['apps', 'replicasets'],
  ['', 'replicationcontrollers'],
  ['apps', 'deployments'],
  ['apps', 'statefulsets'],
  ['apps', 'daemonsets'],
  ['apps', 'controllerrevisions'],
  ['batch', 'jobs'],
  ['batch', 'cronjobs'],
  ['', 'services'],
  ['discovery.k8s.io', 'endpointslices'],
  ['', 'configmaps'],
  ['', 'secrets'],
  ['', 'persistentvolumeclaims'],
];

/** A graph node: one observed object (of any kind: the collector handles every resource, so APIObject). */
interface GraphNode {
  uid: string;
  info: ResourceInfo;
  obj: APIObject;
}

const hasFinalizer = (o: APIObject, f: string) => (o.metadata.finalizers ?? []).includes(f);
const isDeletingDependents = (o: APIObject) => !!o.metadata.deletionTimestamp && hasFinalizer(o, FinalizerDeleteDependents);
function sameRefs(a: OwnerReference[] | undefined, b: OwnerReference[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i].uid !== y[i].uid || !!x[i].blockOwnerDeletion !== !!y[i].blockOwnerDeletion) return false;
  return true;
}
const describe = (n: { info: ResourceInfo; obj: APIObject }) =>
  `${n.info.kind} ${n.obj.metadata.namespace ? `${n.obj.metadata.namespace}/` : ''}${n.obj.metadata.name}`;

export class GarbageCollector {
  readonly name = GarbageCollectorName;
  readonly queue: RateLimitingQueue;
  private readonly client: Client;
  /** uid → node */
  private readonly nodes = new Map<string, GraphNode>();
  /** owner uid → dependent uids */
  private readonly dependents = new Map<string, Set<string>>();
  /** informers of the watched kinds, by "group/resource" (owner lookups read their caches) */
  private readonly informers = new Map<string, SharedInformer<APIObject>>();

  /**
   * Registers handlers for every resource in {@link GC_RESOURCES} on the shared factory, and
   * monitors the kinds of established CustomResourceDefinitions as they come (graph_builder.go
   * syncMonitors: upstream finds them through discovery), so that the dependents of a custom
   * resource (a user controller's Deployment owned by a Website) are collected when it goes.
   */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly factory: SharedInformerFactory,
    resources: [string, string][] = GC_RESOURCES,
  ) {
    this.client = ctx.client({ ...users.controller('generic-garbage-collector'), participant: GarbageCollectorName });
    this.queue = new RateLimitingQueue('garbage-collector', ctx.clock, ctx.relay, (key) => this.process(key));
    for (const [group, resource] of resources) this.monitor(group, resource, false);
    const crds = factory.informerFor<CustomResourceDefinition>('apiextensions.k8s.io', 'customresourcedefinitions');
    crds.addCacheListener((_k, _old, crd) => {
      const spec = crd?.spec;
      const established = crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      if (spec?.group && spec.names?.plural && established) this.monitor(spec.group, spec.names.plural, true);
    });
  }

  /** Watches one resource into the graph (once); `start`: its informer starts now (the factory already did the others). */
  private monitor(group: string, resource: string, start: boolean): void {
    if (this.informers.has(`${group}/${resource}`)) return;
    if (start && !this.client.restMapper.forResource(group, resource)) return;
    {
      const inf = this.factory.informerFor<APIObject>(group, resource);
      const info = inf.info;
      this.informers.set(`${group}/${resource}`, inf);
      inf.addEventHandler({
        participant: GarbageCollectorName,
        // only objects that take part in ownership are interesting
        filter: (o) => !!o.metadata.ownerReferences?.length || this.dependents.has(o.metadata.uid ?? '') || !!o.metadata.deletionTimestamp,
        onAdd: (o) => this.observe(info, o, undefined),
        onUpdate: (old, o) => this.observe(info, o, old),
        onDelete: (o) => this.forget(o),
      });
      // a CRD established after the start: list and watch it from now (its informer is new)
      if (start) inf.start();
    }
  }

  /** Holds the work queue (kube-controller-manager paused); keys still collect. */
  pause(): void {
    this.queue.paused = true;
  }

  /** Releases the work queue; held keys are processed. */
  resume(): void {
    this.queue.resume();
  }

  /** Re-examines every object with owners (a resync). */
  resync(): void {
    for (const n of this.nodes.values()) if (n.obj.metadata.ownerReferences?.length) this.queue.add(`delete:${n.uid}`);
  }

  // ---- graph builder -------------------------------------------------------------------------

  private observe(info: ResourceInfo, o: APIObject, old: APIObject | undefined): void {
    const uid = o.metadata.uid ?? '';
    const known = this.nodes.get(uid);
    const prev = known?.obj ?? old;
    // fast path (processGraphChanges): an update that changes neither references nor deletion state
    if (known && !o.metadata.deletionTimestamp && sameRefs(prev?.metadata.ownerReferences, o.metadata.ownerReferences)) {
      known.obj = o;
      return;
    }
    this.nodes.set(uid, { uid, info, obj: o });
    const before = new Set((prev?.metadata.ownerReferences ?? []).map((r) => r.uid));
    const after = new Set((o.metadata.ownerReferences ?? []).map((r) => r.uid));
    for (const r of before) {
      if (after.has(r)) continue;
      this.dependents.get(r)?.delete(uid);
      // a removed reference may unblock an owner waiting in the foreground
      const owner = this.nodes.get(r);
      if (owner && isDeletingDependents(owner.obj)) this.queue.add(`delete:${r}`);
    }
    for (const r of after) {
      let s = this.dependents.get(r);
      if (!s) this.dependents.set(r, (s = new Set()));
      s.add(uid);
    }
    if (o.metadata.deletionTimestamp) {
      if (hasFinalizer(o, FinalizerOrphanDependents)) this.queue.add(`orphan:${uid}`);
      if (hasFinalizer(o, FinalizerDeleteDependents)) {
        this.queue.add(`delete:${uid}`);
        for (const d of this.dependents.get(uid) ?? []) this.queue.add(`delete:${d}`);
      }
    }
    // an owner not in the caches (or gone, or deleting its dependents): check the reference
    for (const r of o.metadata.ownerReferences ?? []) {
      const owner = this.cachedOwner(r, o);
      if (!owner || isDeletingDependents(owner)) {
        this.queue.add(`delete:${uid}`);
        break;
      }
    }
  }

  private forget(o: APIObject): void {
    const uid = o.metadata.uid ?? '';
    this.nodes.delete(uid);
    for (const r of o.metadata.ownerReferences ?? []) {
      this.dependents.get(r.uid)?.delete(uid);
      const owner = this.nodes.get(r.uid);
      if (owner && isDeletingDependents(owner.obj)) this.queue.add(`delete:${r.uid}`);
    }
    for (const d of this.dependents.get(uid) ?? []) this.queue.add(`delete:${d}`);
  }

  private process(key: string): void {
    const i = key.indexOf(':');
    const [verb, uid] = [key.slice(0, i), key.slice(i + 1)];
    if (verb === 'orphan') this.attemptToOrphan(uid);
    else this.attemptToDeleteItem(uid);
  }

  // ---- workers -------------------------------------------------------------------------------

  private resourceOf(ref: { apiVersion: string; kind: string }): ResourceInfo | undefined {
    return this.client.restMapper.forKind(ref.apiVersion, ref.kind);
  }

  /** A live read of a node's object; undefined when it is gone or was replaced. */
  private latest(n: GraphNode): APIObject | undefined {
    try {
      const o = this.client
        .resource<APIObject>(n.info.group, n.info.resource)
        .get(n.obj.metadata.namespace ?? '', n.obj.metadata.name, { quiet: true });
      return o.metadata.uid === n.uid ? o : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The owner from the informer caches when its kind is watched and the uid matches. */
  private cachedOwner(ref: OwnerReference, dependent: APIObject): APIObject | undefined {
    const info = this.resourceOf(ref);
    const inf = info && this.informers.get(`${info.group}/${info.resource}`);
    if (!info || !inf) return undefined;
    const o = inf.get(info.namespaced ? `${dependent.metadata.namespace}/${ref.name}` : ref.name);
    return o && o.metadata.uid === ref.uid ? o : undefined;
  }

  /**
   * isDangling: the owner is absent or has another uid. Uses the informer caches when the
   * owner is there, else a live GET (visible in the relay, as upstream's uncached lookup).
   * Returns [dangling, owner object or undefined].
   */
  private isDangling(ref: OwnerReference, dependent: GraphNode): [boolean, APIObject | undefined] {
    const known = this.cachedOwner(ref, dependent.obj);
    if (known) return [false, known];
    const info = this.resourceOf(ref);
    if (!info) return [false, undefined]; // unknown kind: cannot tell, leave it
    const [group] = parseApiVersion(ref.apiVersion);
    try {
      const owner = this.client
        .resource<APIObject>(group, info.resource)
        .get(info.namespaced ? (dependent.obj.metadata.namespace ?? '') : '', ref.name);
      return [owner.metadata.uid !== ref.uid, owner.metadata.uid === ref.uid ? owner : undefined];
    } catch (err) {
      if (isNotFound(err)) return [true, undefined];
      throw err;
    }
  }

  private decide<T>(n: GraphNode, summary: string, fn: () => T): T {
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: n.info.resource, namespace: n.obj.metadata.namespace, name: n.obj.metadata.name },
      summary,
      this.ctx.relay.newReconcile(),
    );
    return this.ctx.relay.withCause(seq, fn);
  }

  private deleteObject(n: GraphNode, policy: 'Background' | 'Foreground' | 'Orphan'): void {
    try {
      this.client
        .resource<APIObject>(n.info.group, n.info.resource)
        .delete(n.obj.metadata.namespace ?? '', n.obj.metadata.name, { propagationPolicy: policy, preconditions: { uid: n.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * attemptToDeleteItem: classifies the item's owner references into solid, dangling and
   * waitingForDependentsDeletion, then removes bad references or deletes the item.
   * @throws on API errors (retried with back-off).
   */
  private attemptToDeleteItem(uid: string): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    const latest = this.latest(node);
    if (!latest) return;
    const n: GraphNode = { ...node, obj: latest };
    if (latest.metadata.deletionTimestamp && !isDeletingDependents(latest)) return;
    if (isDeletingDependents(latest)) return this.processDeletingDependentsItem(n);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const [isDangling, owner] = this.isDangling(ref, n);
      if (isDangling) dangling.push(ref);
      else if (owner && isDeletingDependents(owner)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length) {
      if (!dangling.length && !waiting.length) return;
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      this.decide(
        n,
        `${describe(n)} still has owner ${solid[0].kind} ${solid[0].name}; remove ${plural(drop.size, 'stale ownerReference')}`,
        () =>
          patchObject(
            this.client.resource<APIObject>(n.info.group, n.info.resource),
            latest.metadata.namespace ?? '',
            latest.metadata.name,
            (cur) => {
              const next = (cur.metadata.ownerReferences ?? []).filter((r) => !drop.has(r.uid));
              if (next.length === (cur.metadata.ownerReferences ?? []).length) return false;
              cur.metadata.ownerReferences = next;
              return true;
            },
            `remove ownerReferences of ${describe(n)}`,
          ),
      );
      return;
    }
    const hasDependents = (this.dependents.get(uid)?.size ?? 0) > 0;
    if (waiting.length && hasDependents) {
      this.decide(
        n,
        `owner ${waiting[0].kind} ${waiting[0].name} is deleting its dependents (foregroundDeletion) → delete ${describe(n)} in the foreground`,
        () => this.deleteObject(n, 'Foreground'),
      );
      return;
    }
    const policy = hasFinalizer(latest, FinalizerOrphanDependents)
      ? 'Orphan'
      : hasFinalizer(latest, FinalizerDeleteDependents)
        ? 'Foreground'
        : 'Background';
    const why = dangling.length
      ? `owner ${dangling[0].kind} ${dangling[0].name} is gone`
      : `owner ${waiting[0].kind} ${waiting[0].name} is deleting its dependents (foregroundDeletion)`;
    this.decide(n, `${why} → delete ${describe(n)} (propagationPolicy ${policy})`, () => this.deleteObject(n, policy));
  }

  /** processDeletingDependentsItem: delete blocking dependents, or finish by removing the finalizer. */
  private processDeletingDependentsItem(n: GraphNode): void {
    const blocking: GraphNode[] = [];
    for (const d of this.dependents.get(n.uid) ?? []) {
      const dep = this.nodes.get(d);
      const ref = dep?.obj.metadata.ownerReferences?.find((r) => r.uid === n.uid);
      if (dep && ref?.blockOwnerDeletion) blocking.push(dep);
    }
    if (blocking.length === 0) {
      this.decide(n, `no dependents block ${describe(n)} any more → remove finalizer ${FinalizerDeleteDependents}`, () =>
        this.removeFinalizer(n, FinalizerDeleteDependents),
      );
      return;
    }
    for (const dep of blocking) if (!isDeletingDependents(dep.obj)) this.queue.add(`delete:${dep.uid}`);
  }

  /** attemptToOrphan: strip the owner's references from its dependents, then remove the orphan finalizer. */
  private attemptToOrphan(uid: string): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    const latest = this.latest(node);
    if (!latest || !hasFinalizer(latest, FinalizerOrphanDependents)) return;
    const n: GraphNode = { ...node, obj: latest };
    const deps = [...(this.dependents.get(uid) ?? [])].map((d) => this.nodes.get(d)).filter((d): d is GraphNode => !!d);
    this.decide(
      n,
      `${describe(n)} has the ${FinalizerOrphanDependents} finalizer → orphan ${plural(deps.length, 'dependent')}, then remove the finalizer`,
      () => {
        let firstErr: unknown = undefined;
        for (const dep of deps) {
          try {
            patchObject(
              this.client.resource<APIObject>(dep.info.group, dep.info.resource),
              dep.obj.metadata.namespace ?? '',
              dep.obj.metadata.name,
              (cur) => {
                const refs = cur.metadata.ownerReferences ?? [];
                const next = refs.filter((r) => r.uid !== uid);
                if (next.length === refs.length) return false;
                if (next.length) cur.metadata.ownerReferences = next;
                else delete cur.metadata.ownerReferences;
                return true;
              },
              `orphan ${describe(dep)} (ownerReferences -= ${describe(n)})`,
            );
          } catch (err) {
            if (!isNotFound(err) && firstErr === undefined) firstErr = err;
          }
        }
        if (firstErr !== undefined) throw firstErr;
        this.removeFinalizer(n, FinalizerOrphanDependents);
      },
    );
  }

  private removeFinalizer(n: GraphNode, finalizer: string): void {
    try {
      patchObject(
        this.client.resource<APIObject>(n.info.group, n.info.resource),
        n.obj.metadata.namespace ?? '',
        n.obj.metadata.name,
        (cur) => {
          if (cur.metadata.uid !== n.uid || !hasFinalizer(cur, finalizer)) return false;
          const next = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
          if (next.length) cur.metadata.finalizers = next;
          else delete cur.metadata.finalizers;
          return true;
        },
        `remove finalizer ${finalizer} from ${describe(n)}`,
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
