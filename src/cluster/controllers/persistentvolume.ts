/**
 * PersistentVolumeController ("persistentvolume-binder"): binds PersistentVolumeClaims to
 * PersistentVolumes, starts provisioning through the claim's StorageClass, and reclaims
 * volumes whose claim is gone — the seed's §6 loop (PV = a disk, PVC = a request,
 * StorageClass = the rule that provisions).
 *
 * Follows pkg/controller/volume/persistentvolume/pv_controller.go (syncClaim,
 * syncUnboundClaim, syncBoundClaim, syncVolume, bind, bindVolumeToClaim, bindClaimToVolume,
 * updateClaimStatus, updateVolumePhase, unbindVolume, reclaimVolume, deleteVolumeOperation,
 * provisionClaim, provisionClaimOperationExternal, setClaimProvisioner,
 * emitEventForUnboundDelayBindingClaim) and pv_controller_base.go (two queues, a local cache
 * of the newest claim/volume copies, deleteClaim enqueueing the bound volume).
 *
 * Every provisioner is external (v1.33 has no in-tree provisioners left but
 * kubernetes.io/no-provisioner): the controller annotates the claim with
 * volume.kubernetes.io/storage-provisioner and says ExternalProvisioning; the provisioner
 * (external-provisioner.ts) creates the PV, and the next syncClaim binds it.
 *
 * Not modelled: the 15 s periodic resync (it would re-emit WaitForFirstConsumer every 15 s and
 * keep `settle` from ever being quiet) — a new StorageClass enqueues its pending claims
 * instead; Recycle; volume expansion; CSI migration annotations.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { users, type Client, type ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { deepCopy, deepEqual, metaNamespaceKey } from '../api/types';
import type { APIObject, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../api/objects';
import { StatusError } from '../api/errors';
import { recordDecision } from './controller-utils';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_STORAGE_PROVISIONER,
  Reasons,
  checkVolumeSatisfyClaim,
  claimClass,
  claimKey,
  claimRefKey,
  findBestMatchForClaim,
  getBindVolumeToClaim,
  isDelayBindingMode,
  isDelayBindingProvisioning,
  isPodTerminated,
  isVolumeBoundToClaim,
  podPVCIndex,
  rvOf,
  volumeModeMismatch,
} from '../component-helpers/storage/volume';

/** Relay participant (docs/architecture.md#relay-participants). */
export const PV_CONTROLLER_PARTICIPANT = 'persistentvolume-binder-controller';
/** Events' source.component, as kube-controller-manager writes it. */
export const PV_CONTROLLER_COMPONENT = 'persistentvolume-controller';

/** The PV binder controller of kube-controller-manager. */
export class PersistentVolumeController {
  readonly name = PV_CONTROLLER_PARTICIPANT;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pvcs: ResourceClient<PersistentVolumeClaim>;
  private readonly pvsClient: ResourceClient<PersistentVolume>;
  private readonly claimQueue: RateLimitingQueue;
  private readonly volumeQueue: RateLimitingQueue;
  private readonly claimInformer: SharedInformer<PersistentVolumeClaim>;
  private readonly volumeInformer: SharedInformer<PersistentVolume>;
  private readonly classes: SharedInformer<StorageClass>;
  private readonly pods: SharedInformer<Pod>;
  /** The newest copy seen of each claim/volume (informer events and own writes). */
  private readonly claims = new Map<string, PersistentVolumeClaim>();
  private readonly volumes = new Map<string, PersistentVolume>();

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(PV_CONTROLLER_PARTICIPANT));
    this.recorder = ctx.recorder(this.client, PV_CONTROLLER_COMPONENT);
    this.pvcs = this.client.resource<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.pvsClient = this.client.resource<PersistentVolume>('', 'persistentvolumes');
    this.claimQueue = new RateLimitingQueue('claims', ctx.clock, ctx.relay, (k) => this.claimWorker(k));
    this.volumeQueue = new RateLimitingQueue('volumes', ctx.clock, ctx.relay, (k) => this.volumeWorker(k));
    this.claimInformer = informers.informerFor<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.volumeInformer = informers.informerFor<PersistentVolume>('', 'persistentvolumes');
    this.classes = informers.informerFor<StorageClass>('storage.k8s.io', 'storageclasses');
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.pods.addIndexer('pvc', podPVCIndex);
    this.volumeInformer.addEventHandler({
      participant: PV_CONTROLLER_PARTICIPANT,
      onAdd: (v) => this.enqueueVolume(v),
      onUpdate: (_o, v) => this.enqueueVolume(v),
      onDelete: (v) => {
        this.volumes.delete(v.metadata.name);
        // deleteVolume: the claim bound to it must notice (ClaimLost)
        const ref = v.spec?.claimRef;
        if (ref) this.claimQueue.add(claimRefKey(ref));
      },
    });
    this.claimInformer.addEventHandler({
      participant: PV_CONTROLLER_PARTICIPANT,
      onAdd: (c) => this.enqueueClaim(c),
      onUpdate: (_o, c) => this.enqueueClaim(c),
      onDelete: (c) => {
        this.claims.delete(metaNamespaceKey(c));
        // deleteClaim: the volume it was bound to is now released
        if (c.spec?.volumeName) this.volumeQueue.add(c.spec.volumeName);
      },
    });
    this.classes.addEventHandler({
      participant: PV_CONTROLLER_PARTICIPANT,
      // stands in for the periodic resync that would pick up claims waiting for this class
      onAdd: (sc, initial) => {
        if (initial) return;
        for (const c of this.claimInformer.list())
          if (!c.metadata.annotations?.[ANN_BIND_COMPLETED] && claimClass(c) === sc.metadata.name) this.claimQueue.add(metaNamespaceKey(c));
      },
    });
  }

  run(): void {}
  pause(): void {
    this.claimQueue.paused = true;
    this.volumeQueue.paused = true;
  }
  resume(): void {
    this.claimQueue.resume();
    this.volumeQueue.resume();
  }
  /** Re-enqueues every claim and volume (the resync after a resume). */
  resync(): void {
    for (const v of this.volumeInformer.list()) this.volumeQueue.add(v.metadata.name);
    for (const c of this.claimInformer.list()) this.claimQueue.add(metaNamespaceKey(c));
  }

  private enqueueClaim(c: PersistentVolumeClaim): void {
    this.store(this.claims, metaNamespaceKey(c), c);
    this.claimQueue.add(metaNamespaceKey(c));
  }

  private enqueueVolume(v: PersistentVolume): void {
    this.store(this.volumes, v.metadata.name, v);
    this.volumeQueue.add(v.metadata.name);
  }

  /** storeObjectUpdate: keep the newer of the cached and the given copy. */
  private store<T extends APIObject>(m: Map<string, T>, key: string, o: T): void {
    const cur = m.get(key);
    if (!cur || cur.metadata.uid !== o.metadata.uid || rvOf(o) >= rvOf(cur)) m.set(key, o);
  }

  private claimWorker(key: string): void {
    const informed = this.claimInformer.get(key);
    if (!informed) {
      this.claims.delete(key);
      return;
    }
    this.store(this.claims, key, informed);
    this.syncClaim(this.claims.get(key)!);
  }

  private volumeWorker(name: string): void {
    const informed = this.volumeInformer.get(name);
    if (!informed) {
      this.volumes.delete(name);
      return;
    }
    this.store(this.volumes, name, informed);
    this.syncVolume(this.volumes.get(name)!);
  }

  private allVolumes(): PersistentVolume[] {
    return [...this.volumes.values()];
  }

  // ---- claims --------------------------------------------------------------------------------

  /** syncClaim: unbound claims (no bind-completed annotation) and bound ones take different paths. */
  syncClaim(claim: PersistentVolumeClaim): void {
    if (claim.metadata.annotations?.[ANN_BIND_COMPLETED] === undefined) this.syncUnboundClaim(claim);
    else this.syncBoundClaim(claim);
  }

  private syncUnboundClaim(claim: PersistentVolumeClaim): void {
    if (!claim.spec?.volumeName) {
      const delayBinding = isDelayBindingMode(claim, this.classes);
      // component-helpers/storage/volume.ts takes and returns untyped objects: the volume is one of allVolumes()
      const volume = findBestMatchForClaim(claim, this.allVolumes(), delayBinding) as PersistentVolume | null;
      if (!volume) {
        if (delayBinding && !isDelayBindingProvisioning(claim)) {
          this.emitEventForUnboundDelayBindingClaim(claim);
        } else if (claimClass(claim) !== '') {
          this.provisionClaim(claim);
          return;
        } else {
          this.recorder.event(
            claim,
            'Normal',
            Reasons.FailedBinding,
            'no persistent volumes available for this claim and no storage class is set',
          );
        }
        this.updateClaimStatus(claim, 'Pending', null);
        return;
      }
      this.decide(claim, `claim ${claimKey(claim)} matches Available volume ${volume.metadata.name} → bind`);
      this.bind(volume, claim);
      return;
    }
    // the user asked for a specific volume
    const volume = this.volumes.get(claim.spec.volumeName);
    if (!volume) {
      this.updateClaimStatus(claim, 'Pending', null);
      return;
    }
    if (!volume.spec?.claimRef) {
      const why = checkVolumeSatisfyClaim(volume, claim);
      if (why) {
        this.recorder.event(claim, 'Warning', Reasons.VolumeMismatch, `Cannot bind to requested volume "${volume.metadata.name}": ${why}`);
        this.updateClaimStatus(claim, 'Pending', null);
        return;
      }
      this.decide(claim, `claim ${claimKey(claim)} asks for volume ${volume.metadata.name} (unclaimed) → bind`);
      this.bind(volume, claim);
    } else if (isVolumeBoundToClaim(volume, claim)) {
      this.decide(claim, `volume ${volume.metadata.name} is reserved for ${claimKey(claim)} → finish the binding`);
      this.bind(volume, claim);
    } else {
      this.recorder.event(claim, 'Warning', Reasons.FailedBinding, `volume "${volume.metadata.name}" already bound to a different claim.`);
      if (claim.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined) this.updateClaimStatus(claim, 'Pending', null);
      else
        throw new Error(
          `invalid binding of claim "${claimKey(claim)}" to volume "${claim.spec.volumeName}": volume already claimed by "${claimRefKey(volume.spec.claimRef)}"`,
        );
    }
  }

  private syncBoundClaim(claim: PersistentVolumeClaim): void {
    if (!claim.spec?.volumeName) {
      this.updateClaimStatusWithEvent(
        claim,
        'Lost',
        null,
        'ClaimLost',
        'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
      );
      return;
    }
    const volume = this.volumes.get(claim.spec.volumeName);
    if (!volume) {
      this.updateClaimStatusWithEvent(
        claim,
        'Lost',
        null,
        'ClaimLost',
        'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      );
      return;
    }
    if (!volume.spec?.claimRef || volume.spec.claimRef.uid === claim.metadata.uid) {
      this.bind(volume, claim);
      return;
    }
    this.updateClaimStatusWithEvent(
      claim,
      'Lost',
      null,
      'ClaimMisbound',
      'Two claims are bound to the same volume, this one is bound incorrectly',
    );
  }

  /** emitEventForUnboundDelayBindingClaim. */
  private emitEventForUnboundDelayBindingClaim(claim: PersistentVolumeClaim): void {
    const waiting = this.pods
      .byIndex('pvc', claimKey(claim))
      .filter((p) => !isPodTerminated(p) && !p.spec?.nodeName)
      .map((p) => p.metadata.name);
    if (waiting.length > 1)
      this.recorder.event(claim, 'Normal', Reasons.WaitForPodScheduled, `waiting for pods ${waiting.join(',')} to be scheduled`);
    else if (waiting.length === 1)
      this.recorder.event(claim, 'Normal', Reasons.WaitForPodScheduled, `waiting for pod ${waiting[0]} to be scheduled`);
    else this.recorder.event(claim, 'Normal', Reasons.WaitForFirstConsumer, 'waiting for first consumer to be created before binding');
  }

  /** provisionClaim + provisionClaimOperationExternal: hand the claim to its class's provisioner. */
  private provisionClaim(claim: PersistentVolumeClaim): void {
    const cls = this.classes.get(claimClass(claim));
    if (!cls) {
      this.recorder.event(claim, 'Warning', Reasons.ProvisioningFailed, `storageclass.storage.k8s.io "${claimClass(claim)}" not found`);
      return;
    }
    const provisioner: string = cls.provisioner;
    if (provisioner.startsWith('kubernetes.io/')) {
      // no in-tree provisioner is left in v1.33 (FindProvisionablePluginByName fails)
      this.recorder.event(claim, 'Warning', Reasons.ProvisioningFailed, `no volume plugin matched name: ${provisioner}`);
      return;
    }
    let cur = claim;
    if (claim.metadata.annotations?.[ANN_BETA_STORAGE_PROVISIONER] !== provisioner) {
      const next = deepCopy(claim);
      next.metadata.annotations = {
        ...next.metadata.annotations,
        [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
        [ANN_STORAGE_PROVISIONER]: provisioner,
      };
      this.decide(claim, `claim ${claimKey(claim)}: no volume matches → ask provisioner ${provisioner} (class ${cls.metadata.name})`);
      try {
        cur = this.pvcs.update(next, {
          summary: `annotate PVC ${claimKey(claim)}: volume.kubernetes.io/storage-provisioner=${provisioner}`,
        });
      } catch (err) {
        this.recorder.event(
          claim,
          'Warning',
          Reasons.ProvisioningFailed,
          `Error saving claim: ${err instanceof Error ? err.message : String(err)}`,
        );
        throw err;
      }
      this.store(this.claims, claimKey(cur), cur);
    }
    this.recorder.event(
      cur,
      'Normal',
      Reasons.ExternalProvisioning,
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }

  // ---- volumes -------------------------------------------------------------------------------

  /** syncVolume. */
  syncVolume(volume: PersistentVolume): void {
    const ref = volume.spec?.claimRef;
    if (!ref || !ref.uid) {
      // unused, or reserved for a claim that has not bound yet (syncClaim finishes that)
      this.updateVolumePhase(volume, 'Available');
      return;
    }
    let claim = this.claims.get(claimRefKey(ref));
    if (!claim && volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') {
      try {
        claim = this.pvcs.get(ref.namespace ?? '', ref.name ?? '', { quiet: true });
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined; // deleted and recreated under the same name
    if (!claim) {
      let v = volume;
      if (v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') {
        this.decide(
          volume,
          `volume ${volume.metadata.name}: claim ${claimRefKey(ref)} is gone → Released (reclaim policy ${volume.spec.persistentVolumeReclaimPolicy})`,
        );
        v = this.updateVolumePhase(v, 'Released');
      }
      this.reclaimVolume(v);
      return;
    }
    if (!claim.spec?.volumeName) {
      if (volumeModeMismatch(claim, volume)) {
        this.recorder.event(
          volume,
          'Warning',
          Reasons.VolumeMismatch,
          `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata.name}" due to incompatible volumeMode.`,
        );
        this.recorder.event(
          claim,
          'Warning',
          Reasons.VolumeMismatch,
          `Cannot bind PersistentVolume "${volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        );
        return;
      }
      // the claim is Pending while the volume points at it: syncClaim finishes the binding
      this.claimQueue.add(claimKey(claim));
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) {
      this.updateVolumePhase(volume, 'Bound');
      return;
    }
    // the claim is bound to another volume
    if (
      volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] !== undefined &&
      volume.spec.persistentVolumeReclaimPolicy === 'Delete'
    ) {
      const v =
        volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed' ? this.updateVolumePhase(volume, 'Released') : volume;
      this.reclaimVolume(v);
      return;
    }
    this.unbindVolume(volume);
  }

  /** reclaimVolume: Retain keeps the Released volume; Delete deletes it (external deleters do it themselves). */
  private reclaimVolume(volume: PersistentVolume): void {
    const policy = volume.spec?.persistentVolumeReclaimPolicy;
    if (policy === 'Retain') return;
    if (policy === 'Delete') {
      const by = volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
      if (by && !by.startsWith('kubernetes.io/')) return; // the external provisioner deletes it
      if (volume.metadata.deletionTimestamp) return;
      const path: string | undefined = volume.spec?.hostPath?.path;
      let err: string | null = null;
      if (volume.spec?.hostPath) {
        if (!/^\/tmp\/.+/.test(path ?? '')) err = `host_path deleter only supports /tmp/.+ but received provided ${path}`;
      } else {
        err = `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`;
      }
      if (err) {
        this.updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', Reasons.VolumeFailedDelete, err);
        return;
      }
      try {
        this.pvsClient.delete('', volume.metadata.name, {
          summary: `delete PersistentVolume ${volume.metadata.name} (reclaim policy Delete)`,
        });
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
      return;
    }
    if (policy === 'Recycle') {
      this.updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
      return;
    }
    this.updateVolumePhaseWithEvent(
      volume,
      'Failed',
      'Warning',
      'VolumeUnknownReclaimPolicy',
      'Volume has unrecognized PersistentVolumeReclaimPolicy',
    );
  }

  /** unbindVolume: roll back a controller binding, or clear the uid of a user's pre-binding. */
  private unbindVolume(volume: PersistentVolume): void {
    const clone = deepCopy(volume);
    if (volume.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] !== undefined) {
      delete clone.spec.claimRef;
      delete clone.metadata.annotations![ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(clone.metadata.annotations!).length === 0) delete clone.metadata.annotations;
    } else {
      clone.spec.claimRef = { ...clone.spec.claimRef, uid: '' };
    }
    const saved = this.pvsClient.update(clone, { summary: `unbind PersistentVolume ${volume.metadata.name}` });
    this.store(this.volumes, saved.metadata.name, saved);
    this.updateVolumePhase(saved, 'Available');
  }

  // ---- binding -------------------------------------------------------------------------------

  /** bind: the volume first (claimRef, then phase Bound), then the claim (volumeName, annotations, then status). */
  private bind(volume: PersistentVolume, claim: PersistentVolumeClaim): void {
    // component-helpers/storage/volume.ts returns untyped objects: the clone is a copy of the volume
    const [pvClone, dirty] = getBindVolumeToClaim(volume, claim) as [PersistentVolume, boolean];
    let v = volume;
    if (dirty) {
      v = this.pvsClient.update(pvClone, { summary: `bind PersistentVolume ${volume.metadata.name} to claim ${claimKey(claim)}` });
      this.store(this.volumes, v.metadata.name, v);
    }
    v = this.updateVolumePhase(v, 'Bound');
    const c = this.bindClaimToVolume(claim, v);
    this.updateClaimStatus(c, 'Bound', v);
  }

  private bindClaimToVolume(claim: PersistentVolumeClaim, volume: PersistentVolume): PersistentVolumeClaim {
    const clone = deepCopy(claim);
    const ann = { ...clone.metadata.annotations };
    let dirty = false;
    if (claim.spec?.volumeName !== volume.metadata.name) {
      clone.spec.volumeName = volume.metadata.name;
      if (ann[ANN_BOUND_BY_CONTROLLER] === undefined) ann[ANN_BOUND_BY_CONTROLLER] = 'yes';
      dirty = true;
    }
    if (ann[ANN_BIND_COMPLETED] === undefined) {
      ann[ANN_BIND_COMPLETED] = 'yes';
      dirty = true;
    }
    if (!dirty) return claim;
    clone.metadata.annotations = ann;
    const saved = this.pvcs.update(clone, { summary: `bind PVC ${claimKey(claim)} to volume ${volume.metadata.name}` });
    this.store(this.claims, claimKey(saved), saved);
    return saved;
  }

  /** updateClaimStatus: phase, plus accessModes and capacity from the volume (cleared without one). */
  private updateClaimStatus(claim: PersistentVolumeClaim, phase: string, volume: PersistentVolume | null): PersistentVolumeClaim {
    const status = deepCopy(claim.status ?? {});
    status.phase = phase;
    if (!volume) {
      delete status.accessModes;
      delete status.capacity;
    } else {
      status.accessModes = volume.spec?.accessModes;
      if (claim.status?.phase !== phase && !deepEqual(status.capacity?.storage, volume.spec?.capacity?.storage))
        status.capacity = volume.spec?.capacity;
    }
    if (deepEqual(status, claim.status ?? {})) return claim;
    const saved = this.pvcs.updateStatus({ ...claim, status }, { summary: `PVC ${claimKey(claim)} → ${phase}` });
    this.store(this.claims, claimKey(saved), saved);
    return saved;
  }

  private updateClaimStatusWithEvent(
    claim: PersistentVolumeClaim,
    phase: string,
    volume: PersistentVolume | null,
    reason: string,
    message: string,
  ): void {
    if (claim.status?.phase === phase) return;
    const saved = this.updateClaimStatus(claim, phase, volume);
    this.recorder.event(saved, 'Warning', reason, message);
  }

  private updateVolumePhase(volume: PersistentVolume, phase: string, message = ''): PersistentVolume {
    if (volume.status?.phase === phase) return volume;
    const status: Record<string, unknown> = { ...volume.status, phase };
    if (message) status.message = message;
    else delete status.message;
    if (phase !== volume.status?.phase) status.lastPhaseTransitionTime = this.ctx.clock.nowRFC3339();
    const saved = this.pvsClient.updateStatus({ ...volume, status }, { summary: `PersistentVolume ${volume.metadata.name} → ${phase}` });
    this.store(this.volumes, saved.metadata.name, saved);
    return saved;
  }

  private updateVolumePhaseWithEvent(
    volume: PersistentVolume,
    phase: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): void {
    if (volume.status?.phase === phase) return;
    const saved = this.updateVolumePhase(volume, phase, message);
    this.recorder.event(saved, type, reason, message);
  }

  private decide(o: APIObject, summary: string): void {
    recordDecision(
      this.ctx.relay,
      PV_CONTROLLER_PARTICIPANT,
      {
        resource: o.kind === 'PersistentVolume' ? 'persistentvolumes' : 'persistentvolumeclaims',
        namespace: o.metadata.namespace ?? null,
        name: o.metadata.name,
      },
      summary,
    );
  }
}
