/** Sequence-diagram actions: the window and filters, picking a hop, an object's story. */
import { kubeStore, type KubeState } from '../store/store';
import { hopObject, objectOfKey, storeKeyOf, type SequenceView } from '../../cluster/relay/sequence/window';

export function setSequenceView(patch: Partial<SequenceView>): void {
  kubeStore.setState((s: KubeState) => ({ sequenceView: { ...s.sequenceView, ...patch } }));
}

/**
 * Selects a hop (clicked in the diagram): `selectedHop` for the graph's highlight, and its
 * object opened in the inspector when the store has it.
 */
export function selectHop(seq: number | null): void {
  const s = kubeStore.getState();
  if (seq === null) return kubeStore.setState({ selectedHop: null });
  const h = s.hops.find((x) => x.seq === seq);
  const o = h && hopObject(h);
  const key = o && storeKeyOf(o, s.objects.keys());
  kubeStore.setState({ selectedHop: seq, ...(key ? { selected: key } : {}) });
}

/** Shows one object's story (store key "Kind/namespace/name") in the diagram. */
export function showStory(key: string): void {
  setSequenceView({ mode: 'story', story: objectOfKey(key) });
}
