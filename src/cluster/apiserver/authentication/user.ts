/**
 * The authenticated identities of the built-in components (user.Info names and groups), shared
 * by the apiserver's own loops (apiextensions, the bootstrap controller) and every client
 * (client/clientset.ts re-exports them). Follows k8s.io/apiserver/pkg/authentication/user/user.go
 * (system:kube-scheduler, system:apiserver, the system:masters / system:nodes /
 * system:serviceaccounts groups) and the node authorizer's `system:node:<name>`.
 */
import type { RequestUser } from '../apiserver';
import { CONTROLLER_SERVICE_ACCOUNTS } from '../auth/bootstrap-policy';
import type { TokenUser } from './serviceaccount';

/**
 * Identities used by the built-in components (authentication names). Every identity but
 * kubectl's is an in-process component (`trusted`: its bodies skip the decode step).
 */
export const users = {
  kubectl: (participant = 'kubectl'): RequestUser => ({
    name: 'kubernetes-admin',
    participant,
    groups: ['kubeadm:cluster-admins', 'system:authenticated'],
  }),
  scheduler: (): RequestUser => ({
    name: 'system:kube-scheduler',
    participant: 'kube-scheduler',
    groups: ['system:authenticated'],
    trusted: true,
  }),
  /** kube-controller-manager's own credential (its shared informers' lists and watches). */
  controllerManager: (): RequestUser => ({
    name: 'system:kube-controller-manager',
    participant: 'kube-controller-manager',
    groups: ['system:authenticated'],
    trusted: true,
  }),
  /**
   * A controller loop, as `--use-service-account-credentials` runs it: the ServiceAccount
   * kube-system/<sa>, where <sa> is the loop's upstream name (CONTROLLER_SERVICE_ACCOUNTS maps
   * the relay participants that differ, e.g. daemonset-controller → daemon-set-controller).
   */
  controller: (name: string): RequestUser => ({
    name: `system:serviceaccount:kube-system:${CONTROLLER_SERVICE_ACCOUNTS.get(name) ?? name}`,
    participant: `${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    trusted: true,
  }),
  node: (node: string, participant = `kubelet/${node}`): RequestUser => ({
    name: `system:node:${node}`,
    participant,
    groups: ['system:nodes', 'system:authenticated'],
    trusted: true,
  }),
  system: (participant: string): RequestUser => ({ name: 'system:apiserver', participant, groups: ['system:masters'], trusted: true }),
};

/** The RequestUser of a ServiceAccount token's user (APIServer.authenticateToken), under the relay name `participant`. */
export function tokenRequestUser(u: TokenUser, participant: string): RequestUser {
  return { name: u.name, participant, groups: u.groups, uid: u.uid, extra: u.extra };
}
