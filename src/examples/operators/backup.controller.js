// @ts-check
// The Backup controller: a finalizer and a requeue.
// - A new Backup gets the finalizer first, so that deleting it waits for our cleanup.
// - The copy "takes" spec.durationSeconds: the reconcile asks to be called again then
//   (requeueAfter) instead of waiting; nothing else would wake it up.
// - On delete (deletionTimestamp set, finalizer still there) it removes the copy in the
//   "bucket" (a ConfigMap nothing owns), then the finalizer; then the apiserver deletes it.
// +kube-relay:for=backups.demo.kube-relay.dev
// The bucket's ConfigMaps are not owned, so the controller asks for them (kubebuilder's RBAC marker):
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete

const FINALIZER = 'demo.kube-relay.dev/bucket-cleanup';

/** @type {Reconcile} */
export async function reconcile(request, client) {
  /** @type {KubeObject} */
  let backup;
  try {
    backup = await client.get({ apiVersion: 'demo.kube-relay.dev/v1', kind: 'Backup', namespace: request.namespace, name: request.name });
  } catch (err) {
    if (ctrl.isNotFound(err)) return {};
    throw err;
  }
  const copy = { apiVersion: 'v1', kind: 'ConfigMap', namespace: request.namespace, name: `bucket-${request.name}` };

  if (backup.metadata.deletionTimestamp) {
    if (!ctrl.containsFinalizer(backup, FINALIZER)) return {};
    try {
      await client.delete(copy);
      await client.event(backup, 'Normal', 'CleanedUp', `Deleted the copy ${copy.name} from the bucket`);
    } catch (err) {
      if (!ctrl.isNotFound(err)) throw err;
    }
    ctrl.removeFinalizer(backup, FINALIZER);
    await client.update(backup); // the last finalizer gone: the apiserver deletes the Backup
    return {};
  }

  if (ctrl.addFinalizer(backup, FINALIZER)) {
    await client.update(backup); // the update wakes us again (level-triggered): carry on then
    return {};
  }

  const status = backup.status ?? {};
  const seconds = backup.spec.durationSeconds ?? 10;
  if (!status.phase) {
    backup.status = { phase: 'InProgress', startedAt: request.now };
    await client.updateStatus(backup);
    await client.event(backup, 'Normal', 'Started', `Copying ${backup.spec.source} (${seconds} s)`);
    return { requeueAfter: seconds };
  }
  if (status.phase === 'InProgress') {
    const left = seconds - (Date.parse(request.now) - Date.parse(status.startedAt)) / 1000;
    if (left > 0) return { requeueAfter: left };
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: copy.name, namespace: copy.namespace }, data: { source: backup.spec.source, takenAt: request.now } });
    backup.status = { ...status, phase: 'Completed', completedAt: request.now };
    await client.updateStatus(backup);
    await client.event(backup, 'Normal', 'Completed', `Copied ${backup.spec.source} to ${copy.name}`);
  }
  return {};
}
