/**
 * Turns authorization on for an APIServer (kube-apiserver with
 * `--authorization-mode=Node,RBAC`): installs the authorizer chain, keeps its RBAC index in
 * step with writes to Roles, ClusterRoles and their bindings, and creates the bootstrap policy
 * (bootstrap-policy.ts), as the `rbac/bootstrap-roles` post-start hook of
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy does.
 */
import type { APIServer } from '../apiserver/apiserver';
import { Client, users } from '../client/clientset';
import { Rng } from '../sim/rng';
import { AuthorizerChain } from '../apiserver/auth/authorizer';
import { bootstrapPolicyObjects } from '../apiserver/auth/bootstrap-policy';
import { RBAC_RESOURCES } from '../apiserver/auth/rbac';

/** Installs the authorizer chain on `api`. @returns the chain. */
export function installAuthorization(api: APIServer): AuthorizerChain {
  const chain = new AuthorizerChain(api.store);
  api.authorizer = chain;
  api.afterWrite.push((ev) => {
    if (RBAC_RESOURCES.has(ev.resource)) chain.rbac.invalidate();
    else if (ev.resource === 'pods') chain.node.onPodEvent(ev);
  });
  return chain;
}

/**
 * Creates the bootstrap policy objects. Their uids come from an RNG stream of their own and
 * the shared RNG is put back afterwards, so every later name and uid of a run is what it was
 * before RBAC existed (docs: src/cluster/CONTEXT.md's pitfall about new RNG draws).
 */
export function createBootstrapPolicy(api: APIServer, seed: number): void {
  const sys = new Client(api, users.system('kube-apiserver'));
  const rng = api.rng as unknown as { a: number; b: number; c: number; d: number };
  const saved = { ...rng };
  const own = new Rng((seed ^ 0x5bac) >>> 0);
  for (const o of bootstrapPolicyObjects()) {
    const resource =
      o.kind === 'ClusterRole'
        ? 'clusterroles'
        : o.kind === 'ClusterRoleBinding'
          ? 'clusterrolebindings'
          : o.kind === 'Role'
            ? 'roles'
            : 'rolebindings';
    const created = sys
      .resource('rbac.authorization.k8s.io', resource)
      .create(o.metadata.namespace ?? '', o, { summary: `bootstrap ${o.kind} ${o.metadata.name}` });
    Object.assign(rng, saved);
    const key = o.metadata.namespace ? `${o.metadata.namespace}/${created.metadata.name}` : created.metadata.name;
    const stored = api.store.get(`${resource}.rbac.authorization.k8s.io`, key);
    if (stored) stored.obj.metadata.uid = own.uuid();
  }
}
