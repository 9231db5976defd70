/** Objects by key (everything but Events), Events by key, and the graph topology derived from them. */
import type { StateCreator } from 'zustand/vanilla';
import type { GraphTopology, KObject, StoredObject } from '../types';
import type { KubeState } from '../store';
import { emptyTopology } from '../topology';

export interface ResourcesSlice {
  objects: Map<string, StoredObject>;
  events: Map<string, KObject>;
  topology: GraphTopology;
}

export const EMPTY_TOPOLOGY: GraphTopology = emptyTopology();

export const createResourcesSlice: StateCreator<KubeState, [], [], ResourcesSlice> = () => ({
  objects: new Map(),
  events: new Map(),
  topology: EMPTY_TOPOLOGY,
});
