/**
 * VolumeBinding: schedules a Pod together with its PersistentVolumeClaims.
 * - PreFilter: every claim must exist (`persistentvolumeclaim "x" not found`), not be Lost or
 *   deleting; an unbound claim whose class binds Immediately (or that names a volume) rejects
 *   the Pod with "pod has unbound immediate PersistentVolumeClaims" — the PV controller must
 *   bind it first.
 * - Filter: a bound claim's PV must accept the node ("node(s) had volume node affinity
 *   conflict"); an unbound WaitForFirstConsumer claim needs an Available PV that fits the node
 *   or a class that can provision there ("node(s) didn't find available persistent volumes to
 *   bind").
 * - PreBind (Reserve + PreBind): writes the chosen bindings — a PV's claimRef for static
 *   volumes, volume.kubernetes.io/selected-node on claims to provision — then polls every
 *   second (up to the 600 s bind timeout) until the PV controller has fully bound every claim;
 *   only then is the Pod bound to the node.
 *
 * Mirrors pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (podHasPVCs,
 * PreFilter, Filter, Reserve, PreBind, EventsToRegister) and binder.go (GetPodVolumeClaims,
 * FindPodVolumes, checkBoundClaims, findMatchingVolumes, checkVolumeProvisions,
 * AssumePodVolumes, BindPodVolumes, bindAPIUpdate, checkBindings). No volume scoring (the
 * StorageCapacityScoring feature is off by default), no CSIStorageCapacity.
 */
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/objects';
import { deepCopy } from '../../api/types';
import type { Lister } from '../../client/informer';
import type { ResourceClient } from '../../client/clientset';
import type { SimClock } from '../../sim/clock';
import { StatusError } from '../../api/errors';
import type { NodeInfo, PodInfo } from '../node-info';
import {
  newStatus,
  SUCCESS,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreBindPlugin,
  type PreFilterPlugin,
  type StateData,
  type Status,
} from '../types';
import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  NOT_SUPPORTED_PROVISIONER,
  claimClass,
  findMatchingVolume,
  getBindVolumeToClaim,
  isDelayBindingMode,
  pvFitsNode,
  requestedBytes,
  rvOf,
  volumeClass,
} from '../../component-helpers/storage/volume';
import { nodeSelectorMatches } from '../../component-helpers/scheduling/corev1';

/** ErrReasonBindConflict. */
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
/** ErrReasonNodeConflict. */
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
/** ErrReasonPVNotExist. */
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
/** PreFilter's rejection for claims the PV controller must bind first. */
export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** VolumeBindingArgs.BindTimeoutSeconds default: 600 s. */
export const BIND_TIMEOUT_MS = 600_000;
/** BindPodVolumes polls the claims every second. */
export const BIND_POLL_MS = 1_000;

/** What the plugin reads and writes (the framework Handle's informers and client). */
export interface VolumeBindingDeps {
  pvcs: Lister<PersistentVolumeClaim>;
  pvs: Lister<PersistentVolume>;
  classes: Lister<StorageClass>;
  /** The scheduler's pod cache (to stop waiting for a deleted Pod). */
  pods: Lister<Pod>;
  /** A node object by name. */
  node: (name: string) => Node | undefined;
  pvcClient: ResourceClient<PersistentVolumeClaim>;
  pvClient: ResourceClient<PersistentVolume>;
  clock: SimClock;
}

interface PodVolumes {
  staticBindings: { pv: PersistentVolume; pvc: PersistentVolumeClaim }[];
  dynamicProvisions: PersistentVolumeClaim[];
}

class VolumeBindingState implements StateData {
  skip = false;
  boundClaims: PersistentVolumeClaim[] = [];
  unboundDelay: PersistentVolumeClaim[] = [];
  pvsByClass = new Map<string, PersistentVolume[]>();
  byNode = new Map<string, PodVolumes>();
  clone(): StateData {
    return this;
  }
}

const STATE_KEY = 'VolumeBinding';

function isFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec?.volumeName && pvc.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

/** The VolumeBinding plugin (PreFilter, Filter, PreBind). */
export class VolumeBinding implements PreFilterPlugin, FilterPlugin, PreBindPlugin, EnqueueExtensions {
  readonly name = 'VolumeBinding';

  constructor(private readonly d: VolumeBindingDeps) {}

  /** The claims a pod mounts, with the error podHasPVCs reports for the first bad one. */
  private podClaims(pod: Pod): { claims: PersistentVolumeClaim[]; error?: string } {
    const ns = pod.metadata.namespace ?? '';
    const claims: PersistentVolumeClaim[] = [];
    for (const v of pod.spec?.volumes ?? []) {
      const ephemeral = !!v?.ephemeral;
      const name: string | undefined = v?.persistentVolumeClaim?.claimName ?? (ephemeral ? `${pod.metadata.name}-${v.name}` : undefined);
      if (!name) continue;
      const pvc = this.d.pvcs.get(`${ns}/${name}`);
      if (!pvc)
        return {
          claims,
          error: ephemeral
            ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"`
            : `persistentvolumeclaim "${name}" not found`,
        };
      if (pvc.status?.phase === 'Lost')
        return { claims, error: `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${pvc.spec?.volumeName ?? ''}"` };
      if (pvc.metadata.deletionTimestamp) return { claims, error: `persistentvolumeclaim "${name}" is being deleted` };
      claims.push(pvc);
    }
    return { claims };
  }

  preFilter(state: CycleState, pi: PodInfo): Status {
    const s = new VolumeBindingState();
    state.write(STATE_KEY, s);
    const { claims, error } = this.podClaims(pi.pod);
    if (error) return newStatus('UnschedulableAndUnresolvable', error);
    if (!claims.length) {
      s.skip = true;
      return newStatus('Skip');
    }
    let immediate = 0;
    for (const pvc of claims) {
      if (isFullyBound(pvc)) s.boundClaims.push(pvc);
      else if (isDelayBindingMode(pvc, this.d.classes) && !pvc.spec?.volumeName) s.unboundDelay.push(pvc);
      else immediate++;
    }
    if (immediate) return newStatus('UnschedulableAndUnresolvable', ERR_UNBOUND_IMMEDIATE);
    for (const pvc of s.unboundDelay) {
      const cls = claimClass(pvc);
      if (!s.pvsByClass.has(cls))
        s.pvsByClass.set(
          cls,
          this.d.pvs.list().filter((pv) => volumeClass(pv) === cls),
        );
    }
    return SUCCESS;
  }

  /** FindPodVolumes for one node. */
  filter(state: CycleState, _pi: PodInfo, ni: NodeInfo): Status {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    if (!s || s.skip) return SUCCESS;
    const node = ni.node!;
    let boundOK = true;
    let pvsFound = true;
    let unboundOK = true;
    for (const pvc of s.boundClaims) {
      const pv = this.d.pvs.get(pvc.spec.volumeName!);
      if (!pv) {
        pvsFound = false;
        break;
      }
      if (!pvFitsNode(pv, node)) {
        boundOK = false;
        break;
      }
    }
    const pv: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
    if (boundOK && pvsFound && s.unboundDelay.length) {
      const toMatch: PersistentVolumeClaim[] = [];
      const toProvision: PersistentVolumeClaim[] = [];
      for (const pvc of s.unboundDelay) {
        const sel = pvc.metadata.annotations?.[ANN_SELECTED_NODE];
        if (sel !== undefined && sel !== node.metadata.name) {
          unboundOK = false;
          break;
        }
        (sel !== undefined ? toProvision : toMatch).push(pvc);
      }
      if (unboundOK) {
        const chosen = new Set<string>();
        for (const pvc of [...toMatch].sort((a, b) => requestedBytes(a) - requestedBytes(b))) {
          // component-helpers' volume functions take and return any object; the match is one of the PVs passed
          const match = findMatchingVolume(pvc, s.pvsByClass.get(claimClass(pvc)) ?? [], node, chosen, true) as PersistentVolume | null;
          if (!match) {
            toProvision.push(pvc);
            continue;
          }
          chosen.add(match.metadata.name);
          pv.staticBindings.push({ pv: match, pvc });
        }
        for (const pvc of toProvision) {
          const clsName = claimClass(pvc);
          if (!clsName) return newStatus('Error', `no class for claim "${pvc.metadata.namespace}/${pvc.metadata.name}"`);
          const cls = this.d.classes.get(clsName);
          if (!cls) return newStatus('Error', `failed to find storage class "${clsName}"`);
          if (!cls.provisioner || cls.provisioner === NOT_SUPPORTED_PROVISIONER || !topologyMatches(cls, node)) {
            unboundOK = false;
            break;
          }
          pv.dynamicProvisions.push(pvc);
        }
      }
    }
    const reasons: string[] = [];
    if (!boundOK) reasons.push(ERR_REASON_NODE_CONFLICT);
    if (!unboundOK) reasons.push(ERR_REASON_BIND_CONFLICT);
    if (!pvsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
    if (reasons.length) return newStatus('UnschedulableAndUnresolvable', ...reasons);
    s.byNode.set(node.metadata.name, pv);
    return SUCCESS;
  }

  /** Reserve (AssumePodVolumes) + PreBind (BindPodVolumes): write, then wait for the PV controller. */
  preBind(state: CycleState, pi: PodInfo, nodeName: string, done: (s: Status) => void): void {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    if (!s || s.skip) return done(SUCCESS);
    if (this.podClaims(pi.pod).claims.every(isFullyBound)) return done(SUCCESS);
    const planned = s.byNode.get(nodeName);
    if (!planned) return done(newStatus('Error', `no pod volumes found for node "${nodeName}"`));
    const bindings: { pv: PersistentVolume; pvc: PersistentVolumeClaim }[] = [];
    const provisions: PersistentVolumeClaim[] = [];
    try {
      // bindAPIUpdate: static volumes get the claimRef; claims to provision get the selected node
      for (const b of planned.staticBindings) {
        const [next, dirty] = getBindVolumeToClaim(b.pv, b.pvc);
        const saved = dirty
          ? this.d.pvClient.update(next as PersistentVolume, {
              summary: `pre-bind PersistentVolume ${b.pv.metadata.name} to claim ${b.pvc.metadata.namespace}/${b.pvc.metadata.name}`,
            })
          : b.pv;
        bindings.push({ pv: saved, pvc: b.pvc });
      }
      for (const pvc of planned.dynamicProvisions) {
        const next = deepCopy(pvc);
        next.metadata.annotations = { ...next.metadata.annotations, [ANN_SELECTED_NODE]: nodeName };
        provisions.push(
          this.d.pvcClient.update(next, {
            summary: `annotate PVC ${pvc.metadata.namespace}/${pvc.metadata.name}: ${ANN_SELECTED_NODE}=${nodeName}`,
          }),
        );
      }
    } catch (err) {
      return done(newStatus('Error', err instanceof StatusError || err instanceof Error ? err.message : String(err)));
    }
    const deadline = this.d.clock.now() + BIND_TIMEOUT_MS;
    const poll = () => {
      let r: boolean | string;
      try {
        r = this.checkBindings(pi.pod, nodeName, bindings, provisions);
      } catch (err) {
        r = err instanceof Error ? err.message : String(err);
      }
      if (typeof r === 'string') return done(newStatus('Error', `binding volumes: ${r}`));
      if (r) return done(SUCCESS);
      if (this.d.clock.now() + BIND_POLL_MS > deadline) return done(newStatus('Error', 'binding volumes: context deadline exceeded'));
      this.d.clock.setTimer(BIND_POLL_MS, poll, { label: `kube-scheduler: waiting for volumes of ${pi.key}` });
    };
    this.d.clock.setTimer(BIND_POLL_MS, poll, { label: `kube-scheduler: waiting for volumes of ${pi.key}` });
  }

  /** checkBindings: true when all bound, false to keep waiting, a string when binding must be retried. */
  private checkBindings(
    pod: Pod,
    nodeName: string,
    bindings: { pv: PersistentVolume; pvc: PersistentVolumeClaim }[],
    provisions: PersistentVolumeClaim[],
  ): boolean | string {
    const node = this.d.node(nodeName);
    if (!node) return `failed to get node "${nodeName}": node "${nodeName}" not found`;
    if (!this.d.pods.get(`${pod.metadata.namespace}/${pod.metadata.name}`))
      return `pod does not exist any more: pods "${pod.metadata.name}" not found`;
    for (const b of bindings) {
      const pv = this.d.pvs.get(b.pv.metadata.name);
      const pvc = this.d.pvcs.get(`${b.pvc.metadata.namespace}/${b.pvc.metadata.name}`);
      if (!pv) return `failed to check binding: PersistentVolume "${b.pv.metadata.name}" not found`;
      if (!pvc) return `failed to check binding: PersistentVolumeClaim "${b.pvc.metadata.namespace}/${b.pvc.metadata.name}" not found`;
      if (rvOf(b.pv) > rvOf(pv)) return false;
      if (!pvFitsNode(pv, node))
        return `pv "${pv.metadata.name}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`;
      if (!pv.spec?.claimRef?.uid) return `ClaimRef got reset for pv "${pv.metadata.name}"`;
      if (!isFullyBound(pvc)) return false;
    }
    for (const claim of provisions) {
      const pvc = this.d.pvcs.get(`${claim.metadata.namespace}/${claim.metadata.name}`);
      if (!pvc)
        return `failed to check provisioning pvc: PersistentVolumeClaim "${claim.metadata.namespace}/${claim.metadata.name}" not found`;
      if (rvOf(claim) > rvOf(pvc)) return false;
      if (pvc.metadata.annotations?.[ANN_SELECTED_NODE] !== nodeName) return `provisioning failed for PVC "${pvc.metadata.name}"`;
      if (pvc.spec?.volumeName) {
        const pv = this.d.pvs.get(pvc.spec.volumeName);
        if (!pv) return false;
        if (!pvFitsNode(pv, node))
          return `pv "${pv.metadata.name}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`;
      }
      if (!isFullyBound(pvc)) return false;
    }
    return true;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    const usesClaims = (pod: Pod) => (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim || v.ephemeral);
    return [
      { resource: 'StorageClass', actions: ['Add', 'Update'] },
      { resource: 'PersistentVolumeClaim', actions: ['Add', 'Update'] },
      { resource: 'PersistentVolume', actions: ['Add', 'Update'], hint: (pod) => (usesClaims(pod) ? 'Queue' : 'QueueSkip') },
      {
        resource: 'Node',
        actions: ['Add', 'Update'],
        hint: (_p, _o, _n, ev) =>
          ev.action === 'Add' || (ev.updates ?? []).some((u) => u === 'UpdateNodeLabel' || u === 'UpdateNodeTaint') ? 'Queue' : 'QueueSkip',
      },
    ];
  }
}

/** MatchTopologySelectorTerms of a class's allowedTopologies (none: every node). */
function topologyMatches(cls: StorageClass, node: Node): boolean {
  const terms = cls.allowedTopologies;
  if (!terms?.length) return true;
  return nodeSelectorMatches(
    terms.map((t) => ({
      matchExpressions: (t.matchLabelExpressions ?? []).map((e) => ({ key: e.key, operator: 'In', values: e.values })),
    })),
    node,
  );
}
