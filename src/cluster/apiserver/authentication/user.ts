/**
 * The authenticated identities of the built-in components (user.Info names and groups), shared
 * by the apiserver's own loops (apiextensions, the bootstrap controller) and every client
 * (client/clientset.ts re-exports them). Follows k8s.io/apiserver/pkg/authentication/user/user.go
 * (system:kube-scheduler, system:apiserver, the system:masters / system:nodes /
 * system:serviceaccounts groups) and the node authorizer's `system:node:<name>`.
 */
import type { RequestUser } from '../apiserver';

/**
 * Identities used by the built-in components (authentication names). Every identity but
 * kubectl's is an in-process component (`trusted`: its bodies skip the decode step).
 */
export const users = {
  kubectl: (participant = 'kubectl'): RequestUser => ({ name: 'kubernetes-admin', participant, groups: ['kubeadm:cluster-admins', 'system:authenticated'] }),
  scheduler: (): RequestUser => ({ name: 'system:kube-scheduler', participant: 'kube-scheduler', groups: ['system:authenticated'], trusted: true }),
  controller: (name: string): RequestUser => ({
    name: `system:serviceaccount:kube-system:${name}`,
    participant: `${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    trusted: true,
  }),
  node: (node: string, participant = `kubelet/${node}`): RequestUser => ({ name: `system:node:${node}`, participant, groups: ['system:nodes', 'system:authenticated'], trusted: true }),
  system: (participant: string): RequestUser => ({ name: 'system:apiserver', participant, groups: ['system:masters'], trusted: true }),
};
