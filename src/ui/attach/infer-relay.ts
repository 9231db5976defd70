/**
 * The relay reconstructed from what a real API server reveals, for a cluster whose recorded
 * relay is not available (anything but a kube-relay apiserver). Each watched change becomes
 * the request hop that must have caused it, `ACTOR → kube-apiserver`, marked `inferred: true`
 * and with " (inferred)" after its summary (the sequence diagram shows it as such):
 *
 * - who: the writer's managedFields manager (metav1.ManagedFieldsEntry: the newest entry for
 *   the part that changed, the status subresource or the object), mapped to relay participants
 *   (docs/architecture.md#relay-participants): `kubectl-client-side-apply`/`kubectl-*` → kubectl, `kube-scheduler`,
 *   `kubelet` → kubelet/NODE, `kube-controller-manager` → the controller that owns this kind
 *   (pkg/controller/*: a new Pod owned by a ReplicaSet comes from replicaset-controller, a new
 *   ReplicaSet owned by a Deployment from deployment-controller, …);
 * - what: ADDED → create, MODIFIED → update (patch for server-side apply) of the object or of
 *   its status, spec.nodeName newly set → kube-scheduler's `create pods/binding`
 *   (pkg/scheduler/framework/plugins/defaultbinder), DELETED → delete (a Pod's final delete
 *   comes from its kubelet, pkg/kubelet/status/status_manager.go); core/v1 Events → the
 *   `source.component` that recorded them (client-go tools/record).
 * Pure: no fetch, no clock; the caller passes `nowMs` for objects without timestamps.
 */
import type { KObject, RelayHop } from '../store/types';

/** A hop the UI did not see but inferred; `inferred` is always true. */
export type InferredHop = RelayHop & { inferred: true };

/** One watched change. `prev` is the object as last seen (undefined for ADDED). */
export interface ObservedChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** Plural resource ("pods", "deployments"). */
  resource: string;
  object: KObject;
  prev?: KObject;
}

interface ManagedEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  time?: string;
  subresource?: string;
}

/** The kube-controller-manager controller that writes objects of `kind` (status and creation by an owner). */
const CONTROLLER_OF_KIND: Record<string, string> = {
  Deployment: 'deployment-controller',
  ReplicaSet: 'replicaset-controller',
  ReplicationController: 'replication-controller',
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  Job: 'job-controller',
  CronJob: 'cronjob-controller',
  EndpointSlice: 'endpointslice-controller',
  Endpoints: 'endpoints-controller',
  Node: 'node-lifecycle-controller',
  Namespace: 'namespace-controller',
  HorizontalPodAutoscaler: 'horizontal-pod-autoscaler-controller',
  PersistentVolumeClaim: 'persistentvolume-binder-controller',
  PersistentVolume: 'persistentvolume-binder-controller',
};

/** Event `source.component` → participant (the names upstream writes: default-scheduler, node-controller…). */
const EVENT_SOURCES: Record<string, string> = {
  'default-scheduler': 'kube-scheduler',
  'node-controller': 'node-lifecycle-controller',
  'endpoint-slice-controller': 'endpointslice-controller',
  'horizontal-pod-autoscaler': 'horizontal-pod-autoscaler-controller',
  'persistentvolume-controller': 'persistentvolume-binder-controller',
  'cronjob-controller': 'cronjob-controller',
};

const ms = (t: string | undefined): number | undefined => {
  const v = t ? Date.parse(t) : NaN;
  return Number.isFinite(v) ? v : undefined;
};

function controllerOwner(o: KObject): { kind: string; name: string } | undefined {
  const refs: { kind: string; name: string; controller?: boolean }[] = o.metadata.ownerReferences ?? [];
  return refs.find((r) => r.controller) ?? refs[0];
}

/** The participant behind a field manager name for a write to `o`. */
export function participantOfManager(manager: string | undefined, o: KObject, creating: boolean): string {
  const m = manager ?? '';
  if (m === 'kubectl' || m.startsWith('kubectl-')) return 'kubectl';
  if (m === 'kube-scheduler') return 'kube-scheduler';
  if (m === 'kubelet') return `kubelet/${o.kind === 'Node' ? o.metadata.name : (o.spec?.nodeName ?? '')}`;
  if (m === 'kube-controller-manager' || !m) {
    const owner = controllerOwner(o);
    if (creating && owner && CONTROLLER_OF_KIND[owner.kind]) return CONTROLLER_OF_KIND[owner.kind];
    if (!creating && o.kind === 'Pod' && owner && CONTROLLER_OF_KIND[owner.kind]) return CONTROLLER_OF_KIND[owner.kind];
    if (CONTROLLER_OF_KIND[o.kind]) return CONTROLLER_OF_KIND[o.kind];
    return m || 'kubectl';
  }
  return m; // a kube-relay apiserver records participants as managers (replicaset-controller, kubelet/node-1…)
}

function entries(o: KObject | undefined): ManagedEntry[] {
  return (o?.metadata.managedFields ?? []) as ManagedEntry[];
}

/** The newest entry (last of equal times) matching `pred`. */
function newest(list: ManagedEntry[], pred: (e: ManagedEntry) => boolean): ManagedEntry | undefined {
  let best: ManagedEntry | undefined;
  for (const e of list) if (pred(e) && (!best || (ms(e.time) ?? 0) >= (ms(best.time) ?? 0))) best = e;
  return best;
}

const json = (v: unknown): string => JSON.stringify(v ?? null);

function what(o: KObject): string {
  return o.metadata.namespace ? `${o.kind} ${o.metadata.namespace}/${o.metadata.name}` : `${o.kind} ${o.metadata.name}`;
}

/** Hop fields but seq. */
type Draft = Omit<InferredHop, 'seq'>;

function draft(
  c: ObservedChange,
  from: string,
  verb: string,
  resource: string,
  summary: string,
  time: number,
  category?: RelayHop['category'],
): Draft {
  const o = c.object;
  return {
    time,
    from,
    to: 'kube-apiserver',
    kind: 'request',
    verb,
    resource,
    namespace: o.metadata.namespace ?? null,
    name: o.metadata.name,
    resourceVersion: o.metadata.resourceVersion,
    summary: `${summary} (inferred)`,
    cause: null,
    ...(category ? { category } : {}),
    inferred: true,
  };
}

function eventHop(c: ObservedChange, nowMs: number): Draft[] {
  const e = c.object;
  if (c.type === 'DELETED') return [];
  const component: string = e.source?.component ?? e.reportingComponent ?? e.reportingController ?? '';
  const host: string = e.source?.host ?? e.reportingInstance ?? '';
  const from = component === 'kubelet' ? `kubelet/${host}` : (EVENT_SOURCES[component] ?? (component || 'kubectl'));
  const time = ms(e.lastTimestamp) ?? ms(e.eventTime) ?? ms(e.metadata.creationTimestamp) ?? nowMs;
  const verb = c.type === 'ADDED' ? 'create' : 'patch';
  return [draft(c, from, verb, 'events', `${verb} Event ${e.metadata.namespace}/${e.metadata.name}: ${e.reason ?? ''}`, time, 'event')];
}

/**
 * The hops one change implies, oldest first, without seq (see {@link createRelayInference}).
 * @param nowMs ms since the epoch, for changes without timestamps
 */
export function inferHopsOf(c: ObservedChange, nowMs: number): Draft[] {
  const o = c.object;
  if (o.kind === 'Event') return eventHop(c, nowMs);
  const list = entries(o);
  if (c.type === 'ADDED') {
    const creator = list.reduce<ManagedEntry | undefined>((a, e) => (!a || (ms(e.time) ?? 0) < (ms(a.time) ?? 0) ? e : a), undefined);
    const from = participantOfManager(creator?.manager, o, true);
    const hops = [draft(c, from, 'create', c.resource, `create ${what(o)}`, ms(o.metadata.creationTimestamp) ?? nowMs)];
    return hops;
  }
  if (c.type === 'DELETED') {
    const node = o.kind === 'Pod' ? (o.spec?.nodeName ?? '') : '';
    const from = node ? `kubelet/${node}` : controllerOwner(o) ? 'garbage-collector-controller' : 'kubectl';
    return [draft(c, from, 'delete', c.resource, `delete ${what(o)}`, ms(o.metadata.deletionTimestamp) ?? nowMs)];
  }
  const p = c.prev;
  if (!p) return [];
  const out: Draft[] = [];
  const node = o.spec?.nodeName ?? '';
  if (o.kind === 'Pod' && !p.spec?.nodeName && node) {
    const e = newest(list, (x) => x.manager === 'kube-scheduler');
    out.push(
      draft(
        c,
        'kube-scheduler',
        'create',
        'pods/binding',
        `bind Pod ${o.metadata.namespace}/${o.metadata.name} to ${node}`,
        ms(e?.time) ?? nowMs,
      ),
    );
  }
  if (!p.metadata.deletionTimestamp && o.metadata.deletionTimestamp) {
    const owner = controllerOwner(o);
    const e = newest(list, () => true);
    const from =
      e?.manager && e.manager !== 'kube-controller-manager'
        ? participantOfManager(e.manager, o, false)
        : owner
          ? participantOfManager('kube-controller-manager', o, false)
          : 'kubectl';
    out.push(draft(c, from, 'delete', c.resource, `delete ${what(o)}`, ms(o.metadata.deletionTimestamp) ?? nowMs));
    return out;
  }
  const specChanged =
    json(o.spec) !== json(p.spec) ||
    json(o.metadata.labels) !== json(p.metadata.labels) ||
    json(o.metadata.annotations) !== json(p.metadata.annotations);
  const statusChanged = json(o.status) !== json(p.status);
  if (statusChanged) {
    const e = newest(list, (x) => x.subresource === 'status');
    const from = participantOfManager(e?.manager ?? ((o.kind === 'Pod' && node) || o.kind === 'Node' ? 'kubelet' : undefined), o, false);
    const phase = o.kind === 'Pod' && o.status?.phase !== p.status?.phase ? `: ${o.status?.phase}` : '';
    out.push(
      draft(
        c,
        from,
        e?.operation === 'Apply' ? 'patch' : 'update',
        `${c.resource}/status`,
        `update ${what(o)} status${phase}`,
        ms(e?.time) ?? nowMs,
        from.startsWith('kubelet/') && o.kind === 'Node' ? 'heartbeat' : undefined,
      ),
    );
  }
  if (
    specChanged &&
    !(
      o.kind === 'Pod' &&
      !p.spec?.nodeName &&
      node &&
      json({ ...o.spec, nodeName: undefined }) === json({ ...p.spec, nodeName: undefined })
    )
  ) {
    const e = newest(list, (x) => !x.subresource);
    const from = participantOfManager(e?.manager, o, false);
    const verb = e?.operation === 'Apply' ? 'patch' : 'update';
    out.push(draft(c, from, verb, c.resource, `${verb} ${what(o)}`, ms(e?.time) ?? nowMs));
  }
  return out;
}

/**
 * A stateful numbering over {@link inferHopsOf}: seq increases from `firstSeq`. Node status
 * updates are heartbeats (hidden by default, as the engine's).
 */
export function createRelayInference(firstSeq = 1): { observe(c: ObservedChange, nowMs: number): InferredHop[] } {
  let seq = firstSeq;
  return {
    observe(c, nowMs) {
      return inferHopsOf(c, nowMs).map((h) => ({ ...h, seq: seq++ }));
    },
  };
}
