/**
 * client-go in miniature: a Client is the apiserver seen by one identity. Every call goes
 * through the apiserver's request pipeline and shows in the relay under `user.participant`.
 *
 * Mirrors k8s.io/client-go/kubernetes (typed clientsets) and dynamic.Interface.
 */
import type { APIServer, DeleteOptions, ListOptions, RequestUser, WatchOptions, WriteOptions, WriteResult } from '../apiserver/apiserver';
import type { PatchOptions, PatchResult, PatchType } from '../apiserver/patch';
import type { ResourceInfo } from '../api/resources';
import type { Eviction } from '../apiserver/eviction';
import type { TokenRequest } from '../apiserver/token-request';
import type { Status } from '../api/errors';
import type { KList, KObject, WatchEvent } from '../api/types';
import type { RelayRecorder } from '../relay/recorder';

/** What an engine informer records a watch hop with: the relay and the request that wrote a revision (APIServer.causeOf). */
export interface WatchTrace {
  readonly relay: RelayRecorder;
  causeOf(rev: number): number | null;
}

/**
 * The REST mapping a client sees (client-go's discovery + meta.RESTMapper): which resources
 * the apiserver serves, by group/resource or by apiVersion/kind. Implemented by the
 * apiserver's ResourceRegistry (api/resources.ts).
 */
export interface RESTMapper {
  /** The resource of a group and plural name, or undefined when not served. */
  forResource(group: string, resource: string): ResourceInfo | undefined;
  /** The resource of an apiVersion and kind (RESTMapping), or undefined when not served. */
  forKind(apiVersion: string, kind: string): ResourceInfo | undefined;
  /** Every served resource, in discovery order (ServerPreferredResources). */
  all(): ResourceInfo[];
  /** Every served resource at every served version (discovery's group versions). */
  allVersions(): ResourceInfo[];
  /** A resource by kubectl's names: plural, singular, short name or kind, optionally `.group` (ResourceFor). */
  resolve(name: string): ResourceInfo | undefined;
}

/** Verbs on one resource, like dynamic.ResourceInterface. */
export class ResourceClient<T extends KObject = KObject> {
  constructor(
    private readonly api: APIServer,
    readonly user: RequestUser,
    readonly info: ResourceInfo,
  ) {}

  create(namespace: string, obj: T, opts?: WriteOptions): T {
    return this.api.create(this.user, this.info, namespace, obj, opts).object as T;
  }
  createWithWarnings(namespace: string, obj: T, opts?: WriteOptions): WriteResult<T> {
    return this.api.create(this.user, this.info, namespace, obj, opts) as WriteResult<T>;
  }
  get(namespace: string, name: string, opts?: { quiet?: boolean; subresource?: 'scale' | 'status' }): T {
    return this.api.get(this.user, this.info, namespace, name, opts) as T;
  }
  list(namespace?: string, opts?: ListOptions): KList<T> {
    return this.api.list(this.user, this.info, namespace, opts) as KList<T>;
  }
  update(obj: T, opts?: WriteOptions): T {
    return this.api.update(this.user, this.info, obj.metadata.namespace ?? '', obj, opts).object as T;
  }
  updateWithWarnings(obj: T, opts?: WriteOptions): WriteResult<T> {
    return this.api.update(this.user, this.info, obj.metadata.namespace ?? '', obj, opts) as WriteResult<T>;
  }
  updateStatus(obj: T, opts?: WriteOptions): T {
    return this.api.update(this.user, this.info, obj.metadata.namespace ?? '', obj, { ...opts, subresource: 'status' }).object as T;
  }
  /**
   * PATCH of one object (patch.go): `json`, `merge`, `strategic` or `apply` (server-side apply,
   * `opts.fieldManager` required as upstream, `opts.force` to take conflicting fields).
   */
  patch(namespace: string, name: string, type: PatchType, body: unknown, opts?: PatchOptions): PatchResult {
    return this.api.patch(this.user, this.info, namespace, name, type, body, opts);
  }
  delete(namespace: string, name: string, opts?: DeleteOptions): KObject {
    return this.api.delete(this.user, this.info, namespace, name, opts);
  }
  watch(namespace: string | undefined, opts: WatchOptions, handler: (ev: WatchEvent<T>) => void): () => void {
    return this.api.watch(this.user, this.info, namespace, opts, handler as (ev: WatchEvent) => void);
  }
}

/** One identity's view of the apiserver. */
export class Client {
  constructor(
    readonly api: APIServer,
    readonly user: RequestUser,
  ) {}

  /** Discovery and the REST mapping (the apiserver's resource registry, read-only). */
  get restMapper(): RESTMapper {
    return this.api.registry;
  }

  /**
   * Authorizes a non-resource request as this user (`get /api`, `get /healthz`), as the
   * apiserver's authorization filter does before serving it.
   * @throws StatusError 403 `forbidden: User "system:anonymous" cannot get path "/api"`
   */
  authorizePath(verb: string, path: string): void {
    this.api.authorizePath(this.user, verb, path);
  }

  /**
   * A request to a subresource the resource does not serve (kubectl scale of a ConfigMap PATCHes
   * configmaps/NAME/scale): drawn as the request and its 404.
   * @throws StatusError 404 `the server could not find the requested resource`, always
   */
  missingSubresource(verb: string, group: string, resource: string, namespace: string, name: string, subresource: string): never {
    const info = this.api.registry.forResource(group, resource);
    if (!info) throw new Error(`the server doesn't have a resource type "${resource}"`);
    return this.api.missingSubresource(this.user, verb, info, namespace, name, subresource);
  }

  /** What engine informers record watch hops with (the relay and APIServer.causeOf); see client/listwatch.ts. */
  get watchTrace(): WatchTrace {
    return this.api;
  }

  /** A resource by group and plural name, e.g. ("apps", "deployments"). Throws when unknown. */
  resource<T extends KObject = KObject>(group: string, resource: string): ResourceClient<T> {
    const info = this.api.registry.forResource(group, resource);
    if (!info) throw new Error(`the server doesn't have a resource type "${resource}"`);
    return new ResourceClient<T>(this.api, this.user, info);
  }
  /**
   * A resource at one served version, as kubectl's REST mapping of a manifest's apiVersion gives
   * it (dynamic.Resource(gvr)): `kubectl apply` of an autoscaling/v1 HorizontalPodAutoscaler
   * talks to /apis/autoscaling/v1, not to the preferred v2. Custom resources, whose versions the
   * engine does not convert, stay at the preferred version ({@link Client.resource}).
   * @param info a served version's ResourceInfo (from the RESTMapper's forKind)
   */
  resourceAt<T extends KObject = KObject>(info: ResourceInfo): ResourceClient<T> {
    if (info.custom) return this.resource<T>(info.group, info.resource);
    return new ResourceClient<T>(this.api, this.user, info);
  }

  /**
   * pods/eviction subresource (POST a policy/v1 Eviction): the Pod is deleted when its
   * PodDisruptionBudget allows. Returns the Success Status.
   * @throws StatusError 404, 429 TooManyRequests (budget), 500 (more than one budget).
   */
  evict(namespace: string, pod: string, body: Eviction = {}): Status {
    return this.api.evict(this.user, namespace, pod, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: pod, namespace },
      ...body,
    });
  }

  /**
   * serviceaccounts/token subresource (client-go ServiceAccounts(ns).CreateToken): a TokenRequest
   * answered with status.token. @throws StatusError 403, 404, 400, 409, 422 (token-request.ts).
   */
  createToken(namespace: string, serviceAccount: string, body: TokenRequest = {}): TokenRequest {
    return this.api.createToken(this.user, namespace, serviceAccount, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      ...body,
    });
  }

  /** pods/binding subresource. */
  bind(namespace: string, pod: string, node: string, summary?: string): KObject {
    return this.api.bind(this.user, namespace, pod, node, summary);
  }
}

/** The built-in components' identities, re-exported from apiserver/authentication/user.ts where they now live. */
export { users } from '../apiserver/authentication/user';
