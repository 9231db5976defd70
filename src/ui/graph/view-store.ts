/**
 * The graph's own view options (not cluster state, not replayed by the timeline): which layers
 * are drawn and which Pod groups are expanded. A small vanilla zustand store with module-level
 * actions, like the app's store (docs/style.md#ui-state).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

/**
 * Toggleable layers of object cards (Pods, nodes and the control plane are always drawn).
 * `system` (off by default) adds the cluster's own objects to the other layers: everything in
 * kube-system / kube-public / kube-node-lease (coredns's Deployment and ReplicaSet, the kube-dns
 * Service), the `default/kubernetes` Service, their EndpointSlices, and StorageClasses no drawn
 * claim or volume uses. kube-system Pods stay on their nodes either way.
 */
export type Layer = 'workloads' | 'networking' | 'storage' | 'autoscaling' | 'system';
export const LAYERS: readonly Layer[] = ['workloads', 'networking', 'storage', 'autoscaling', 'system'];

export interface GraphView {
  layers: Readonly<Record<Layer, boolean>>;
  /** ids of Pod groups (see model.ts groupId) the user expanded */
  expanded: ReadonlySet<string>;
}

export const DEFAULT_VIEW: GraphView = {
  layers: { workloads: true, networking: true, storage: true, autoscaling: true, system: false },
  expanded: new Set(),
};

export const graphViewStore = createStore<GraphView>()(() => DEFAULT_VIEW);

export function useGraphView<T>(selector: (v: GraphView) => T): T {
  return useStore(graphViewStore, selector);
}

export function toggleLayer(layer: Layer): void {
  graphViewStore.setState((v) => ({ layers: { ...v.layers, [layer]: !v.layers[layer] } }));
}

export function toggleGroup(id: string): void {
  graphViewStore.setState((v) => {
    const expanded = new Set(v.expanded);
    if (!expanded.delete(id)) expanded.add(id);
    return { expanded };
  });
}
