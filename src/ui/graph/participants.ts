/**
 * Relay participants (docs/architecture.md#relay-participants) → the graph cards that stand for them, and the link a
 * hop travels along. Every link touches kube-apiserver: components never call each other.
 */

export const APISERVER_CARD = 'cp:kube-apiserver';
export const ETCD_CARD = 'cp:etcd';
export const CONTROLLER_MANAGER_CARD = 'cp:kube-controller-manager';
export const SCHEDULER_CARD = 'cp:kube-scheduler';
export const KUBECTL_CARD = 'client:kubectl';
/** CoreDNS (the kube-dns Service's backend; relay participant `coredns`). */
export const COREDNS_CARD = 'cp:coredns';

/** The card id of a user controller (docs/user-controllers.md), drawn in the control plane. */
export function userControllerCard(name: string): string {
  return `user:${name}`;
}

/** Relay participants that are user controllers (their names), set from the worker's list. */
let userControllers: ReadonlySet<string> = new Set();

/** Sets which participants are user controllers (controllers/controller-store.ts). */
export function setUserControllerParticipants(names: readonly string[]): void {
  userControllers = new Set(names);
}

/** The card id of a kubelet (the card stands for the node's kubelet and its containerd). */
export function kubeletCard(node: string): string {
  return `kubelet/${node}`;
}

/** The card id of a node's kube-proxy. */
export function kubeProxyCard(node: string): string {
  return `kube-proxy/${node}`;
}

/** The card that draws a relay participant, or null when the graph has none for it. */
export function cardOfParticipant(p: string): string | null {
  if (p === 'kube-apiserver') return APISERVER_CARD;
  if (p === 'etcd') return ETCD_CARD;
  if (p === 'kube-scheduler') return SCHEDULER_CARD;
  if (userControllers.has(p)) return userControllerCard(p);
  // the instances of an HA control plane, `kube-scheduler (control-plane2)` …, and the process itself
  if (p === 'kube-controller-manager' || p.startsWith('kube-controller-manager (')) return CONTROLLER_MANAGER_CARD;
  if (p.startsWith('kube-scheduler (')) return SCHEDULER_CARD;
  if (p.startsWith('kube-apiserver (')) return APISERVER_CARD;
  if (p.endsWith('-controller')) return CONTROLLER_MANAGER_CARD;
  const slash = p.indexOf('/');
  if (slash > 0) {
    const comp = p.slice(0, slash);
    if (comp === 'kubelet' || comp === 'containerd') return kubeletCard(p.slice(slash + 1));
    if (comp === 'kube-proxy') return kubeProxyCard(p.slice(slash + 1));
    return null;
  }
  if (p === 'coredns') return COREDNS_CARD;
  // kubectl or another client's name
  return KUBECTL_CARD;
}

/** The id of the graph edge between a card and kube-apiserver. */
export function linkId(card: string): string {
  return `link:${card}`;
}

/**
 * The link a hop travels and its direction, or null when it does not cross kube-apiserver
 * (a note, a self-call, kubelet → containerd).
 */
export function linkOfHop(from: string, to: string): { link: string; toApiserver: boolean } | null {
  if (from === to) return null;
  const a = cardOfParticipant(from);
  const b = cardOfParticipant(to);
  if (!a || !b || a === b) return null;
  if (b === APISERVER_CARD) return { link: linkId(a), toApiserver: true };
  if (a === APISERVER_CARD) return { link: linkId(b), toApiserver: false };
  return null;
}
