/** Objects by key (everything but Events), Events by key, and the graph topology derived from them. */
import type { StateCreator } from 'zustand/vanilla';
import type { GraphTopology, KObject, PodSample, PodSummary, StoredObject } from '../types';
import type { KubeState } from '../store';
import { emptyTopology } from '../topology';

export interface ResourcesSlice {
  objects: Map<string, StoredObject>;
  events: Map<string, KObject>;
  topology: GraphTopology;
  /**
   * Set while the worker summarizes the Pods (the large-cluster path, worker/pod-summary.ts):
   * then `objects` holds no Pod and the graph draws these counts. Null below the threshold.
   */
  podSummary: PodSummary | null;
  /** While summarized: the Pods table's capped rows ("showing 500 of 200,000"); null otherwise. */
  podSample: PodSample | null;
}

export const EMPTY_TOPOLOGY: GraphTopology = emptyTopology();

export const createResourcesSlice: StateCreator<KubeState, [], [], ResourcesSlice> = () => ({
  objects: new Map(),
  events: new Map(),
  topology: EMPTY_TOPOLOGY,
  podSummary: null,
  podSample: null,
});
