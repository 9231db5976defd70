/**
 * ClusterRoleAggregationController, after kubernetes/kubernetes
 * pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go: every ClusterRole
 * with an aggregationRule gets, as its rules, the rules of the ClusterRoles its
 * clusterRoleSelectors match (by name order, itself excluded, each rule once), written with a
 * server-side apply by field manager `clusterrole-aggregation-controller` (force). Any
 * ClusterRole change enqueues every aggregated ClusterRole (enqueue). This is how `admin`,
 * `edit` and `view` gain the `system:aggregate-to-*` rules, and a ClusterRole labelled
 * `rbac.authorization.k8s.io/aggregate-to-view: "true"` extends `view`.
 * Relay participant `clusterrole-aggregation-controller`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { deepEqual } from '../api/types';
import type { ClusterRole } from '../api/objects';
import type { PolicyRule } from 'kubernetes-types/rbac/v1';
import { fromLabelSelector, matches } from '../api/labels';
import { recordDecision } from './controller-utils';

/** Relay participant (and ServiceAccount) of this controller. */
export const ClusterRoleAggregationControllerName = 'clusterrole-aggregation-controller';

export class ClusterRoleAggregationController {
  readonly name = ClusterRoleAggregationControllerName;
  readonly queue: RateLimitingQueue;
  private readonly roles: SharedInformer<ClusterRole>;
  private readonly client: ResourceClient<ClusterRole>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx
      .client(users.controller(ClusterRoleAggregationControllerName))
      .resource<ClusterRole>('rbac.authorization.k8s.io', 'clusterroles');
    this.roles = informers.informerFor<ClusterRole>('rbac.authorization.k8s.io', 'clusterroles');
    this.queue = new RateLimitingQueue('ClusterRoleAggregator', ctx.clock, ctx.relay, (key) => this.syncClusterRole(key));
    this.roles.addEventHandler({
      participant: ClusterRoleAggregationControllerName,
      onAdd: () => this.enqueue(),
      onUpdate: () => this.enqueue(),
      onDelete: () => this.enqueue(),
    });
  }

  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }
  resync(): void {
    this.enqueue();
  }

  /** enqueue: every ClusterRole with an aggregationRule. */
  private enqueue(): void {
    for (const r of this.roles.list()) if (r.aggregationRule) this.queue.add(r.metadata.name);
  }

  /** The rules the role's selectors aggregate (syncClusterRole's newPolicyRules). */
  aggregatedRules(role: ClusterRole): PolicyRule[] {
    const out: PolicyRule[] = [];
    for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
      const selector = fromLabelSelector(sel);
      const matched = this.roles.list().filter((r) => r.metadata.name !== role.metadata.name && matches(selector, r.metadata.labels));
      matched.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
      for (const r of matched) for (const rule of r.rules ?? []) if (!out.some((x) => deepEqual(x, rule))) out.push(rule);
    }
    return out;
  }

  /** syncClusterRole: apply the aggregated rules when they differ. */
  syncClusterRole(key: string): void {
    const role = this.roles.get(key);
    if (!role?.aggregationRule) return;
    const rules = this.aggregatedRules(role);
    if (deepEqual(rules, role.rules ?? [])) return;
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'clusterroles', namespace: null, name: key },
      `ClusterRole ${key}: ${rules.length} aggregated rules ≠ ${(role.rules ?? []).length} → apply them`,
      this.ctx.relay.newReconcile(),
    );
    this.ctx.relay.withCause(seq, () => {
      this.client.patch(
        '',
        key,
        'apply',
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: key }, rules },
        { fieldManager: ClusterRoleAggregationControllerName, force: true },
      );
    });
  }
}
