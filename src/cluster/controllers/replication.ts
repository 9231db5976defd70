/**
 * ReplicationManager: the ReplicationController controller, in the shape of kubernetes/kubernetes
 * pkg/controller/replication/replication_controller.go and conversion.go.
 *
 * Upstream does not keep a copy of the ReplicaSet controller: it runs `replicaset.NewBaseController`
 * over adapters that convert, as if ReplicationController were an older API version of ReplicaSet —
 * an informer adapter that presents each RC as a ReplicaSet (spec.selector, a plain label map,
 * becomes `matchLabels`), a client adapter whose Get and UpdateStatus convert back and forth, and a
 * pod control adapter that converts the RS back to its RC before creating or deleting Pods (so the
 * Events are about the ReplicationController). This file does the same with
 * `controllers/replicaset.ts`: the sync, expectations, burst and slow-start are the ReplicaSet
 * controller's.
 *
 * Controller name `replication-controller` (relay participant, Events' source.component, the
 * `system:serviceaccount:kube-system:replication-controller` identity), work queue
 * `replicationmanager`, owner references `v1` `ReplicationController` with `controller: true`,
 * Pods named `<rc>-xxxxx`. Events: SuccessfulCreate "Created pod: NAME", SuccessfulDelete
 * "Deleted pod: NAME", FailedCreate "Error creating: ERR". Pod events reach it only for Pods an RC
 * controls or could adopt (BaseControllerConfig.filterPods): no relay hop for every other Pod.
 */
import type { ComponentContext } from '../component-context';
import type { EventHandler, SharedInformer, SharedInformerFactory } from '../client/informer';
import { users, type ResourceClient } from '../client/clientset';
import type { WriteOptions } from '../apiserver/apiserver';
import type { Selector } from '../api/labels';
import type { APIObject, Pod, ReplicaSet, ReplicationController } from '../api/objects';
import type { OwnerReference } from '../api/types';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { RealPodControl, type PodControl } from './controller-utils';
import { ReplicaSetController, type ReplicaSetClient, type ReplicaSetInformer } from './replicaset';

/** Relay participant, event source and identity of the ReplicationController manager. */
export const ReplicationControllerName = 'replication-controller';

/** controllerKind: v1 ReplicationController. */
const controllerKind = { apiVersion: 'v1', kind: 'ReplicationController' } as const;

/**
 * convertRCtoRS (Convert_v1_ReplicationController_to_apps_ReplicaSet): the same metadata, spec with
 * the selector map as `matchLabels`, the status counters and conditions. The result shares the RC's
 * metadata and template (informer objects are read-only).
 */
export function convertRCtoRS(rc: ReplicationController): ReplicaSet {
  const spec = rc.spec ?? {};
  const rsSpec: NonNullable<ReplicaSet['spec']> = { selector: {} };
  if (spec.replicas !== undefined) rsSpec.replicas = spec.replicas;
  if (spec.minReadySeconds !== undefined) rsSpec.minReadySeconds = spec.minReadySeconds;
  // Convert_Map_to_v1_LabelSelector: every pair becomes a matchLabels entry
  if (spec.selector) rsSpec.selector = { matchLabels: spec.selector };
  if (spec.template) rsSpec.template = spec.template;
  const rs: ReplicaSet = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: rc.metadata, spec: rsSpec };
  if (rc.status) (rs as { status?: ReplicaSet['status'] }).status = rc.status;
  return rs;
}

/**
 * convertRStoRC (Convert_apps_ReplicaSet_to_v1_ReplicationController): the inverse of
 * {@link convertRCtoRS}.
 * @throws Error when the selector has matchExpressions (Convert_v1_LabelSelector_To_Map cannot
 *   express them in a map; a converted RC never has any).
 */
export function convertRStoRC(rs: ReplicaSet): ReplicationController {
  const spec = rs.spec;
  const sel = spec?.selector;
  if (sel?.matchExpressions && sel.matchExpressions.length > 0) {
    throw new Error(
      `can't convert ReplicaSet to ReplicationController ${rs.metadata.namespace}/${rs.metadata.name}: matchExpressions not supported`,
    );
  }
  const rcSpec: NonNullable<ReplicationController['spec']> = {};
  if (spec?.replicas !== undefined) rcSpec.replicas = spec.replicas;
  if (spec?.minReadySeconds !== undefined) rcSpec.minReadySeconds = spec.minReadySeconds;
  if (sel?.matchLabels) rcSpec.selector = sel.matchLabels;
  if (spec?.template) rcSpec.template = spec.template;
  const rc: ReplicationController = {
    apiVersion: controllerKind.apiVersion,
    kind: controllerKind.kind,
    metadata: rs.metadata,
    spec: rcSpec,
  };
  if (rs.status) rc.status = rs.status;
  return rc;
}

/** informerAdapter / conversionInformer / conversionLister: the RC informer seen as a ReplicaSet informer. */
class InformerAdapter implements ReplicaSetInformer {
  constructor(private readonly rcInformer: SharedInformer<ReplicationController>) {}

  get(key: string): ReplicaSet | undefined {
    const rc = this.rcInformer.get(key);
    return rc ? convertRCtoRS(rc) : undefined;
  }

  list(namespace?: string, selector?: Selector): ReplicaSet[] {
    return this.rcInformer.list(namespace, selector).map(convertRCtoRS);
  }

  /** conversionEventHandler: each RC event is delivered with the RC converted. */
  addEventHandler(h: EventHandler<ReplicaSet>): void {
    this.rcInformer.addEventHandler({
      participant: h.participant,
      filter: h.filter && ((rc) => h.filter!(convertRCtoRS(rc))),
      onAdd: h.onAdd && ((rc, initial) => h.onAdd!(convertRCtoRS(rc), initial)),
      onUpdate: h.onUpdate && ((o, n) => h.onUpdate!(convertRCtoRS(o), convertRCtoRS(n))),
      onDelete: h.onDelete && ((rc) => h.onDelete!(convertRCtoRS(rc))),
    });
  }
}

/** conversionClient: Get and UpdateStatus of ReplicaSets, done on ReplicationControllers. */
class ConversionClient implements ReplicaSetClient {
  constructor(private readonly rcClient: ResourceClient<ReplicationController>) {}

  get(namespace: string, name: string, opts?: { quiet?: boolean; subresource?: 'scale' | 'status' }): ReplicaSet {
    return convertRCtoRS(this.rcClient.get(namespace, name, opts));
  }

  /** convertCall(UpdateStatus): @throws the RC client's StatusError, or the conversion's Error. */
  updateStatus(rs: ReplicaSet, opts?: WriteOptions): ReplicaSet {
    return convertRCtoRS(this.rcClient.updateStatus(convertRStoRC(rs), opts));
  }
}

/** podControlAdapter: converts the RS back to its RC, so Pods are created and Events recorded for the RC. */
class PodControlAdapter implements PodControl {
  constructor(private readonly inner: PodControl) {}

  createPods(namespace: string, template: PodTemplateSpec | undefined, object: APIObject, controllerRef: OwnerReference): Pod {
    return this.inner.createPods(namespace, template, toRC(object), controllerRef);
  }

  deletePod(namespace: string, podName: string, object: APIObject): void {
    this.inner.deletePod(namespace, podName, toRC(object));
  }
}

function toRC(object: APIObject): APIObject {
  return object.kind === controllerKind.kind ? object : convertRStoRC(object as ReplicaSet);
}

/**
 * NewReplicationManager: the ReplicaSet controller (NewBaseController) over the conversion
 * adapters, named `replication-controller`. Use it as a ReplicaSetController (`syncReplicaSet(key)`
 * syncs the RC of that key).
 */
export class ReplicationManager extends ReplicaSetController {
  constructor(ctx: ComponentContext, informers: SharedInformerFactory) {
    const client = ctx.client(users.controller(ReplicationControllerName));
    const podClient = client.resource<Pod>('', 'pods');
    super(ctx, informers, {
      name: ReplicationControllerName,
      queueName: 'replicationmanager',
      gvk: controllerKind,
      resource: 'replicationcontrollers',
      rsInformer: new InformerAdapter(informers.informerFor<ReplicationController>('', 'replicationcontrollers')),
      rsClient: new ConversionClient(client.resource<ReplicationController>('', 'replicationcontrollers')),
      podClient,
      podControl: new PodControlAdapter(new RealPodControl(podClient, ctx.recorder(client, ReplicationControllerName))),
      filterPods: true,
    });
  }
}
