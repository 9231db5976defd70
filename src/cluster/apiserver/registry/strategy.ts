/**
 * Per-resource REST strategies: defaulting (mutating admission and SetDefaults_*),
 * create/update preparation, and validation — the shape of
 * k8s.io/apiserver/pkg/registry/rest (RESTCreateStrategy, RESTUpdateStrategy) and
 * each pkg/registry/<group>/<resource>/strategy.go.
 */
import type { FieldError } from '../../api/errors';
import type { KObject } from '../../api/types';
import type { ResourceInfo } from '../../api/resources';

/** What a strategy may use from the apiserver. */
export interface StrategyContext {
  /** Simulated now, RFC 3339. */
  nowRFC3339(): string;
  /** Looks up a stored object (for admission plugins that need others, e.g. namespaces). */
  getObject(resource: string, namespace: string, name: string): KObject | undefined;
  /** Every stored object of a resource ("storageclasses.storage.k8s.io"), optionally in one namespace. */
  listObjects?(resource: string, namespace?: string): KObject[];
  /** Reserves a specific ClusterIP (a Service that asks for one); false when taken or outside the range. */
  reserveClusterIP?(ip: string): boolean;
  /** Reserves a specific NodePort; false when taken or outside 30000–32767. */
  reserveNodePort?(port: number): boolean;
  /** Releases a NodePort. */
  releaseNodePort?(port: number): void;
  /** Allocates a Service ClusterIP from the service CIDR (10.96.0.0/12). */
  allocateClusterIP(): string;
  /** Releases a ClusterIP. */
  releaseClusterIP(ip: string): void;
  /** Allocates a NodePort from 30000–32767. */
  allocateNodePort(): number;
  /** Random 5-character suffix from the apimachinery alphabet. */
  randomSuffix(n: number): string;
  /**
   * The 5 random characters of a `kube-api-access-` volume name (ServiceAccount admission's
   * names.SimpleNameGenerator), from its own seeded stream; absent: {@link randomSuffix}.
   */
  serviceAccountVolumeSuffix?(): string;
}

export interface Strategy {
  /** True when the resource has a status subresource (main-resource updates keep old status). */
  hasStatus?: boolean;
  /** Applies defaults (SetDefaults_<Kind>), on create and update. */
  defaults?(obj: KObject, ctx: StrategyContext): void;
  /** PrepareForCreate: clears status, sets generation… (generation/uid handled by the apiserver). */
  prepareForCreate?(obj: KObject, ctx: StrategyContext): void;
  /** PrepareForUpdate: keeps immutable/server-owned parts from the old object. */
  prepareForUpdate?(obj: KObject, old: KObject, ctx: StrategyContext): void;
  /** Validate on create. Errors → 422 Invalid. */
  validate?(obj: KObject, ctx: StrategyContext): FieldError[];
  /** ValidateUpdate. Errors → 422 Invalid. */
  validateUpdate?(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[];
  /** Warnings returned with a successful create/update (kubectl prints `Warning: …`). */
  warnings?(obj: KObject, old: KObject | undefined): string[];
  /** Called after the object was deleted from storage (release IPs, ports). */
  afterDelete?(obj: KObject, ctx: StrategyContext): void;
}

/** Strategies by group-qualified resource ("pods", "deployments.apps"). */
export type StrategyTable = Record<string, Strategy>;

/** The strategy for a resource; the empty strategy for kinds with none. */
export function strategyFor(table: StrategyTable, info: ResourceInfo): Strategy {
  const gr = info.group ? `${info.resource}.${info.group}` : info.resource;
  return table[gr] ?? {};
}
