/**
 * `window.__kubeRelay` (docs/ui-hooks.md#window__kuberelay): read-only state and `setEditorText`, for end-to-end
 * tests only — nothing in the app depends on it. Present in every build.
 */
import { kubeStore } from './store/store';
import { cluster } from './cluster-client';
import { editorMarkers, getEditorText, setEditorText } from './editor/editor-bridge';

export function installTestHook(): void {
  const hook: KubeRelayTestHook = {
    get objects() {
      return [...kubeStore.getState().objects.values()].map((o) => structuredClone(o.object));
    },
    get events() {
      return [...kubeStore.getState().events.values()].map((e) => structuredClone(e));
    },
    get relay() {
      return kubeStore.getState().hops.map((h) => ({ ...h }));
    },
    get simMs() {
      return kubeStore.getState().simMs;
    },
    get editorText() {
      return getEditorText();
    },
    get editorMarkers() {
      return editorMarkers();
    },
    setEditorText,
    crashWorker: () => cluster.crash(),
    hangWorker: (ms: number) => void cluster.hang(ms),
  };
  Object.defineProperty(window, '__kubeRelay', { value: Object.freeze(hook), configurable: true });
}
