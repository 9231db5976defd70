/**
 * The scheduling framework's vocabulary: Status codes, CycleState, plugin interfaces for
 * each extension point, and cluster events with queueing hints.
 *
 * Mirrors k8s.io/kube-scheduler/framework (interface.go: Code, Status, Plugin interfaces;
 * cycle_state.go) and pkg/scheduler/framework/events.go (ClusterEvent, QueueingHint).
 */
import type { APIObject, Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../api/objects';
import type { NodeInfo, PodInfo } from './node-info';

/** framework.Code. */
export type Code = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Wait' | 'Skip' | 'Pending';

/** framework.Status: a code, reasons (each counted separately in FitError) and the plugin. */
export interface Status {
  code: Code;
  reasons: string[];
  /** Plugin that produced the status (set by the framework on rejection). */
  plugin?: string;
}

/** A successful status (framework treats nil as Success). */
export const SUCCESS: Status = Object.freeze({ code: 'Success', reasons: [] }) as Status;

/** framework.NewStatus. */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}

/** True for Unschedulable and UnschedulableAndUnresolvable (Status.IsRejected). */
export function isRejected(s: Status): boolean {
  return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable' || s.code === 'Pending';
}

/** Status.Message(): the reasons joined with ", ". */
export function statusMessage(s: Status): string {
  return s.reasons.join(', ');
}

/** Data a plugin keeps in the cycle state; cloned for preemption's what-if runs. */
export interface StateData {
  clone(): StateData;
}

/**
 * framework.CycleState: per-cycle scratch space shared by the plugins of one scheduling
 * attempt. `skipFilterPlugins` / `skipScorePlugins` hold plugins whose PreFilter/PreScore
 * returned Skip.
 */
export class CycleState {
  private data = new Map<string, StateData>();
  skipFilterPlugins = new Set<string>();
  skipScorePlugins = new Set<string>();
  /**
   * The Filter plugins not in skipFilterPlugins, as RunFilterPlugins listed them at its first
   * node (the framework's own cache; PreFilter, which fills skipFilterPlugins, clears it).
   */
  activeFilterPlugins: readonly Plugin[] | undefined = undefined;

  read<T extends StateData>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  write(key: string, v: StateData): void {
    this.data.set(key, v);
  }
  /** Deep clone of every datum (CycleState.Clone). */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, v.clone());
    c.skipFilterPlugins = new Set(this.skipFilterPlugins);
    c.skipScorePlugins = new Set(this.skipScorePlugins);
    return c;
  }
}

/** Every plugin has a name (framework.Plugin). */
export interface Plugin {
  readonly name: string;
}

/** PreFilterPlugin, with the optional AddPod/RemovePod extensions preemption uses. */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): Status;
  addPod?(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): void;
  removePod?(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): void;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status;
}

/** Result of a PostFilter plugin: a status and maybe a nominated node. */
export interface PostFilterResult {
  status: Status;
  nominatedNodeName?: string;
  /** Victims deleted (for the decision record). */
  victims?: string[];
}

export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: PodInfo, nodeToStatus: NodeToStatus): PostFilterResult;
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): Status;
}

/** A node's score from one plugin (framework.NodeScore). */
export interface NodeScore {
  name: string;
  score: number;
}

export interface ScorePlugin extends Plugin {
  /** Raw score, integer. */
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number;
  /** ScoreExtensions.NormalizeScore: rewrites `scores` in place to 0..100. */
  normalizeScore?(state: CycleState, pod: PodInfo, scores: NodeScore[]): void;
}

/**
 * PreBindPlugin: runs in the binding cycle, before Bind. It may take time (VolumeBinding waits
 * for the PV controller): it calls `done` exactly once, possibly later on the simulated clock,
 * with Success or an error status (the binding cycle then fails).
 */
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: PodInfo, nodeName: string, done: (s: Status) => void): void;
}

export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: PodInfo, nodeName: string): Status;
}

/**
 * framework.NodeToStatus: statuses of rejected nodes, plus the status of nodes absent from
 * the map (set when PreFilter rejected every node).
 */
export interface NodeToStatus {
  map: Map<string, Status>;
  absent?: Status;
}

/** The resources a cluster event is about (framework.EventResource). */
export type EventResource =
  'Node' | 'Pod' | 'AssignedPod' | 'UnscheduledPod' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | 'WildCard';

/**
 * framework.ClusterEvent, with the fine-grained update kinds v1.33 uses
 * (UpdateNodeLabel, UpdateNodeTaint, UpdateNodeAllocatable, UpdatePodLabel, …).
 */
export interface ClusterEvent {
  resource: EventResource;
  action: 'Add' | 'Update' | 'Delete';
  /** For updates: which parts changed. */
  updates?: string[];
  /** Text for logs/relay, e.g. "NodeAdd", "AssignedPodDelete". */
  label: string;
}

/** framework.QueueingHint. */
export type QueueingHint = 'Queue' | 'QueueSkip';

/** The object kind an event of each resource carries (a wildcard event carries any kind). */
export interface EventObjects {
  Node: Node;
  Pod: Pod;
  AssignedPod: Pod;
  UnscheduledPod: Pod;
  PersistentVolumeClaim: PersistentVolumeClaim;
  PersistentVolume: PersistentVolume;
  StorageClass: StorageClass;
  WildCard: APIObject;
}

/**
 * framework.QueueingHintFn: `oldObj` / `newObj` are the event's object before and after (the
 * kind of {@link EventObjects} for the registration's resource; upstream's hints receive
 * interface{} and convert with util.As).
 */
export type QueueingHintFn<T extends APIObject = APIObject> = (
  pod: Pod,
  oldObj: T | undefined,
  newObj: T | undefined,
  ev: ClusterEvent,
) => QueueingHint;

/**
 * A plugin's interest in an event kind, with its hint function (EnqueueExtensions). A union over
 * the resources, so each hint's objects are typed by its `resource`.
 */
export type ClusterEventWithHint = {
  [R in EventResource]: {
    resource: R;
    actions: ('Add' | 'Update' | 'Delete')[];
    hint?: QueueingHintFn<EventObjects[R]>;
  };
}[EventResource];

/** Plugins that tell the queue which events may make a rejected pod schedulable. */
export interface EnqueueExtensions {
  eventsToRegister(): ClusterEventWithHint[];
}
