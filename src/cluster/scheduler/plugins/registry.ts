/**
 * The default profile's plugins, in the order and with the score weights of v1.33's
 * MultiPoint defaults (pkg/scheduler/apis/config/v1/default_plugins.go): SchedulingGates and
 * PrioritySort live in the scheduling queue; then NodeUnschedulable, NodeName,
 * TaintToleration (3), NodeAffinity (2), NodePorts, NodeResourcesFit (1), VolumeBinding,
 * PodTopologySpread (2), InterPodAffinity (2), DefaultPreemption,
 * NodeResourcesBalancedAllocation (1), ImageLocality (1), DefaultBinder.
 * (VolumeRestrictions, NodeVolumeLimits and VolumeZone are not modelled: no volume plugins.)
 */
import type { Pod } from '../../api/objects';
import type { Selector } from '../../api/labels';
import type { Client } from '../../client/clientset';
import type { PluginEntry } from '../framework';
import type { NodeInfo } from '../node-info';
import { DefaultBinder } from './default-binder';
import { DefaultPreemption, type PreemptionHandle } from './default-preemption';
import { ImageLocality } from './image-locality';
import { InterPodAffinity } from './inter-pod-affinity';
import { NodeAffinity } from './node-affinity';
import { NodeName } from './node-name';
import { NodePorts } from './node-ports';
import { NodeResourcesBalancedAllocation, NodeResourcesFit } from './node-resources-fit';
import { NodeUnschedulable } from './node-unschedulable';
import { PodTopologySpread } from './pod-topology-spread';
import { TaintToleration } from './taint-toleration';
import { VolumeBinding, type VolumeBindingDeps } from './volume-binding';

/** What the default plugins need from the scheduler (the framework Handle). */
export interface PluginDeps {
  client: Client;
  nodes: () => NodeInfo[];
  /** Nodes with pods with (required anti-)affinity (the snapshot's HavePodsWith… lists). */
  havePods?: { withAffinity(): NodeInfo[]; withRequiredAntiAffinity(): NodeInfo[] };
  imageNumNodes: (image: string) => number;
  defaultSelector: (pod: Pod) => Selector | null;
  preemption: PreemptionHandle;
  /** Informers and client for VolumeBinding (PVCs, PVs, StorageClasses). */
  volumes: VolumeBindingDeps;
}

/** The default profile (`default-scheduler`), in MultiPoint order, with weights. */
export function defaultPlugins(d: PluginDeps): PluginEntry[] {
  return [
    { plugin: new NodeUnschedulable(), weight: 0 },
    { plugin: new NodeName(), weight: 0 },
    { plugin: new TaintToleration(), weight: 3 },
    { plugin: new NodeAffinity(), weight: 2 },
    { plugin: new NodePorts(), weight: 0 },
    { plugin: new NodeResourcesFit(), weight: 1 },
    { plugin: new VolumeBinding(d.volumes), weight: 0 },
    { plugin: new PodTopologySpread(d.nodes, d.defaultSelector), weight: 2 },
    { plugin: new InterPodAffinity(d.nodes, d.havePods), weight: 2 },
    { plugin: new DefaultPreemption(d.preemption), weight: 0 },
    { plugin: new NodeResourcesBalancedAllocation(), weight: 1 },
    { plugin: new ImageLocality(() => d.nodes().length, d.imageNumNodes), weight: 1 },
    { plugin: new DefaultBinder(d.client), weight: 0 },
  ];
}
