/**
 * Storage object in-use protection: a PersistentVolumeClaim that a Pod uses, and a
 * PersistentVolume that is Bound, are not removed while in use — their
 * kubernetes.io/pvc-protection / kubernetes.io/pv-protection finalizer (added on create by
 * the StorageObjectInUseProtection admission plugin, apiserver/storage-protection.ts) is
 * removed only when the object is being deleted and no longer used. Until then `kubectl get`
 * shows it Terminating.
 *
 * Follows pkg/controller/volume/pvcprotection/pvc_protection_controller.go (processPVC,
 * isBeingUsed → askInformer then askAPIServer, podUsesPVC: only scheduled Pods count;
 * pod events enqueue the claims they mount) and
 * pkg/controller/volume/pvprotection/pv_protection_controller.go (processPV, isBeingUsed:
 * phase Bound).
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { users, type ResourceClient } from '../client/clientset';
import { deepCopy, metaNamespaceKey, splitKey } from '../api/types';
import type { APIObject, PersistentVolume, PersistentVolumeClaim, Pod } from '../api/objects';
import { StatusError } from '../api/errors';
import { recordDecision } from './controller-utils';
import { podClaimNames, podPVCIndex } from '../component-helpers/storage/volume';

import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../apiserver/storage-protection';

export { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER };

const PVC_PARTICIPANT = 'pvc-protection-controller';
const PV_PARTICIPANT = 'pv-protection-controller';

function removeFinalizer<T extends APIObject>(rc: ResourceClient<T>, o: T, finalizer: string, summary: string): void {
  const next = deepCopy(o);
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  if (!next.metadata.finalizers.length) delete next.metadata.finalizers;
  try {
    rc.update(next, { summary });
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
  }
}

/** The pvc-protection controller. */
export class PVCProtectionController {
  readonly name = PVC_PARTICIPANT;
  private readonly queue: RateLimitingQueue;
  private readonly pvcs: SharedInformer<PersistentVolumeClaim>;
  private readonly pods: SharedInformer<Pod>;
  private readonly pvcClient: ResourceClient<PersistentVolumeClaim>;
  private readonly podClient: ResourceClient<Pod>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(PVC_PARTICIPANT));
    this.pvcClient = client.resource<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.podClient = client.resource<Pod>('', 'pods');
    this.queue = new RateLimitingQueue('pvcprotection', ctx.clock, ctx.relay, (k) => this.processPVC(k));
    this.pvcs = informers.informerFor<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.pods.addIndexer('pvc', podPVCIndex);
    this.pvcs.addEventHandler({
      participant: PVC_PARTICIPANT,
      filter: (c) => !!c.metadata.deletionTimestamp && (c.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER),
      onAdd: (c) => this.queue.add(metaNamespaceKey(c)),
      onUpdate: (_o, c) => this.queue.add(metaNamespaceKey(c)),
    });
    const enqueuePod = (p: Pod) => {
      for (const key of podPVCIndex(p)) if (this.pvcs.get(key)?.metadata.deletionTimestamp) this.queue.add(key);
    };
    this.pods.addEventHandler({
      participant: PVC_PARTICIPANT,
      filter: (p) => podClaimNames(p).length > 0,
      onUpdate: (_o, p) => enqueuePod(p),
      onDelete: (p) => enqueuePod(p),
    });
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }
  resync(): void {
    for (const c of this.pvcs.list()) if (c.metadata.deletionTimestamp) this.queue.add(metaNamespaceKey(c));
  }

  /** processPVC: a deleting claim loses its finalizer once no scheduled Pod mounts it. */
  processPVC(key: string): void {
    const pvc = this.pvcs.get(key);
    if (!pvc || !pvc.metadata.deletionTimestamp || !(pvc.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER)) return;
    const [ns, name] = splitKey(key);
    const users = this.pods.byIndex('pvc', key).filter((p) => podUsesPVC(p, name));
    if (users.length) return; // still in use: stays Terminating until the Pod is gone
    // askAPIServer: the informer may lag behind a Pod just created
    const live = this.podClient.list(ns, { quiet: true }).items.filter((p) => podUsesPVC(p, name));
    if (live.length) return;
    recordDecision(
      this.ctx.relay,
      PVC_PARTICIPANT,
      { resource: 'persistentvolumeclaims', namespace: ns, name },
      `PVC ${key} is deleting and no Pod uses it → remove ${PVC_PROTECTION_FINALIZER}`,
    );
    removeFinalizer(this.pvcClient, pvc, PVC_PROTECTION_FINALIZER, `remove finalizer ${PVC_PROTECTION_FINALIZER} from PVC ${key}`);
  }
}

/** podUsesPVC: only a scheduled Pod holds the claim (the kubelet never starts one with a deleting claim). */
function podUsesPVC(pod: Pod, claim: string): boolean {
  return !!pod.spec?.nodeName && podClaimNames(pod).includes(claim);
}

/** The pv-protection controller. */
export class PVProtectionController {
  readonly name = PV_PARTICIPANT;
  private readonly queue: RateLimitingQueue;
  private readonly pvs: SharedInformer<PersistentVolume>;
  private readonly pvClient: ResourceClient<PersistentVolume>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.pvClient = ctx.client(users.controller(PV_PARTICIPANT)).resource<PersistentVolume>('', 'persistentvolumes');
    this.queue = new RateLimitingQueue('pvprotection', ctx.clock, ctx.relay, (k) => this.processPV(k));
    this.pvs = informers.informerFor<PersistentVolume>('', 'persistentvolumes');
    this.pvs.addEventHandler({
      participant: PV_PARTICIPANT,
      filter: (v) => !!v.metadata.deletionTimestamp && (v.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER),
      onAdd: (v) => this.queue.add(v.metadata.name),
      onUpdate: (_o, v) => this.queue.add(v.metadata.name),
    });
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }
  resync(): void {
    for (const v of this.pvs.list()) if (v.metadata.deletionTimestamp) this.queue.add(v.metadata.name);
  }

  /** processPV: a deleting volume loses its finalizer once it is not Bound. */
  processPV(name: string): void {
    const pv = this.pvs.get(name);
    if (!pv || !pv.metadata.deletionTimestamp || !(pv.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER)) return;
    if (pv.status?.phase === 'Bound') return;
    recordDecision(
      this.ctx.relay,
      PV_PARTICIPANT,
      { resource: 'persistentvolumes', name },
      `PV ${name} is deleting and not Bound → remove ${PV_PROTECTION_FINALIZER}`,
    );
    removeFinalizer(this.pvClient, pv, PV_PROTECTION_FINALIZER, `remove finalizer ${PV_PROTECTION_FINALIZER} from PV ${name}`);
  }
}
