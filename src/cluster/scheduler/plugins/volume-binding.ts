/**
 * VolumeBinding: a pass-through for now.
 *
 * TODO: implement as pkg/scheduler/framework/plugins/volumebinding/volume_binding.go does —
 * PreFilter (pod's PVCs exist: `persistentvolumeclaim "x" not found`; unbound immediate
 * claims: "pod has unbound immediate PersistentVolumeClaims"), Filter (bound PVs' node
 * affinity: "node(s) had volume node affinity conflict"; WaitForFirstConsumer claims:
 * "node(s) didn't find available persistent volumes to bind"), Reserve/PreBind (set the
 * selected-node annotation). The scheduler would then add informers for PVCs, PVs and
 * StorageClasses (its SharedInformerFactory is ready for them).
 */
import { SUCCESS, type CycleState, type FilterPlugin, type Status } from '../types';

/** The VolumeBinding plugin (pass-through). */
export class VolumeBinding implements FilterPlugin {
  readonly name = 'VolumeBinding';

  filter(_s: CycleState): Status {
    return SUCCESS;
  }
}
