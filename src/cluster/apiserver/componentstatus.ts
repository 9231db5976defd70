/**
 * v1 ComponentStatus (deprecated in v1.19, still served): pkg/registry/core/componentstatus/rest.go.
 * Nothing is stored: each get or list probes the control plane's components — kube-scheduler
 * and kube-controller-manager (`/healthz` answers `ok`) and each etcd server (`etcd-0`) — and
 * answers their Healthy condition. The engine's control plane always runs, so all are Healthy
 * with message `ok`. Only get and list are served (discovery's verbs); other verbs are 405.
 */
import type { KObject } from '../api/types';

/**
 * The components probed. kube-apiserver answers them in the order its concurrent probes finish;
 * the engine answers them by name (as a stored list would be), so every client sees one order.
 */
const COMPONENTS = ['controller-manager', 'etcd-0', 'scheduler'];

/** One ComponentStatus (creationTimestamp null: it is never stored). */
function componentStatus(name: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ComponentStatus',
    metadata: { name, creationTimestamp: null },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  } as unknown as KObject;
}

/** Every ComponentStatus as a list would answer them. */
export function componentStatuses(): KObject[] {
  return COMPONENTS.map(componentStatus);
}

/** The ComponentStatus `name`, or undefined (a 404 upstream: `componentstatuses "x" not found`). */
export function componentStatusNamed(name: string): KObject | undefined {
  return COMPONENTS.includes(name) ? componentStatus(name) : undefined;
}
