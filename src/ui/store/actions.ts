/**
 * Module-level actions (zustand's "practice with no store actions"): the worker bridge and
 * components call these; none needs a hook.
 */
import type { TickBatch } from '../../worker/protocol';
import type { ConnectionStatus } from '../../worker/connect';
import { kubeStore, type KubeState } from './store';
import type { ApplyResult, KubectlResult } from './types';
import { createReplay } from '../timeline/replay';

/** The app's timeline: batches fold through it so past moments can be replayed. */
const replay = createReplay(kubeStore);

export function receiveBatch(batch: TickBatch): void {
  replay.receive(batch);
}

/** Shows the cluster as it was at `simMs` (the timeline slider). */
export function scrubTo(simMs: number): void {
  replay.scrubTo(simMs);
}

export function goLive(): void {
  replay.goLive();
}

export function kubectlStarted(): void {
  kubeStore.setState({ kubectlRunning: true });
}

export function kubectlFinished(line: string, result: KubectlResult): void {
  kubeStore.setState({ kubectlRunning: false, kubectlLast: { line, result } });
}

export function setTheme(theme: KubeState['theme']): void {
  kubeStore.setState({ theme });
}

export function setHelpOpen(helpOpen: boolean): void {
  kubeStore.setState({ helpOpen });
}

export function setConnection(connection: ConnectionStatus, detail?: string): void {
  kubeStore.setState({ connection, connectionDetail: detail ?? null });
}

export function select(key: string | null): void {
  kubeStore.setState({ selected: key });
}

export function applyStarted(): void {
  kubeStore.setState({ applying: true, notice: null });
}

export function applyFinished(results: ApplyResult[]): void {
  kubeStore.setState({ applying: false, results });
}

export function applyFailed(message: string): void {
  kubeStore.setState({ applying: false, results: [{ object: '', namespace: null, action: 'error', message, warnings: [], documentIndex: 0, line: 1 }] });
}

export function setNotice(notice: string | null): void {
  kubeStore.setState({ notice });
}

export function setSequenceOptions(patch: Partial<KubeState['sequence']>): void {
  kubeStore.setState((s) => ({ sequence: { ...s.sequence, ...patch } }));
}
