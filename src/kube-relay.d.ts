/** The test hook's type (docs/ui-hooks.md#window__kuberelay); read by src/ui/test-hook.ts and e2e/. */
import type { KObject } from './cluster/api/types';
import type { RelayHop } from './cluster/relay/relay-event';

declare global {
  interface KubeRelayTestHook {
    /** Every stored object but Events (copies). */
    readonly objects: KObject[];
    /** core/v1 Events (copies). */
    readonly events: KObject[];
    /** Relay hops the UI holds, oldest first. */
    readonly relay: RelayHop[];
    /** Simulated ms since the cluster started. */
    readonly simMs: number;
    readonly editorText: string;
    /** Monaco's markers on the active tab's model (owner: "yaml", "apiserver"). */
    readonly editorMarkers: { severity: number; message: string; line: number; owner: string }[];
    setEditorText(text: string): void;
    /** Crashes the cluster worker (the crash-recovery test); nothing else calls it. */
    crashWorker(): Promise<void>;
    /** Makes the cluster worker busy-loop for `ms` wall ms (at most 60,000; the watchdog test); nothing else calls it. */
    hangWorker(ms: number): void;
  }
  interface Window {
    __kubeRelay?: KubeRelayTestHook;
  }
}

export {};
