/**
 * Simulated external provisioners: what runs, on a real cluster, as a Deployment next to the
 * control plane and turns a claim annotated with volume.kubernetes.io/storage-provisioner into
 * a PersistentVolume — kind's rancher/local-path-provisioner for `rancher.io/local-path`, and
 * a generic CSI-style provisioner for any other provisioner a StorageClass names.
 *
 * Follows sigs.k8s.io/sig-storage-lib-external-provisioner controller/controller.go
 * (shouldProvision: unbound claim, our provisioner annotation, a selected node for
 * WaitForFirstConsumer classes; provisionClaimOperation: event Provisioning, PV named
 * pvc-<claim uid> with claimRef, storageClassName and pv.kubernetes.io/provisioned-by, event
 * ProvisioningSucceeded or ProvisioningFailed; shouldDelete/deleteVolumeOperation: a Released
 * PV with reclaim policy Delete that we provisioned is deleted) and
 * rancher/local-path-provisioner provisioner.go (hostPath
 * /var/local-path-provisioner/pvc-<uid>_<namespace>_<claim>, type DirectoryOrCreate,
 * required node affinity kubernetes.io/hostname In [<selected node>], annotation
 * local.path.provisioner/selected-node; "configuration error, no node was specified" without
 * a selected node; a helper Pod creates or removes the directory — its run time is
 * {@link LOCAL_PATH_HELPER_POD_MS}).
 *
 * Relay participant: `local-path-provisioner` (or `external-provisioner/<provisioner>`).
 * Event source: `<provisioner>_<provisioner pod>_<id>`, as the library names its identity.
 * Hosted by the ControllerManager for convenience (it pauses with it); it only watches and
 * writes the apiserver, with its own service-account identity.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import type { Client, ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import type { RequestUser } from '../apiserver/apiserver';
import { metaNamespaceKey } from '../api/types';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../api/objects';
import { StatusError } from '../api/errors';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  claimKey,
  claimReference,
} from '../component-helpers/storage/volume';

/** kind's provisioner name. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
/** Where kind's local-path-provisioner keeps volumes on each node. */
export const LOCAL_PATH_DIR = '/var/local-path-provisioner';
/** How long local-path's helper Pod takes to create (or remove) a volume directory. */
export const LOCAL_PATH_HELPER_POD_MS = 2_000;
/** How long the generic CSI-style provisioner takes to create or delete a volume. */
export const GENERIC_PROVISION_MS = 1_000;
/** local-path's own annotation on the PVs it makes. */
export const ANN_LOCAL_PATH_SELECTED_NODE = 'local.path.provisioner/selected-node';

/** The relay participant of a provisioner. */
export function provisionerParticipant(provisioner: string): string {
  return provisioner === LOCAL_PATH_PROVISIONER ? 'local-path-provisioner' : `external-provisioner/${provisioner}`;
}

/** The library's identity (events' source.component): `<provisioner>_<pod>_<id>`. */
export function provisionerIdentity(provisioner: string): string {
  return provisioner === LOCAL_PATH_PROVISIONER
    ? 'rancher.io/local-path_local-path-provisioner-7dc846544d-q8ckx_4f0a3d7e-5b1c-4e2a-9a61-0c2b7d9e8f13'
    : `${provisioner}_csi-provisioner-0_7b3e1c52-2d4f-4c8e-a0f6-9e5d1b2c3a47`;
}

/** The service-account identity the provisioner's requests carry. */
function provisionerUser(provisioner: string): RequestUser {
  const local = provisioner === LOCAL_PATH_PROVISIONER;
  const ns = local ? 'local-path-storage' : 'kube-system';
  const sa = local ? 'local-path-provisioner-service-account' : 'csi-provisioner';
  return {
    name: `system:serviceaccount:${ns}:${sa}`,
    participant: provisionerParticipant(provisioner),
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
  };
}

interface ProvisionerHandle {
  client: Client;
  pvcs: ResourceClient<PersistentVolumeClaim>;
  pvs: ResourceClient<PersistentVolume>;
  recorder: EventRecorder;
}

/**
 * Every external provisioner of the cluster, in one component: each claim is handled by the
 * provisioner its annotation names, with that provisioner's identity and events.
 */
export class ExternalProvisioners {
  private readonly claimQueue: RateLimitingQueue;
  private readonly volumeQueue: RateLimitingQueue;
  private readonly claims: SharedInformer<PersistentVolumeClaim>;
  private readonly volumes: SharedInformer<PersistentVolume>;
  private readonly classes: SharedInformer<StorageClass>;
  private readonly handles = new Map<string, ProvisionerHandle>();
  /** Claims (by uid) / volumes (by name) with an operation in flight (the library's goroutine map). */
  private readonly provisioning = new Set<string>();
  private readonly deleting = new Set<string>();

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.claimQueue = new RateLimitingQueue('provisioner-claims', ctx.clock, ctx.relay, (k) => this.syncClaim(k));
    this.volumeQueue = new RateLimitingQueue('provisioner-volumes', ctx.clock, ctx.relay, (k) => this.syncVolume(k));
    this.claims = informers.informerFor<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.volumes = informers.informerFor<PersistentVolume>('', 'persistentvolumes');
    this.classes = informers.informerFor<StorageClass>('storage.k8s.io', 'storageclasses');
    const participant = provisionerParticipant(LOCAL_PATH_PROVISIONER);
    this.claims.addEventHandler({
      participant,
      filter: (c) => !!provisionerOf(c) && !c.spec?.volumeName,
      onAdd: (c) => this.claimQueue.add(metaNamespaceKey(c)),
      onUpdate: (_o, c) => this.claimQueue.add(metaNamespaceKey(c)),
    });
    this.volumes.addEventHandler({
      participant,
      filter: (v) => !!v.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] && v.status?.phase === 'Released',
      onAdd: (v) => this.volumeQueue.add(v.metadata.name),
      onUpdate: (_o, v) => this.volumeQueue.add(v.metadata.name),
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
  resync(): void {
    for (const c of this.claims.list()) if (provisionerOf(c) && !c.spec?.volumeName) this.claimQueue.add(metaNamespaceKey(c));
    for (const v of this.volumes.list()) if (v.status?.phase === 'Released') this.volumeQueue.add(v.metadata.name);
  }

  private handle(provisioner: string): ProvisionerHandle {
    let h = this.handles.get(provisioner);
    if (!h) {
      const client = this.ctx.client(provisionerUser(provisioner));
      h = {
        client,
        pvcs: client.resource<PersistentVolumeClaim>('', 'persistentvolumeclaims'),
        pvs: client.resource<PersistentVolume>('', 'persistentvolumes'),
        recorder: this.ctx.recorder(client, provisionerIdentity(provisioner)),
      };
      this.handles.set(provisioner, h);
    }
    return h;
  }

  /** shouldProvision + provisionClaimOperation (the PV appears after the provisioning time). */
  private syncClaim(key: string): void {
    const claim = this.claims.get(key);
    if (!claim || claim.spec?.volumeName || claim.metadata.deletionTimestamp) return;
    const provisioner = provisionerOf(claim);
    if (!provisioner || this.provisioning.has(claim.metadata.uid ?? '')) return;
    const cls = this.classes.get(claimClass(claim));
    if (!cls || cls.provisioner !== provisioner) return;
    const selectedNode = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !selectedNode) return;
    const pvName = `pvc-${claim.metadata.uid}`;
    if (this.volumes.get(pvName)) return; // already provisioned
    const h = this.handle(provisioner);
    h.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${claimKey(claim)}"`);
    const local = provisioner === LOCAL_PATH_PROVISIONER;
    const failure = local ? localPathError(claim, selectedNode) : null;
    if (failure) {
      h.recorder.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `failed to provision volume with StorageClass "${cls.metadata.name}": ${failure}`,
      );
      return;
    }
    this.provisioning.add(claim.metadata.uid ?? '');
    const cause = this.ctx.relay.currentCause;
    const delay = local ? LOCAL_PATH_HELPER_POD_MS : GENERIC_PROVISION_MS;
    this.ctx.relay.record({
      from: provisionerParticipant(provisioner),
      to: provisionerParticipant(provisioner),
      kind: 'decision',
      resource: 'persistentvolumeclaims',
      namespace: claim.metadata.namespace ?? null,
      name: claim.metadata.name,
      summary: local
        ? `create ${localPath(claim)} on ${selectedNode} (helper pod), then PV ${pvName}`
        : `create volume ${pvName} for claim ${claimKey(claim)}`,
    });
    this.ctx.clock.setTimer(
      delay,
      () => this.ctx.relay.withCause(cause, () => this.finishProvisioning(key, claim.metadata.uid ?? '', provisioner)),
      {
        deadline: true,
        label: `${provisionerParticipant(provisioner)}: volume ${pvName} ready`,
        object: `PersistentVolumeClaim/${key}`,
      },
    );
  }

  private finishProvisioning(key: string, uid: string, provisioner: string): void {
    this.provisioning.delete(uid);
    const claim = this.claims.get(key);
    if (!claim || claim.metadata.uid !== uid || claim.spec?.volumeName) return;
    const cls = this.classes.get(claimClass(claim));
    if (!cls) return;
    const h = this.handle(provisioner);
    const pv = provisioner === LOCAL_PATH_PROVISIONER ? localPathVolume(claim, cls) : genericVolume(claim, cls, provisioner);
    try {
      h.pvs.create('', pv, { summary: `create PersistentVolume ${pv.metadata.name} for claim ${claimKey(claim)}` });
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) {
        h.recorder.event(
          claim,
          'Warning',
          'ProvisioningFailed',
          `failed to provision volume with StorageClass "${cls.metadata.name}": ${err instanceof Error ? err.message : String(err)}`,
        );
        throw err;
      }
    }
    h.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pv.metadata.name}`);
  }

  /** shouldDelete + deleteVolumeOperation: a Released, Delete-policy volume we made goes away. */
  private syncVolume(name: string): void {
    const pv = this.volumes.get(name);
    if (!pv || pv.status?.phase !== 'Released' || pv.spec?.persistentVolumeReclaimPolicy !== 'Delete' || pv.metadata.deletionTimestamp)
      return;
    const provisioner = pv.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
    if (!provisioner || provisioner.startsWith('kubernetes.io/') || this.deleting.has(name)) return;
    this.deleting.add(name);
    const cause = this.ctx.relay.currentCause;
    const local = provisioner === LOCAL_PATH_PROVISIONER;
    this.ctx.relay.record({
      from: provisionerParticipant(provisioner),
      to: provisionerParticipant(provisioner),
      kind: 'decision',
      resource: 'persistentvolumes',
      name,
      summary: local
        ? `volume ${name} Released with reclaim policy Delete → remove ${pv.spec?.hostPath?.path ?? name} (helper pod), then the PV`
        : `volume ${name} Released with reclaim policy Delete → delete it`,
    });
    this.ctx.clock.setTimer(
      local ? LOCAL_PATH_HELPER_POD_MS : GENERIC_PROVISION_MS,
      () =>
        this.ctx.relay.withCause(cause, () => {
          this.deleting.delete(name);
          const cur = this.volumes.get(name);
          if (!cur || cur.metadata.uid !== pv.metadata.uid || cur.metadata.deletionTimestamp) return;
          try {
            this.handle(provisioner).pvs.delete('', name, { summary: `delete PersistentVolume ${name} (reclaim policy Delete)` });
          } catch (err) {
            if (!(err instanceof StatusError && err.code === 404)) throw err;
          }
        }),
      { deadline: true, label: `${provisionerParticipant(provisioner)}: delete volume ${name}`, object: `PersistentVolume/${name}` },
    );
  }
}

/** The provisioner a claim was handed to (volume.kubernetes.io/storage-provisioner or its beta twin). */
function provisionerOf(claim: PersistentVolumeClaim): string | undefined {
  return claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] ?? claim.metadata.annotations?.[ANN_BETA_STORAGE_PROVISIONER];
}

/** local-path's directory for a claim. */
export function localPath(claim: PersistentVolumeClaim): string {
  return `${LOCAL_PATH_DIR}/pvc-${claim.metadata.uid}_${claim.metadata.namespace}_${claim.metadata.name}`;
}

function localPathError(claim: PersistentVolumeClaim, node: string | undefined): string | null {
  if (claim.spec?.selector) return 'claim.Spec.Selector is not supported';
  if (!node) return 'configuration error, no node was specified';
  return null;
}

function baseVolume(claim: PersistentVolumeClaim, cls: StorageClass, provisioner: string): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `pvc-${claim.metadata.uid}`, annotations: { [ANN_DYNAMICALLY_PROVISIONED]: provisioner } },
    spec: {
      accessModes: claim.spec?.accessModes,
      capacity: { storage: claim.spec?.resources?.requests?.storage as string }, // required by the claim's validation
      claimRef: claimReference(claim),
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
      storageClassName: cls.metadata.name,
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      ...(cls.mountOptions ? { mountOptions: cls.mountOptions } : {}),
    },
  };
}

/** provisioner.go provisionFor (hostPath volume type). */
function localPathVolume(claim: PersistentVolumeClaim, cls: StorageClass): PersistentVolume {
  const node = claim.metadata.annotations![ANN_SELECTED_NODE];
  const pv = baseVolume(claim, cls, LOCAL_PATH_PROVISIONER);
  pv.metadata.annotations![ANN_LOCAL_PATH_SELECTED_NODE] = node;
  pv.spec.volumeMode = 'Filesystem';
  pv.spec.hostPath = { path: localPath(claim), type: 'DirectoryOrCreate' };
  pv.spec.nodeAffinity = {
    required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] },
  };
  return pv;
}

/** A CSI-driver volume for any other provisioner. */
function genericVolume(claim: PersistentVolumeClaim, cls: StorageClass, provisioner: string): PersistentVolume {
  const pv = baseVolume(claim, cls, provisioner);
  pv.spec.csi = {
    driver: provisioner,
    volumeHandle: `pvc-${claim.metadata.uid}`,
    fsType: cls.parameters?.['csi.storage.k8s.io/fstype'] ?? 'ext4',
  };
  return pv;
}
