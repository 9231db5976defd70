/**
 * Narrow views of the in-process apiserver for code that is not a client of it: what runs
 * inside kube-apiserver itself, and the world outside the API. Components get a Client and
 * informers (component-context.ts), never the APIServer; each of these hands one caller the
 * few methods it needs, and says why that caller may bypass the request pipeline.
 */
import type { KObject } from '../api/types';
import type { Rng } from '../sim/rng';
import type { StoreEvent } from '../storage/mvcc';
import type { APIServer } from './apiserver';

/**
 * The storage a controller running inside kube-apiserver sees
 * (pkg/controlplane/controller/kubernetesservice and systemnamespaces use the apiserver's own
 * storage and loopback informers): the store's writes as they happen and a read of one stored
 * object, neither a request, so neither shows in the relay — as upstream's in-process
 * loopback reads do not go through the network. Used by controlplane/bootstrap-controller.ts.
 */
export interface APIServerStorage {
  /** Follows every write of the store; returns the function that stops following. */
  listen(l: (ev: StoreEvent) => void): () => void;
  /** The stored object (store resource, e.g. "services" or "endpointslices.discovery.k8s.io"), or undefined. */
  getObject(resource: string, namespace: string, name: string): KObject | undefined;
}

/**
 * Runs writes on a uid stream of their own (APIServer.withRng), so writes added later (leader
 * election's Leases and Events, identity Leases) do not shift every later name and uid: the
 * control plane's assembly (control-plane.ts) isolates its candidates' writes with it.
 */
export interface UIDStreams {
  withRng<T>(rng: Rng, fn: () => T): T;
}

/**
 * The stored objects as the world outside the API finds them (traffic/: packets reach Pods by
 * their IPs and kube-proxy's rules, not through API reads; nothing of it is a request, nothing
 * shows in the relay).
 */
export interface StoredObjects {
  /** The stored objects of a store resource (one namespace or all), in key order. */
  listObjects(resource: string, namespace?: string): KObject[];
  /** One stored object, or undefined. */
  getObject(resource: string, namespace: string, name: string): KObject | undefined;
}

/** The {@link APIServerStorage} of `api` (the store's listener and a stored read). */
export function apiserverStorage(api: APIServer): APIServerStorage {
  return {
    listen: (l) => api.store.listen(l),
    getObject: (resource, namespace, name) => api.getObject(resource, namespace, name),
  };
}
