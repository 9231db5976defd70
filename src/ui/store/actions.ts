/**
 * Module-level actions (zustand's "practice with no store actions"): the worker bridge and
 * components call these; none needs a hook.
 */
import type { TickBatch } from '../../worker/protocol';
import type { ConnectionStatus } from '../../worker/connect';
import { kubeStore, type KubeState } from './store';
import { reduceBatch } from './reducers';
import type { ApplyResult } from './types';

export function receiveBatch(batch: TickBatch): void {
  kubeStore.setState((s) => reduceBatch(s, batch));
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
