/**
 * What a process inside a Pod needs to talk to the apiserver "in cluster": the identity of the
 * Pod's ServiceAccount (k8s.io/client-go/rest.InClusterConfig reads the projected token of
 * `spec.serviceAccountName`; the apiserver's ServiceAccount authenticator maps it to
 * `system:serviceaccount:NS:SA` in groups `system:serviceaccounts`,
 * `system:serviceaccounts:NS`, `system:authenticated`), plus a deterministic seed for anything
 * the program would draw from crypto/rand.
 */
import type { ComponentContext } from '../../component-context';
import type { Client } from '../../client/clientset';
import type { KObject } from '../../api/types';

/** The in-cluster view of one container: its Pod, its ServiceAccount and a client as that account. */
export interface InCluster {
  namespace: string;
  podName: string;
  serviceAccount: string;
  /** A client authenticated as the Pod's ServiceAccount; relay participant `pod/NS/NAME`. */
  client: () => Client;
  /** 32-bit seed derived from the Pod's uid and the container name (stands in for crypto/rand). */
  seed: number;
}

/** FNV-1a, 32 bit: a stable seed from a string. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The in-cluster config of a container of `pod` (the kubelet builds it when it starts the container). */
export function inClusterFor(ctx: ComponentContext, pod: KObject, container: string): InCluster {
  const namespace = pod.metadata.namespace ?? 'default';
  const sa: string = pod.spec?.serviceAccountName || 'default';
  const user = {
    name: `system:serviceaccount:${namespace}:${sa}`,
    participant: `pod/${namespace}/${pod.metadata.name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
  return {
    namespace,
    podName: pod.metadata.name,
    serviceAccount: sa,
    client: () => ctx.client(user),
    seed: fnv1a32(`${pod.metadata.uid ?? pod.metadata.name}/${container}`),
  };
}
