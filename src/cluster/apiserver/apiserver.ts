/**
 * kube-apiserver in miniature: the only door to etcd. Every request — from kubectl, a
 * controller, the scheduler or a kubelet — runs the same pipeline, each stage visible in
 * the relay: authentication (who: `kubectl`, `system:kube-scheduler`,
 * `system:serviceaccount:kube-system:replicaset-controller`, `system:node:node-1`),
 * authorization (allow-all behind a hook RBAC can fill), mutating admission (defaults),
 * validation, validating admission, then storage in the MVCC store.
 *
 * Mirrors k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go, delete.go,
 * watch.go) and k8s.io/apiserver/pkg/registry/generic/registry/store.go (graceful
 * deletion, finalizers, deletionTimestamp, generation).
 */
import type { SimClock } from '../sim/clock';
import type { Rng } from '../sim/rng';
import type { RelayRecorder } from '../relay/recorder';
import { MVCCStore, type StoreEvent, type StoredEntry } from '../storage/mvcc';
import { ResourceRegistry, groupKind, groupResource, apiVersionOf, type ResourceInfo } from '../api/resources';
import { copyUnfrozen, deepCopy, deepEqual, metaNamespaceKey, type KList, type KObject, type WatchEvent } from '../api/types';
import {
  StatusError,
  goQuote,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newGone,
  newInvalid,
  newMethodNotAllowed,
  newNamespaceTerminating,
  newNotFound,
  type FieldError,
  type Status,
} from '../api/errors';
import { matches, parseSelector, type Selector } from '../api/labels';
import { fieldsMatch, parseFieldSelector, requestInfoName, type FieldRequirement } from './fields';
import { strategyFor, type StrategyContext, type StrategyTable } from './registry/strategy';
import { IPAllocator, PortAllocator } from './allocators';
import { managedFieldsOnWrite, patchObject, type PatchOptions, type PatchResult, type PatchType } from './patch';
import { evictPod, type Eviction } from './eviction';
import { checkDecode } from './decode';
import { applyGoZeroValues, bodyDecodeError } from './body-limits';
import { etcdKey } from '../storage/etcd-keys';
import { LeaseManager } from '../storage/leases';
import { componentStatusNamed, componentStatuses } from './componentstatus';
import { allowUnconditionalUpdate, isUnsetResourceVersion, newResourceVersionRequired } from './registry/unconditional-update';
import { allowedBy, forbidden, type AuthorizerChain, type ChainDecision } from './auth/authorizer';
import type { Attributes } from './auth/rbac';
import { nodeRestriction } from './auth/node-authorizer';
import { REVIEW_RESOURCES, answerReview } from './auth/reviews';
import { TOKEN_REQUEST_KIND, TokenIssuer, authenticateServiceAccountToken, createToken, type TokenRequest } from './token-request';
import type { TokenUser } from './authentication/serviceaccount';
import { StringIntern } from '../util/intern';

/** Who is calling. `participant` is the relay name (kubectl, kube-scheduler, replicaset-controller, kubelet/node-1). */
export interface RequestUser {
  /** Authenticated user name, e.g. "kubectl-user", "system:kube-scheduler", "system:node:node-1". */
  name: string;
  /** Relay participant name. */
  participant: string;
  groups?: string[];
  /** The user's uid (impersonation's `--as-uid`, a ServiceAccount token's ServiceAccount uid). */
  uid?: string;
  /** Extra user info (a bound token's `authentication.kubernetes.io/pod-name`, …). */
  extra?: Record<string, string[]>;
  /**
   * An in-process component of the engine (controller, scheduler, kubelet), whose request
   * bodies are well-typed by construction: the decode step (decode.ts) is skipped for its
   * writes — it could only ever pass. Never set for user or remote clients.
   */
  trusted?: boolean;
}

export interface WriteOptions {
  /** `dryRun=All`: run the whole pipeline, store nothing. */
  dryRun?: boolean;
  /**
   * For update: write a subresource — `status` (only status changes are kept) or, for
   * Namespaces, `finalize` (only spec.finalizers changes).
   */
  subresource?: 'status' | 'finalize';
  /** fieldManager (recorded in managedFields); default: the client's User-Agent prefix (fieldManagerOf). */
  fieldManager?: string;
  /**
   * The update arrived through another subresource of the same object — `scale` (the
   * /scale endpoint writes spec.replicas): managedFields record it as `subresource: scale`.
   */
  viaSubresource?: 'scale';
  /** Internal: metadata.managedFields are already computed (server-side apply), record no Update. */
  managedFieldsSet?: boolean;
  /** Field validation directive: Strict (reject unknown fields), Warn (warnings), Ignore. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Short text for the relay summary, e.g. "bind to node-2". */
  summary?: string;
  /** Relay category for the hops of this request (heartbeats are hidden by default). */
  category?: 'heartbeat' | 'event';
  /** Internal: the verb the request was authorized as when not the write's own (`patch`, through patch.ts). */
  authzVerb?: 'patch';
  /**
   * Internal, create by an in-process component: the body is handed over (a fresh object the
   * caller never reads or changes again, of a resource admission sets nothing in), so it is stored
   * without a copy; its subtrees become the stored object's (frozen). The Event recorder's.
   */
  owned?: boolean;
  /**
   * Internal: how many spec updates this one write stands for (the lazy node Lease renewals
   * written at once, sim/heartbeats.ts): metadata.generation advances by it. Default 1.
   */
  foldedUpdates?: number;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  summary?: string;
}

export interface ListOptions {
  labelSelector?: string | Selector;
  fieldSelector?: string | FieldRequirement[];
  /** Record the list in the relay (informer lists set this to false to keep the relay readable). */
  quiet?: boolean;
}

export interface WatchOptions extends ListOptions {
  /** Resume after this resourceVersion ("" or undefined: start now, no initial events). */
  resourceVersion?: string;
  /** Send periodic BOOKMARK events (every 60 simulated seconds, like the watch cache). */
  allowWatchBookmarks?: boolean;
}

/** A created/updated object plus the warnings kubectl would print. */
export interface WriteResult<T extends KObject = KObject> {
  object: T;
  warnings: string[];
}

interface Watcher {
  id: number;
  resource: string;
  namespace?: string;
  labels?: Selector;
  fields?: FieldRequirement[];
  /** For the spec.nodeName index (kubelets watch their own pods). */
  nodeName?: string;
  handler: (ev: WatchEvent) => void;
  queue: WatchEvent[];
  scheduled: boolean;
  stopped: boolean;
}

/** Timings of the apiserver, in simulated ms. */
export interface APIServerTimings {
  /** Delay from an etcd commit to a watcher seeing the event. */
  watchLatencyMs: number;
}

const CAUSE_RING = 1 << 16;
/** Admission note summaries, pooled (util/intern.ts): memory only. */
const ADMISSION_SUMMARIES = new StringIntern(1024);
/** Resources whose status subresource also takes metadata.annotations (their upstream status strategies keep them). */
const STATUS_KEEPS_ANNOTATIONS = new Set(['deployments.apps', 'horizontalpodautoscalers.autoscaling']);

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Whether two versions of an object are the same write for the no-op check of update: equal
 * but for metadata.resourceVersion and the `time` of managedFields entries (an absent
 * managedFields counts as `[]`). Same result as deepEqual of both with resourceVersion
 * cleared and every entry copied with `time: undefined`, without building those copies;
 * entries shared between the versions (copy-on-write) are equal at once.
 */
export function sameButRevisionAndTimes(a: KObject, b: KObject): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!hasOwn(b, k)) return false;
    if (k !== 'metadata' && !deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  const ma = a.metadata as Record<string, unknown>,
    mb = b.metadata as Record<string, unknown>;
  if (!sameKeysBut(ma, mb, 'resourceVersion', 'managedFields')) return false;
  for (const k of Object.keys(ma)) if (k !== 'resourceVersion' && k !== 'managedFields' && !deepEqual(ma[k], mb[k])) return false;
  const la = (ma.managedFields ?? []) as Record<string, unknown>[],
    lb = (mb.managedFields ?? []) as Record<string, unknown>[];
  if (la === lb) return true;
  if (la.length !== lb.length) return false;
  for (let i = 0; i < la.length; i++) {
    const ea = la[i],
      eb = lb[i];
    if (ea === eb) continue;
    if (ea === null || eb === null || typeof ea !== 'object' || typeof eb !== 'object' || Array.isArray(ea) || Array.isArray(eb)) {
      if (!deepEqual(ea, eb)) return false;
      continue;
    }
    if (!sameKeysBut(ea, eb, 'time')) return false;
    for (const k of Object.keys(ea)) if (k !== 'time' && !deepEqual(ea[k], eb[k])) return false;
  }
  return true;
}

/** Whether `a` and `b` have the same own keys once the `extra` keys are added to both. */
function sameKeysBut(a: Record<string, unknown>, b: Record<string, unknown>, ...extra: string[]): boolean {
  let na = 0,
    nb = 0;
  for (const k of Object.keys(a)) {
    if (extra.includes(k)) continue;
    if (!hasOwn(b, k)) return false;
    na++;
  }
  for (const k of Object.keys(b)) if (!extra.includes(k)) nb++;
  return na === nb;
}

/** A Namespace's spec.finalizers (the namespace controller's "kubernetes" finalizer). */
function namespaceFinalizers(info: ResourceInfo, obj: KObject): string[] {
  return info.group === '' && info.resource === 'namespaces' ? (obj.spec?.finalizers ?? []) : [];
}
const ANNOTATION_LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** v1 ComponentStatus: served from probes, never stored (componentstatus.ts). */
const isComponentStatus = (info: ResourceInfo): boolean => info.group === '' && info.resource === 'componentstatuses';

/** A verb the resource's REST storage does not implement (not in discovery's verbs): 405, as the installer answers. */
function checkVerb(info: ResourceInfo, verb: string): void {
  if (!info.verbs.includes(verb)) throw newMethodNotAllowed('the server does not allow this method on the requested resource');
}

/** The authn part of a relay note: `authn <user> [<groups>]` (no brackets without groups). */
function authnText(user: { name: string; groups?: string[] }): string {
  const groups = user.groups ?? [];
  return `authn ${user.name}${groups.length ? ` [${groups.join(' ')}]` : ''}`;
}

export class APIServer implements StrategyContext {
  readonly store: MVCCStore;
  readonly registry: ResourceRegistry;
  private watchers = new Map<string, Watcher[]>();
  private nodeIndex = new Map<string, Set<Watcher>>();
  /**
   * Stored Pod keys by spec.nodeName (bound Pods only), so a list with the field selector
   * spec.nodeName=NODE (every kubelet's informer) reads that node's Pods, not every Pod; the
   * watch cache indexes pods by spec.nodeName the same way (pkg/registry/core/pod/storage,
   * NodeNameTriggerFunc).
   */
  private podKeysByNode = new Map<string, Set<string>>();
  private watcherSeq = 0;
  private clusterIPs: IPAllocator;
  private nodePorts: PortAllocator;
  /** Authorization hook for tests: return a reason string to deny (403), or null to allow. */
  authorize: (user: RequestUser, verb: string, info: ResourceInfo, namespace: string, name: string) => string | null = () => null;
  /**
   * The authorizer chain (system:masters, Node, RBAC — auth/authorizer.ts) once installed
   * (`installAuthorization`, which Cluster does); null: allow everything (component tests).
   */
  authorizer: AuthorizerChain | null = null;
  /** The allow decision of the request being served, for its admission note. */
  private lastDecision: ChainDecision | null = null;
  private authorizedDepth = 0;

  /**
   * Runs the internal writes of an already authorized request (the eviction subresource's
   * status update and delete) without authorizing them again, as the registry's storage
   * calls do upstream.
   */
  asAuthorized<T>(fn: () => T): T {
    this.authorizedDepth++;
    try {
      return fn();
    } finally {
      this.authorizedDepth--;
    }
  }
  /**
   * Extra validating admission plugins (CRD schemas, ResourceQuota…), run after strategy
   * validation: field errors become one 422; a plugin may throw its own StatusError (quota's 403).
   * `opts.dryRun`: the request stores nothing (a plugin must not charge it).
   */
  validatingAdmission: ((
    verb: 'create' | 'update',
    info: ResourceInfo,
    obj: KObject,
    old: KObject | undefined,
    opts?: { dryRun?: boolean },
  ) => FieldError[] | void)[] = [];
  /** Hooks called after any successful write (the CRD controller registers kinds here). */
  afterWrite: ((ev: StoreEvent) => void)[] = [];

  constructor(
    readonly clock: SimClock,
    readonly rng: Rng,
    readonly relay: RelayRecorder,
    readonly strategies: StrategyTable,
    readonly timings: APIServerTimings = { watchLatencyMs: 1 },
    registry?: ResourceRegistry,
    store?: MVCCStore,
  ) {
    this.registry = registry ?? new ResourceRegistry();
    this.store = store ?? new MVCCStore();
    this.clusterIPs = new IPAllocator('10.96.0.0', 12, rng);
    this.nodePorts = new PortAllocator(30000, 32767, rng);
    // a store handed in may hold Pods already: index them before following its events
    for (const e of this.store.list('pods'))
      this.indexPodNode({ type: 'ADDED', resource: 'pods', key: metaNamespaceKey(e.obj), obj: e.obj, rev: e.modRev });
    this.store.listen((ev) => this.dispatch(ev));
  }

  // ---- StrategyContext ---------------------------------------------------------------
  nowRFC3339(): string {
    return this.clock.nowRFC3339();
  }
  getObject(resource: string, namespace: string, name: string): KObject | undefined {
    return this.store.get(resource, namespace ? `${namespace}/${name}` : name)?.obj;
  }
  allocateClusterIP(): string {
    return this.clusterIPs.allocateNext();
  }
  releaseClusterIP(ip: string): void {
    this.clusterIPs.release(ip);
  }
  /** Reserves a specific ClusterIP (the `kubernetes` Service's 10.96.0.1, kube-dns's 10.96.0.10). */
  reserveClusterIP(ip: string): boolean {
    return this.clusterIPs.reserve(ip);
  }
  allocateNodePort(): number {
    return this.nodePorts.allocate();
  }
  listObjects(resource: string, namespace?: string): KObject[] {
    return this.store.list(resource, namespace).map((e) => e.obj);
  }
  reserveNodePort(port: number): boolean {
    return this.nodePorts.reserve(port);
  }
  releaseNodePort(port: number): void {
    this.nodePorts.release(port);
  }
  /**
   * Runs `fn` with uids and generated names drawn from `rng` instead of the shared stream, so
   * writes added to the engine later (leader election's Leases and Events) do not shift every
   * later name and uid (src/cluster/CONTEXT.md, pitfalls). Returns what `fn` returns.
   */
  withRng<T>(rng: Rng, fn: () => T): T {
    const self = this as unknown as { rng: Rng };
    const saved = self.rng;
    self.rng = rng;
    try {
      return fn();
    } finally {
      self.rng = saved;
    }
  }
  randomSuffix(n: number): string {
    return this.rng.string(n);
  }
  private tokenVolumeRng?: Rng;
  serviceAccountVolumeSuffix(): string {
    this.tokenVolumeRng ??= this.rng.derive('kube-api-access');
    return this.tokenVolumeRng.string(5);
  }

  // ---- helpers -----------------------------------------------------------------------
  private resourceKey(info: ResourceInfo): string {
    return groupResource(info);
  }

  private objKey(info: ResourceInfo, namespace: string, name: string): string {
    return info.namespaced ? `${namespace}/${name}` : name;
  }

  private describe(info: ResourceInfo, namespace: string, name: string): string {
    return info.namespaced ? `${info.kind} ${namespace}/${name}` : `${info.kind} ${name}`;
  }

  private requestHop(
    user: RequestUser,
    verb: string,
    info: ResourceInfo,
    namespace: string,
    name: string,
    summary: string,
    category?: 'heartbeat' | 'event' | 'admission',
    subresource?: string,
  ): number {
    return this.relay.record({
      from: user.participant,
      to: 'kube-apiserver',
      kind: 'request',
      verb,
      resource: subresource ? `${info.resource}/${subresource}` : info.resource,
      namespace: info.namespaced ? namespace : null,
      name,
      summary,
      category,
    });
  }

  private responseHop(
    user: RequestUser,
    verb: string,
    info: ResourceInfo,
    namespace: string,
    name: string,
    summary: string,
    cause: number,
    rv?: string,
    category?: 'heartbeat' | 'event',
  ): void {
    this.relay.record({
      from: 'kube-apiserver',
      to: user.participant,
      kind: 'response',
      verb,
      resource: info.resource,
      namespace: info.namespaced ? namespace : null,
      name,
      summary,
      cause,
      resourceVersion: rv,
      category,
    });
  }

  private storageHop(
    verb: string,
    info: ResourceInfo,
    namespace: string,
    name: string,
    summary: string,
    cause: number,
    rv: string,
    category?: 'heartbeat' | 'event',
  ): void {
    this.relay.record({
      from: 'kube-apiserver',
      to: 'etcd',
      kind: 'request',
      verb,
      resource: info.resource,
      namespace: info.namespaced ? namespace : null,
      name,
      summary,
      cause,
      resourceVersion: rv,
      category: category ?? 'storage',
    });
  }

  /**
   * The authn/authz/admission note the seed draws as `A->>A`. Recorded for every write;
   * category "admission" so the UI can fold it.
   */
  private admissionHop(
    user: RequestUser,
    verb: string,
    info: ResourceInfo,
    namespace: string,
    name: string,
    cause: number,
    category?: 'heartbeat' | 'event',
    subresource = '',
  ): void {
    this.relay.record({
      from: 'kube-apiserver',
      to: 'kube-apiserver',
      kind: 'note',
      verb,
      resource: info.resource,
      namespace: info.namespaced ? namespace : null,
      name,
      // one flat string for the admission notes that read alike (every Pod a controller creates)
      summary: ADMISSION_SUMMARIES.intern(
        this.admissionSummary(user, verb, subresource ? `${info.resource}/${subresource}` : info.resource),
      ),
      cause,
      category: category ?? 'admission',
    });
  }

  /**
   * `authn <user> · authz allow <verb> <resource> · admission`; with the authorizer chain the
   * groups and the binding → role (or system:masters / the Node authorizer) that allowed it.
   */
  private admissionSummary(user: RequestUser, verb: string, resource: string): string {
    const d = this.lastDecision;
    if (!this.authorizer || !d) return `authn ${user.name} · authz allow ${verb} ${resource} · admission`;
    const by = allowedBy(d);
    return `${authnText(user)} · authz allow ${verb} ${resource}${by ? ` ${by}` : ''} · admission`;
  }

  /**
   * Authorizes a request with the installed chain (the request-info of
   * endpoints/request/requestinfo.go: verb, API group, resource, subresource, namespace, name).
   * @throws StatusError 403 with kube-apiserver's message (auth/authorizer.ts forbidden).
   */
  authorizeRequest(
    user: RequestUser,
    verb: string,
    info: Pick<ResourceInfo, 'group' | 'resource'>,
    namespace: string,
    name: string,
    subresource = '',
    fieldSelector?: FieldRequirement[],
  ): ChainDecision | null {
    if (!this.authorizer || this.authorizedDepth > 0) return null;
    const a: Attributes = {
      user,
      verb,
      resourceRequest: true,
      apiGroup: info.group,
      resource: info.resource,
      subresource,
      namespace,
      name,
      path: '',
      fieldSelector,
    };
    const d = this.authorizer.authorize(a);
    if (d.decision !== 'allow') {
      this.denialHop(a, d.reason);
      throw forbidden(a, d.reason);
    }
    this.lastDecision = d;
    return d;
  }

  /**
   * The authn/authz note of a refused request (`A->>A`, before the 403 response): the user, its
   * groups, what it asked and the authorizer's reason — what kube-apiserver's WithAuthorization
   * (endpoints/filters/authorization.go) logs as `"Forbidden" … reason="…"` before responsewriters.Forbidden
   * (RBAC's "no rule matched" has an empty reason, as upstream).
   * Not category "admission": a denial is shown even while admission notes are folded.
   */
  private denialHop(a: Attributes, reason: string): void {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    this.relay.record({
      from: 'kube-apiserver',
      to: 'kube-apiserver',
      kind: 'note',
      verb: a.verb,
      resource: a.resource,
      namespace: a.namespace || null,
      name: a.name,
      summary: `${authnText(a.user)} · authz deny ${a.verb} ${resource} reason=${goQuote(reason)}`,
    });
  }

  /** Authorizes a non-resource request (`get /healthz`). @throws StatusError 403 `forbidden: User … cannot get path …`. */
  authorizePath(user: RequestUser, verb: string, path: string): void {
    if (!this.authorizer) return;
    const a: Attributes = {
      user,
      verb,
      resourceRequest: false,
      apiGroup: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path,
    };
    const d = this.authorizer.authorize(a);
    if (d.decision !== 'allow') throw forbidden(a, d.reason);
  }

  /** NodeRestriction admission for a node's write. @throws StatusError 403. */
  private admitNode(
    user: RequestUser,
    verb: string,
    info: ResourceInfo,
    subresource: string,
    name: string,
    obj: KObject | undefined,
    old: KObject | undefined,
  ): void {
    if (!this.authorizer || info.group !== '') return;
    const err = nodeRestriction(user, verb, info.resource, subresource, name, obj, old);
    if (err) throw err;
  }

  private checkNamespace(info: ResourceInfo, namespace: string, verb: 'create' | 'update', name = ''): void {
    if (!info.namespaced) return;
    if (!namespace) throw newBadRequest('the server could not find the requested resource');
    const ns = this.store.get('namespaces', namespace)?.obj;
    if (!ns) throw newNotFound('namespaces', namespace);
    if (verb === 'create' && ns.metadata.deletionTimestamp) {
      throw newNamespaceTerminating(groupResource(info), name, namespace);
    }
  }

  private authz(
    user: RequestUser,
    verb: string,
    info: ResourceInfo,
    namespace: string,
    name: string,
    subresource = '',
    fieldSelector?: FieldRequirement[],
    collection = false,
  ): void {
    const why = this.authorize(user, verb, info, namespace, name);
    if (why) {
      throw newForbidden(
        groupResource(info),
        name,
        `User "${user.name}" cannot ${verb} resource "${info.resource}" in API group "${info.group}"${info.namespaced ? ` in the namespace "${namespace}"` : ' at the cluster scope'}: ${why}`,
      );
    }
    this.authorizeRequest(user, verb, info, info.namespaced ? namespace : '', collection ? '' : name, subresource, fieldSelector);
  }

  // ---- verbs -------------------------------------------------------------------------

  /**
   * create of a review (SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview,
   * LocalSubjectAccessReview, SelfSubjectReview — auth/reviews.ts): authorized like any
   * create, answered from the authorizer chain, never stored.
   * @param key `resource.group`, e.g. `selfsubjectaccessreviews.authorization.k8s.io`
   * @throws StatusError 403, 400, 422
   */
  review(user: RequestUser, key: string, namespace: string, body: KObject): KObject {
    const info = REVIEW_RESOURCES.get(key);
    if (!info) throw newNotFound(key, '');
    const cause = this.relay.record({
      from: user.participant,
      to: 'kube-apiserver',
      kind: 'request',
      verb: 'create',
      resource: info.resource,
      namespace: info.namespaced ? namespace : null,
      name: '',
      summary: `create ${info.kind}`,
    });
    return this.relay.withCause(cause, () => {
      try {
        this.authorizeRequest(user, 'create', info, info.namespaced ? namespace : '', '');
        const out = answerReview(this.authorizer, user, key, namespace, body);
        const st = out.status ?? {};
        const what =
          info.kind === 'SelfSubjectReview'
            ? `user ${user.name}`
            : info.kind === 'SelfSubjectRulesReview'
              ? `${(st.resourceRules ?? []).length + (st.nonResourceRules ?? []).length} rules`
              : st.allowed
                ? `allowed${st.reason ? ` (${st.reason})` : ''}`
                : `denied${st.reason ? ` (${st.reason})` : ''}`;
        this.relay.record({
          from: 'kube-apiserver',
          to: user.participant,
          kind: 'response',
          verb: 'create',
          resource: info.resource,
          namespace: info.namespaced ? namespace : null,
          name: '',
          summary: `201 Created ${info.kind}: ${what}`,
          cause,
        });
        return out;
      } catch (err) {
        if (err instanceof StatusError)
          this.relay.record({
            from: 'kube-apiserver',
            to: user.participant,
            kind: 'response',
            verb: 'create',
            resource: info.resource,
            namespace: info.namespaced ? namespace : null,
            name: '',
            summary: `${err.code} ${err.reason}: ${err.message}`,
            cause,
          });
        throw err;
      }
    });
  }

  private tokenIssuer?: TokenIssuer;
  /** The ServiceAccount token issuer, created on first use from derived RNG streams (token-request.ts). */
  private issuer(): TokenIssuer {
    return (this.tokenIssuer ??= new TokenIssuer(this.rng));
  }

  /**
   * serviceaccounts/token: POST an authentication.k8s.io/v1 TokenRequest for the ServiceAccount
   * `namespace/name` (token-request.ts, pkg/registry/core/serviceaccount/storage/token.go),
   * authorized as `create serviceaccounts/token`. Nothing is stored.
   * @returns the TokenRequest with status.token and status.expirationTimestamp
   * @throws StatusError 403, 404 (`serviceaccounts "x" not found`, the bound object), 400, 409, 422
   */
  createToken(user: RequestUser, namespace: string, name: string, body: TokenRequest = {}): TokenRequest {
    const info = this.registry.forResource('', 'serviceaccounts')!;
    const cause = this.requestHop(user, 'create', info, namespace, name, `create token for ServiceAccount ${namespace}/${name}`);
    return this.relay.withCause(cause, () => {
      try {
        this.authorizeRequest(user, 'create', info, namespace, name, 'token');
        if (!user.trusted) checkDecode(TOKEN_REQUEST_KIND, body); // decode.ts: a field of the wrong JSON type is a 400
        this.admissionHop(user, 'create', info, namespace, name, cause, undefined, 'token');
        const out = createToken(this, this.issuer(), namespace, name, body, Math.floor(this.clock.now() / 1000));
        this.responseHop(
          user,
          'create',
          info,
          namespace,
          name,
          `201 Created TokenRequest: expires ${out.status!.expirationTimestamp}`,
          cause,
        );
        return out;
      } catch (err) {
        this.failHop(user, 'create', info, namespace, name, err, cause);
        throw err;
      }
    });
  }

  /**
   * Authenticates a bearer token this apiserver issued (JWTTokenAuthenticator.AuthenticateToken
   * and validator.Validate, token-request.ts): its ServiceAccount (and bound Pod, Secret or Node)
   * must still exist with the claimed uid, and it must not have expired (one minute leeway).
   * @returns the user (`system:serviceaccount:NS:NAME`, groups system:serviceaccounts,
   *   system:serviceaccounts:NS, system:authenticated), or the reason it is refused (401)
   */
  authenticateToken(token: string): { user: TokenUser } | { error: string } {
    return authenticateServiceAccountToken(this, this.issuer(), token, Math.floor(this.clock.now() / 1000));
  }

  /**
   * create: POST /api[s]/…/namespaces/{ns}/{resource}.
   * Fills uid, creationTimestamp, generation, generateName; defaults; validates; stores.
   * @throws StatusError 400/403/404/409/422 as kube-apiserver would.
   */
  create(user: RequestUser, info: ResourceInfo, namespace: string, input: KObject, opts: WriteOptions = {}): WriteResult {
    // body-limits.ts: a body too deep to copy, or with a metadata that is not an object, is a 400
    const undecodable = user.trusted ? undefined : bodyDecodeError(info, input);
    const obj = undecodable
      ? ({ apiVersion: input.apiVersion, kind: input.kind, metadata: {} } as KObject)
      : opts.owned && user.trusted
        ? input
        : deepCopy(input);
    if (!user.trusted && !undecodable) applyGoZeroValues(info, obj);
    obj.metadata = obj.metadata ?? {};
    if (info.namespaced) obj.metadata.namespace = obj.metadata.namespace || namespace;
    else delete obj.metadata.namespace;
    const ns = info.namespaced ? obj.metadata.namespace! : '';
    if (info.namespaced && namespace && obj.metadata.namespace !== namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const displayName = obj.metadata.name || (obj.metadata.generateName ? `${obj.metadata.generateName}<generated>` : '');
    const cause = this.requestHop(
      user,
      'create',
      info,
      ns,
      displayName,
      opts.summary ?? `create ${this.describe(info, ns, displayName)}`,
      opts.category,
    );
    return this.relay.withCause(cause, () => {
      try {
        // a POST to the collection names no object: create is authorized without a name (requestinfo.go)
        this.authz(user, opts.authzVerb ?? 'create', info, ns, obj.metadata.name ?? '', '', undefined, !opts.authzVerb);
        if (opts.authzVerb) this.authz(user, 'create', info, ns, obj.metadata.name ?? '');
        checkVerb(info, 'create');
        this.admitNode(user, 'create', info, '', obj.metadata.name ?? '', obj, undefined);
        if (undecodable) throw undecodable;
        if (!user.trusted) checkDecode(info, input); // decode.ts: a field of the wrong JSON type is a 400
        this.admissionHop(user, 'create', info, ns, displayName, cause, opts.category);
        obj.apiVersion = apiVersionOf(info);
        obj.kind = info.kind;
        if (!obj.metadata.name && obj.metadata.generateName) {
          // names.SimpleNameGenerator: the base is cut to 63 - 5 characters
          obj.metadata.name = [obj.metadata.generateName.slice(0, 58), this.rng.string(5)].join(''); // one flat string, not a rope (it lives as long as the object)
        }
        const strategy = strategyFor(this.strategies, info);
        const errs: FieldError[] = [];
        if (!obj.metadata.name) errs.push({ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' });
        if (errs.length) throw newInvalid(groupKind(info), obj.metadata.name ?? '', errs);
        this.checkNamespace(info, ns, 'create', obj.metadata.name);
        // rest.BeforeCreate: system fields
        obj.metadata.uid = this.rng.uuid();
        obj.metadata.creationTimestamp = this.clock.nowRFC3339();
        delete obj.metadata.deletionTimestamp;
        delete obj.metadata.deletionGracePeriodSeconds;
        delete obj.metadata.resourceVersion;
        delete obj.metadata.selfLink;
        if (obj.spec !== undefined || info.kind === 'Deployment') obj.metadata.generation = 1;
        strategy.prepareForCreate?.(obj, this);
        strategy.defaults?.(obj, this);
        errs.push(...(strategy.validate?.(obj, this) ?? []));
        for (const v of this.validatingAdmission) errs.push(...(v('create', info, obj, undefined, { dryRun: opts.dryRun }) ?? []));
        if (errs.length) throw newInvalid(groupKind(info), obj.metadata.name, errs);
        if (!opts.managedFieldsSet) managedFieldsOnWrite(this, user, info, undefined, obj, input, opts);
        const warnings = strategy.warnings?.(obj, undefined) ?? [];
        if (info.deprecated) warnings.unshift(info.deprecated);
        if (opts.dryRun) {
          this.responseHop(
            user,
            'create',
            info,
            ns,
            obj.metadata.name,
            `201 Created (dry run) ${this.describe(info, ns, obj.metadata.name)}`,
            cause,
            undefined,
            opts.category,
          );
          return { object: obj, warnings };
        }
        const key = this.objKey(info, ns, obj.metadata.name);
        const e = this.store.create(this.resourceKey(info), key, obj);
        if (!e) throw newAlreadyExists(groupResource(info), obj.metadata.name);
        const rv = e.obj.metadata.resourceVersion!;
        this.storageHop(
          'create',
          info,
          ns,
          obj.metadata.name,
          `put ${etcdKey(info, ns, obj.metadata.name)} (rev ${rv})`,
          cause,
          rv,
          opts.category,
        );
        this.responseHop(
          user,
          'create',
          info,
          ns,
          obj.metadata.name,
          `201 Created ${this.describe(info, ns, obj.metadata.name)}`,
          cause,
          rv,
          opts.category,
        );
        return { object: e.obj, warnings };
      } catch (err) {
        this.failHop(user, 'create', info, ns, displayName, err, cause);
        throw err;
      }
    });
  }

  private failHop(user: RequestUser, verb: string, info: ResourceInfo, ns: string, name: string, err: unknown, cause: number): void {
    if (err instanceof StatusError) {
      this.responseHop(user, verb, info, ns, name, `${err.code} ${err.reason}: ${err.message}`, cause);
    }
  }

  /**
   * A request to a subresource the resource does not serve (e.g. PATCH configmaps/x/scale):
   * kube-apiserver's router finds no handler and answers 404 with the NotFound handler's message.
   * Drawn as the request and its 404. @throws StatusError 404 always.
   */
  missingSubresource(user: RequestUser, verb: string, info: ResourceInfo, namespace: string, name: string, subresource: string): never {
    const cause = this.requestHop(
      user,
      verb,
      info,
      namespace,
      name,
      `${verb} ${subresource} ${this.describe(info, namespace, name)}`,
      undefined,
      subresource,
    );
    this.responseHop(user, verb, info, namespace, name, '404 NotFound', cause);
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  }

  /** get: read one object (`opts.subresource`: authorized as a read of that subresource, e.g. `deployments/scale`). @throws StatusError 403, 404. */
  get(
    user: RequestUser,
    info: ResourceInfo,
    namespace: string,
    name: string,
    opts: { quiet?: boolean; subresource?: 'scale' | 'status'; authzVerb?: 'update' | 'patch' } = {},
  ): KObject {
    if (this.authorizer) {
      try {
        // authzVerb: the read is a write's first step (the scale REST's Update reads the object), so
        // the request is authorized as that write, not as a get
        this.authorizeRequest(user, opts.authzVerb ?? 'get', info, info.namespaced ? namespace : '', name, opts.subresource ?? '');
      } catch (err) {
        if (!opts.quiet)
          this.failHop(
            user,
            'get',
            info,
            namespace,
            name,
            err,
            this.requestHop(user, 'get', info, namespace, name, `get ${this.describe(info, namespace, name)}`),
          );
        throw err;
      }
    }
    const virtual = isComponentStatus(info) ? componentStatusNamed(name) : undefined;
    const e = isComponentStatus(info)
      ? virtual
        ? { obj: virtual }
        : undefined
      : this.store.get(this.resourceKey(info), this.objKey(info, namespace, name));
    if (!opts.quiet) {
      // a read of …/scale is drawn as that subresource's request, as a status write is
      const cause = opts.subresource
        ? this.requestHop(
            user,
            'get',
            info,
            namespace,
            name,
            `get ${opts.subresource} ${this.describe(info, namespace, name)}`,
            undefined,
            opts.subresource,
          )
        : this.requestHop(user, 'get', info, namespace, name, `get ${this.describe(info, namespace, name)}`);
      this.responseHop(
        user,
        'get',
        info,
        namespace,
        name,
        e ? `200 OK ${this.describe(info, namespace, name)}` : `404 NotFound`,
        cause,
        e?.obj.metadata.resourceVersion,
      );
    }
    if (!e) throw newNotFound(groupResource(info), name);
    return e.obj;
  }

  /** list: every object of a resource (one namespace or all), filtered by selectors. */
  list(user: RequestUser, info: ResourceInfo, namespace: string | undefined, opts: ListOptions = {}): KList {
    const { labels, fields } = selectorsOf(opts);
    if (this.authorizer) {
      try {
        this.authorizeRequest(user, 'list', info, info.namespaced ? (namespace ?? '') : '', requestInfoName(fields), '', fields);
      } catch (err) {
        if (!opts.quiet)
          this.failHop(
            user,
            'list',
            info,
            namespace ?? '',
            '',
            err,
            this.requestHop(user, 'list', info, namespace ?? '', '', `list ${info.resource}${namespace ? ` in ${namespace}` : ''}`),
          );
        throw err;
      }
    }
    const items: KObject[] = [];
    const entries = isComponentStatus(info) ? componentStatuses().map((obj) => ({ obj })) : this.listEntries(info, namespace, fields);
    for (const e of entries) {
      if (labels && !matches(labels, e.obj.metadata.labels)) continue;
      if (fields && fields.length && !fieldsMatch(e.obj, fields)) continue;
      items.push(e.obj);
    }
    const rv = String(this.store.revision);
    if (!opts.quiet) {
      const cause = this.requestHop(user, 'list', info, namespace ?? '', '', `list ${info.resource}${namespace ? ` in ${namespace}` : ''}`);
      this.responseHop(user, 'list', info, namespace ?? '', '', `200 OK ${items.length} ${info.resource}`, cause, rv);
    }
    return { apiVersion: apiVersionOf(info), kind: `${info.kind}List`, metadata: { resourceVersion: rv }, items };
  }

  /**
   * The stored entries a list starts from, in key order: a bound node's Pods from the
   * spec.nodeName index when the field selector has `spec.nodeName=NODE`, else every entry
   * of the resource (in the namespace). The selectors are applied by the caller either way.
   */
  private listEntries(info: ResourceInfo, namespace: string | undefined, fields: FieldRequirement[] | undefined): StoredEntry[] {
    const resource = this.resourceKey(info);
    const ns = info.namespaced ? namespace || undefined : undefined;
    const node = resource === 'pods' ? fields?.find((f) => f.field === 'spec.nodeName' && f.op === '=')?.value : undefined;
    if (!node) return this.store.list(resource, ns);
    const keys = this.podKeysByNode.get(node);
    if (!keys) return [];
    return this.store.entriesInOrder(resource, ns ? [...keys].filter((k) => k.startsWith(`${ns}/`)) : keys);
  }

  private indexPodNode(ev: StoreEvent): void {
    const a = ev.type === 'DELETED' ? undefined : (ev.obj.spec?.nodeName as string | undefined);
    const b = ev.prev?.spec?.nodeName as string | undefined;
    if (a === b) return;
    if (b) {
      const s = this.podKeysByNode.get(b);
      s?.delete(ev.key);
      if (s && !s.size) this.podKeysByNode.delete(b);
    }
    if (a) {
      let s = this.podKeysByNode.get(a);
      if (!s) this.podKeysByNode.set(a, (s = new Set()));
      s.add(ev.key);
    }
  }

  /**
   * update: PUT. Optimistic concurrency on metadata.resourceVersion (409 Conflict when stale;
   * an empty or "0" resourceVersion is unconditional where the strategy allows it, else 422 —
   * registry/unconditional-update.ts). Status-only with `subresource: 'status'`.
   * A write that changes nothing is not stored and produces no watch event.
   */
  update(user: RequestUser, info: ResourceInfo, namespace: string, input: KObject, opts: WriteOptions = {}): WriteResult {
    const name = input.metadata?.name ?? '';
    const ns = info.namespaced ? namespace || input.metadata?.namespace || '' : '';
    // requestinfo.go: a PATCH is verb patch (kubectl label, a kubelet's node status), a PUT update
    const relayVerb = opts.authzVerb === 'patch' ? 'patch' : 'update';
    const verbShown = opts.subresource ? `update ${opts.subresource}` : 'update';
    const sub = opts.subresource ?? opts.viaSubresource;
    const resShown = sub ? `${info.resource}/${sub}` : info.resource;
    const cause = this.relay.record({
      from: user.participant,
      to: 'kube-apiserver',
      kind: 'request',
      verb: relayVerb,
      resource: resShown,
      namespace: info.namespaced ? ns : null,
      name,
      summary: opts.summary ?? `${verbShown} ${this.describe(info, ns, name)}`,
      category: opts.category,
    });
    return this.relay.withCause(cause, () => {
      try {
        this.authz(user, opts.authzVerb ?? 'update', info, ns, name, opts.viaSubresource ?? opts.subresource ?? '');
        checkVerb(info, 'update');
        if (!user.trusted) {
          const undecodable = bodyDecodeError(info, input);
          if (undecodable) throw undecodable;
        }
        if (!user.trusted && (opts.subresource === undefined || opts.subresource === 'status')) checkDecode(info, input);
        const key = this.objKey(info, ns, name);
        const cur = this.store.get(this.resourceKey(info), key);
        if (!cur) throw newNotFound(groupResource(info), name);
        // store.go Update: no resourceVersion (or "0") is unconditional where the strategy allows it
        const rvIn = input.metadata?.resourceVersion;
        if (isUnsetResourceVersion(rvIn)) {
          if (!allowUnconditionalUpdate(info)) throw newResourceVersionRequired(info, name);
        } else if (rvIn !== cur.obj.metadata.resourceVersion) throw newConflict(groupResource(info), name);
        const old = cur.obj;
        this.admitNode(user, 'update', info, opts.subresource ?? '', name, input, old);
        const strategy = strategyFor(this.strategies, info);
        let obj: KObject;
        if (opts.subresource === 'status') {
          // status strategy: only status (and, for nodes, nothing else) may change — so only the
          // input's status (and annotations, below) is copied, never the whole input; the rest
          // (spec, …) is shared with the stored old version, which is read-only (copy-on-write)
          const next: KObject = { ...old, metadata: copyUnfrozen(old.metadata) };
          next.status = copyUnfrozen(input.status);
          // deploymentStatusStrategy.PrepareForUpdate resets only spec and labels: the deployment
          // controller writes deployment.kubernetes.io/revision through UpdateStatus;
          // autoscalerStatusStrategy resets only spec: an autoscaling/v1 HPA's status write carries
          // the current-metrics and conditions annotations (controllers/podautoscaler-v1.ts).
          if (STATUS_KEEPS_ANNOTATIONS.has(groupResource(info))) {
            if (input.metadata.annotations) next.metadata.annotations = deepCopy(input.metadata.annotations);
            else delete next.metadata.annotations;
          }
          obj = next;
        } else if (opts.subresource === 'finalize') {
          // namespaces/finalize: only spec.finalizers may change (pkg/registry/core/namespace/storage)
          const next = deepCopy(old);
          next.spec = { ...next.spec, finalizers: deepCopy(input.spec?.finalizers) ?? [] };
          obj = next;
        } else {
          obj = deepCopy(input);
          if (!user.trusted) applyGoZeroValues(info, obj);
          obj.apiVersion = apiVersionOf(info);
          obj.kind = info.kind;
          if (strategy.hasStatus || (info.custom && info.subresources.includes('status'))) {
            // the main resource cannot change status; an object without one stays without one
            if (old.status === undefined) delete obj.status;
            else obj.status = deepCopy(old.status);
          }
        }
        // system fields are the server's
        obj.metadata.uid = old.metadata.uid;
        obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
        obj.metadata.namespace = old.metadata.namespace;
        if (old.metadata.deletionTimestamp) {
          obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
          obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
        } else {
          delete obj.metadata.deletionTimestamp;
          delete obj.metadata.deletionGracePeriodSeconds;
        }
        if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
        if (opts.subresource === undefined) {
          strategy.prepareForUpdate?.(obj, old, this);
          strategy.defaults?.(obj, this);
          if (!deepEqual(obj.spec, old.spec) && old.metadata.generation !== undefined)
            obj.metadata.generation = (old.metadata.generation ?? 0) + (opts.foldedUpdates ?? 1);
        }
        const errs: FieldError[] = [];
        if (opts.subresource === undefined) {
          errs.push(...(strategy.validateUpdate?.(obj, old, this) ?? []));
          for (const v of this.validatingAdmission) errs.push(...(v('update', info, obj, old, { dryRun: opts.dryRun }) ?? []));
        }
        if (errs.length) throw newInvalid(groupKind(info), name, errs);
        if (!opts.managedFieldsSet && opts.subresource !== 'finalize')
          managedFieldsOnWrite(this, user, info, old, obj, input, opts, STATUS_KEEPS_ANNOTATIONS.has(groupResource(info)));
        const warnings = opts.subresource ? [] : (strategy.warnings?.(obj, old) ?? []);
        // no-op writes are invisible (no new revision, no watch event)
        // managedFields count (the HTTP API's server-side apply and CSA→SSA migration change
        // only them), their timestamps do not (a repeated apply is a no-op, as upstream)
        if (sameButRevisionAndTimes(obj, old)) {
          this.responseHop(
            user,
            relayVerb,
            info,
            ns,
            name,
            `200 OK (no change) ${this.describe(info, ns, name)}`,
            cause,
            old.metadata.resourceVersion,
            opts.category,
          );
          return { object: old, warnings };
        }
        if (opts.dryRun) {
          this.responseHop(
            user,
            relayVerb,
            info,
            ns,
            name,
            `200 OK (dry run) ${this.describe(info, ns, name)}`,
            cause,
            undefined,
            opts.category,
          );
          return { object: obj, warnings };
        }
        this.admissionHop(user, relayVerb, info, ns, name, cause, opts.category);
        // finalizers emptied on a deleting object → remove it now
        if (
          obj.metadata.deletionTimestamp &&
          !obj.metadata.finalizers?.length &&
          !namespaceFinalizers(info, obj).length &&
          this.gracefulDone(info, obj)
        ) {
          const d = this.store.delete(this.resourceKey(info), key, cur.modRev);
          if (d === 'conflict') throw newConflict(groupResource(info), name);
          if (d === 'notfound') throw newNotFound(groupResource(info), name);
          strategy.afterDelete?.(old, this);
          this.storageHop(
            'delete',
            info,
            ns,
            name,
            `delete ${etcdKey(info, ns, name)} (finalizers done, rev ${d.modRev})`,
            cause,
            String(d.modRev),
            opts.category,
          );
          this.responseHop(
            user,
            'update',
            info,
            ns,
            name,
            `200 OK ${this.describe(info, ns, name)} (deleted)`,
            cause,
            String(d.modRev),
            opts.category,
          );
          return { object: d.obj, warnings };
        }
        const e = this.store.update(this.resourceKey(info), key, obj, cur.modRev);
        if (e === 'conflict') throw newConflict(groupResource(info), name);
        if (e === 'notfound') throw newNotFound(groupResource(info), name);
        const rv = e.obj.metadata.resourceVersion!;
        this.storageHop('update', info, ns, name, `put ${etcdKey(info, ns, name)} (rev ${rv})`, cause, rv, opts.category);
        this.responseHop(user, relayVerb, info, ns, name, `200 OK ${this.describe(info, ns, name)}`, cause, rv, opts.category);
        return { object: e.obj, warnings };
      } catch (err) {
        this.failHop(user, relayVerb, info, ns, name, err, cause);
        throw err;
      }
    });
  }

  /**
   * patch: PATCH with a JSON patch, merge patch, strategic merge patch or server-side apply
   * document (see patch.ts). @throws StatusError as kube-apiserver's patch handler.
   */
  patch(
    user: RequestUser,
    info: ResourceInfo,
    namespace: string,
    name: string,
    type: PatchType,
    body: unknown,
    opts: PatchOptions = {},
  ): PatchResult {
    return patchObject(this, user, info, namespace, name, type, body, opts);
  }

  /** pods/eviction: evicts a Pod honouring its PodDisruptionBudget (see eviction.ts). */
  evict(user: RequestUser, namespace: string, name: string, body: Eviction): Status {
    return evictPod(this, user, namespace, name, body);
  }

  /** A Pod with a pending grace period is not removed by finalizer removal alone. */
  private gracefulDone(info: ResourceInfo, obj: KObject): boolean {
    if (info.resource !== 'pods' || info.group !== '') return true;
    return obj.metadata.deletionGracePeriodSeconds === 0 || !obj.spec?.nodeName;
  }

  /**
   * delete: graceful deletion as the generic registry does. Pods bound to a node get a
   * deletionTimestamp (now + grace period) and wait for their kubelet; objects with
   * finalizers get a deletionTimestamp and wait for them; everything else is removed now.
   * Foreground/Orphan propagation add the foregroundDeletion/orphan finalizer for the
   * garbage collector. Returns the object as it was left (or was, when removed).
   * @throws StatusError 404, 403 (an immortal namespace: default, kube-system, kube-public), 409 (precondition failed).
   */
  delete(user: RequestUser, info: ResourceInfo, namespace: string, name: string, opts: DeleteOptions = {}): KObject {
    const ns = info.namespaced ? namespace : '';
    const grace = opts.gracePeriodSeconds;
    const cause = this.requestHop(
      user,
      'delete',
      info,
      ns,
      name,
      opts.summary ?? `delete ${this.describe(info, ns, name)}${grace !== undefined ? ` (grace ${grace}s)` : ''}`,
    );
    return this.relay.withCause(cause, () => {
      try {
        this.authz(user, 'delete', info, ns, name);
        checkVerb(info, 'delete');
        if (this.authorizer && info.group === '' && info.resource === 'pods')
          this.admitNode(user, 'delete', info, '', name, undefined, this.store.get('pods', `${ns}/${name}`)?.obj);
        // NamespaceLifecycle admission (plugin/pkg/admission/namespace/lifecycle): immortal namespaces
        if (info.group === '' && info.resource === 'namespaces' && IMMORTAL_NAMESPACES.has(name))
          throw newForbidden('namespaces', name, 'this namespace may not be deleted');
        const key = this.objKey(info, ns, name);
        const cur = this.store.get(this.resourceKey(info), key);
        if (!cur) throw newNotFound(groupResource(info), name);
        const old = cur.obj;
        if (opts.preconditions?.uid && opts.preconditions.uid !== old.metadata.uid) {
          throw newConflict(
            groupResource(info),
            name,
            `Precondition failed: UID in precondition: ${opts.preconditions.uid}, UID in object meta: ${old.metadata.uid}`,
          );
        }
        if (opts.preconditions?.resourceVersion && opts.preconditions.resourceVersion !== old.metadata.resourceVersion) {
          throw newConflict(
            groupResource(info),
            name,
            `Precondition failed: ResourceVersion in precondition: ${opts.preconditions.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
          );
        }
        if (opts.dryRun) {
          this.responseHop(user, 'delete', info, ns, name, `200 OK (dry run)`, cause);
          return old;
        }
        this.admissionHop(user, 'delete', info, ns, name, cause);
        const obj = deepCopy(old);
        let finalizers = [...(obj.metadata.finalizers ?? [])];
        const policy = opts.propagationPolicy;
        if (policy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
        if (policy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
        if (policy === 'Background') finalizers = finalizers.filter((f) => f !== 'foregroundDeletion' && f !== 'orphan');
        // graceful deletion (pods bound to a node)
        let graceSeconds = 0;
        const isPod = info.group === '' && info.resource === 'pods';
        if (isPod && obj.spec?.nodeName && !(obj.status?.phase === 'Succeeded' || obj.status?.phase === 'Failed')) {
          graceSeconds = grace ?? obj.spec.terminationGracePeriodSeconds ?? 30;
          if (grace === 0) graceSeconds = 0;
        }
        if (old.metadata.deletionTimestamp) {
          // already deleting: a shorter grace period may be set; otherwise nothing changes
          const prevGrace = old.metadata.deletionGracePeriodSeconds ?? 0;
          if (isPod && grace !== undefined && grace < prevGrace) {
            obj.metadata.deletionGracePeriodSeconds = grace;
          } else if (finalizers.length === (old.metadata.finalizers ?? []).length) {
            this.responseHop(user, 'delete', info, ns, name, `202 Accepted (already terminating)`, cause, old.metadata.resourceVersion);
            return old;
          }
        }
        const nsFinalizers = namespaceFinalizers(info, obj);
        if (nsFinalizers.length && old.metadata.deletionTimestamp) {
          this.responseHop(user, 'delete', info, ns, name, `202 Accepted (already terminating)`, cause, old.metadata.resourceVersion);
          return old;
        }
        if (nsFinalizers.length) obj.status = { ...obj.status, phase: 'Terminating' };
        const mustWait =
          nsFinalizers.length > 0 ||
          finalizers.length > 0 ||
          graceSeconds > 0 ||
          (isPod &&
            obj.metadata.deletionGracePeriodSeconds !== undefined &&
            obj.metadata.deletionGracePeriodSeconds > 0 &&
            !!obj.spec?.nodeName);
        if (mustWait) {
          obj.metadata.finalizers = finalizers.length ? finalizers : undefined;
          if (!obj.metadata.finalizers) delete obj.metadata.finalizers;
          if (!old.metadata.deletionTimestamp) {
            obj.metadata.deletionTimestamp = new Date(this.clock.now() + graceSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
            obj.metadata.deletionGracePeriodSeconds = graceSeconds;
          }
          if (obj.metadata.generation !== undefined && !old.metadata.deletionTimestamp)
            obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
          const e = this.store.update(this.resourceKey(info), key, obj, cur.modRev);
          if (e === 'conflict') throw newConflict(groupResource(info), name);
          if (e === 'notfound') throw newNotFound(groupResource(info), name);
          const rv = e.obj.metadata.resourceVersion!;
          this.storageHop('update', info, ns, name, `put ${etcdKey(info, ns, name)} (deletionTimestamp set, rev ${rv})`, cause, rv);
          this.responseHop(user, 'delete', info, ns, name, `200 OK ${this.describe(info, ns, name)} terminating`, cause, rv);
          return e.obj;
        }
        const d = this.store.delete(this.resourceKey(info), key, cur.modRev);
        if (d === 'conflict') throw newConflict(groupResource(info), name);
        if (d === 'notfound') throw newNotFound(groupResource(info), name);
        strategyFor(this.strategies, info).afterDelete?.(old, this);
        this.storageHop('delete', info, ns, name, `delete ${etcdKey(info, ns, name)} (rev ${d.modRev})`, cause, String(d.modRev));
        this.responseHop(user, 'delete', info, ns, name, `200 OK ${this.describe(info, ns, name)} deleted`, cause, String(d.modRev));
        return d.obj;
      } catch (err) {
        this.failHop(user, 'delete', info, ns, name, err, cause);
        throw err;
      }
    });
  }

  /**
   * pods/binding: POST a Binding; sets spec.nodeName on an unbound Pod, as
   * pkg/registry/core/pod/storage/storage.go (BindingREST.setPodNodeAndMetadata) does.
   * @throws StatusError 404, 409 when already bound ("pod x is already assigned to node y").
   */
  bind(user: RequestUser, namespace: string, podName: string, nodeName: string, summary?: string): KObject {
    const info = this.registry.forResource('', 'pods')!;
    const cause = this.relay.record({
      from: user.participant,
      to: 'kube-apiserver',
      kind: 'request',
      verb: 'create',
      resource: 'pods/binding',
      namespace,
      name: podName,
      summary: summary ?? `bind Pod ${namespace}/${podName} to ${nodeName}`,
    });
    return this.relay.withCause(cause, () => {
      try {
        this.authorizeRequest(user, 'create', info, namespace, podName, 'binding');
        const key = `${namespace}/${podName}`;
        const cur = this.store.get('pods', key);
        if (!cur) throw newNotFound('pods', podName);
        if (cur.obj.metadata.deletionTimestamp) throw newConflict('pods', podName, 'pod is being deleted, cannot be assigned to a host');
        if (cur.obj.spec?.nodeName)
          throw newConflict('pods', podName, `pod ${podName} is already assigned to node "${cur.obj.spec.nodeName}"`);
        this.admissionHop(user, 'create', { ...info, resource: 'pods/binding' }, namespace, podName, cause);
        // copy-on-write: only metadata, spec.nodeName and status.conditions change; the rest stays
        // the stored version's (read-only, shared), in the same key order a deep copy has
        const stored = cur.obj;
        const conds = ((stored.status?.conditions ?? []) as { type: string }[]).filter((c) => c.type !== 'PodScheduled');
        conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: this.clock.nowRFC3339() } as never);
        const obj: KObject = {
          ...stored,
          metadata: copyUnfrozen(stored.metadata),
          spec: { ...stored.spec, nodeName },
          status: { ...(stored.status ?? {}), conditions: conds },
        };
        const e = this.store.update('pods', key, obj, cur.modRev);
        if (e === 'conflict') throw newConflict('pods', podName);
        if (e === 'notfound') throw newNotFound('pods', podName);
        const rv = e.obj.metadata.resourceVersion!;
        this.storageHop(
          'update',
          info,
          namespace,
          podName,
          `put ${etcdKey(info, namespace, podName)} spec.nodeName=${nodeName} (rev ${rv})`,
          cause,
          rv,
        );
        this.relay.record({
          from: 'kube-apiserver',
          to: user.participant,
          kind: 'response',
          verb: 'create',
          resource: 'pods/binding',
          namespace,
          name: podName,
          summary: `201 Created binding ${podName} → ${nodeName}`,
          cause,
          resourceVersion: rv,
        });
        return e.obj;
      } catch (err) {
        if (err instanceof StatusError) {
          this.relay.record({
            from: 'kube-apiserver',
            to: user.participant,
            kind: 'response',
            verb: 'create',
            resource: 'pods/binding',
            namespace,
            name: podName,
            summary: `${err.code} ${err.reason}: ${err.message}`,
            cause,
          });
        }
        throw err;
      }
    });
  }

  /**
   * watch: events after `resourceVersion` (or from now), delivered asynchronously after
   * `timings.watchLatencyMs`, in order, never blocking the store. Objects that stop or start
   * matching the selectors arrive as DELETED / ADDED, as the watch cache does.
   * @returns a stop function.
   * @throws StatusError 410 Gone when `resourceVersion` is compacted.
   */
  watch(
    user: RequestUser,
    info: ResourceInfo,
    namespace: string | undefined,
    opts: WatchOptions,
    handler: (ev: WatchEvent) => void,
  ): () => void {
    const { labels, fields } = selectorsOf(opts);
    this.authorizeRequest(user, 'watch', info, info.namespaced ? (namespace ?? '') : '', requestInfoName(fields), '', fields);
    const release = this.watchHook?.(user, this.resourceKey(info));
    const nodeReq = fields?.find((f) => f.field === 'spec.nodeName' && f.op === '=');
    const w: Watcher = {
      id: ++this.watcherSeq,
      resource: this.resourceKey(info),
      namespace: info.namespaced ? namespace || undefined : undefined,
      labels,
      fields,
      nodeName: nodeReq?.value,
      handler,
      queue: [],
      scheduled: false,
      stopped: false,
    };
    if (opts.resourceVersion && opts.resourceVersion !== '0') {
      const past = this.store.eventsSince(w.resource, Number(opts.resourceVersion));
      if (past === 'gone') throw newGone(`too old resource version: ${opts.resourceVersion} (${this.store.compactedRevision})`);
      for (const ev of past) this.offer(w, ev);
    }
    if (w.nodeName !== undefined) {
      let s = this.nodeIndex.get(w.nodeName);
      if (!s) this.nodeIndex.set(w.nodeName, (s = new Set()));
      s.add(w);
    } else {
      const list = this.watchers.get(w.resource) ?? [];
      list.push(w);
      this.watchers.set(w.resource, list);
    }
    let bookmark: ReturnType<SimClock['setTimer']> | null = null;
    if (opts.allowWatchBookmarks) {
      const tick = () => {
        if (w.stopped) return;
        w.queue.push({
          type: 'BOOKMARK',
          object: { apiVersion: apiVersionOf(info), kind: info.kind, metadata: { name: '', resourceVersion: String(this.store.revision) } },
        });
        this.schedule(w);
        bookmark = this.clock.setTimer(60_000, tick);
      };
      bookmark = this.clock.setTimer(60_000, tick);
    }
    return () => {
      if (!w.stopped) release?.();
      w.stopped = true;
      this.clock.cancel(bookmark);
      if (w.nodeName !== undefined) this.nodeIndex.get(w.nodeName)?.delete(w);
      else
        this.watchers.set(
          w.resource,
          (this.watchers.get(w.resource) ?? []).filter((x) => x !== w),
        );
    };
  }

  /**
   * Called when a watch opens (after authorization), with the group-qualified resource; the
   * returned function runs when it stops. `Cluster` counts the Lease watchers with it
   * (sim/heartbeats.ts).
   */
  watchHook: ((user: RequestUser, resource: string) => (() => void) | undefined) | null = null;

  /**
   * The relay hop (the write request) that produced revision `rev`, when still remembered.
   * Informers use it as the cause of the watch hops they record.
   */
  causeOf(rev: number): number | null {
    const i = rev % CAUSE_RING;
    return this.causeRevs[i] === rev ? this.causeSeqs[i] : null;
  }

  private causeRevs = new Float64Array(CAUSE_RING);
  private causeSeqs = new Float64Array(CAUSE_RING);

  /**
   * --event-ttl (1 h): etcd stores every Event with a lease that each write renews; when the
   * lease runs out the key disappears (watchers see DELETED). Leases are reused for a minute as
   * kube-apiserver's leaseManager does (storage/leases.ts), so an Event goes 1 h to 1 h 1 min
   * after its last write. Not a deadline: it changes nothing a person waits for.
   */
  eventTTLMs = 3_600_000;
  private leases: LeaseManager | undefined;
  private get eventLeases(): LeaseManager {
    return (this.leases ??= new LeaseManager(this.clock, (resource, key) => this.store.delete(resource, key)));
  }

  private renewEventLease(ev: StoreEvent): void {
    if (ev.type === 'DELETED') this.eventLeases.delete(ev.resource, ev.key);
    else this.eventLeases.put(ev.resource, ev.key, Math.trunc(this.eventTTLMs / 1000));
  }

  private dispatch(ev: StoreEvent): void {
    if (ev.resource === 'events' || ev.resource === 'events.events.k8s.io') this.renewEventLease(ev);
    else if (ev.resource === 'pods') this.indexPodNode(ev);
    const i = ev.rev % CAUSE_RING;
    this.causeRevs[i] = ev.rev;
    this.causeSeqs[i] = this.relay.currentCause ?? 0;
    for (const h of this.afterWrite) h(ev);
    const list = this.watchers.get(ev.resource);
    if (list) for (const w of list) this.offer(w, ev);
    if (ev.resource === 'pods' && this.nodeIndex.size) {
      const a = ev.obj.spec?.nodeName as string | undefined;
      const b = ev.prev?.spec?.nodeName as string | undefined;
      if (a) this.nodeIndex.get(a)?.forEach((w) => this.offer(w, ev));
      if (b && b !== a) this.nodeIndex.get(b)?.forEach((w) => this.offer(w, ev));
    }
  }

  private matchesWatcher(w: Watcher, o: KObject | undefined): boolean {
    if (!o) return false;
    if (w.namespace && o.metadata.namespace !== w.namespace) return false;
    if (w.labels && !matches(w.labels, o.metadata.labels)) return false;
    if (w.fields && w.fields.length && !fieldsMatch(o, w.fields)) return false;
    return true;
  }

  private offer(w: Watcher, ev: StoreEvent): void {
    if (w.stopped || ev.resource !== w.resource) return;
    const now = this.matchesWatcher(w, ev.obj);
    const before = ev.type === 'MODIFIED' ? this.matchesWatcher(w, ev.prev) : false;
    let out: WatchEvent | null = null;
    if (ev.type === 'ADDED') out = now ? { type: 'ADDED', object: ev.obj } : null;
    else if (ev.type === 'DELETED')
      out = this.matchesWatcher(w, ev.prev ?? ev.obj) ? { type: 'DELETED', object: ev.obj, oldObject: ev.prev } : null;
    else if (now && before) out = { type: 'MODIFIED', object: ev.obj, oldObject: ev.prev };
    else if (now && !before) out = { type: 'ADDED', object: ev.obj };
    else if (!now && before) out = { type: 'DELETED', object: ev.obj, oldObject: ev.prev };
    if (!out) return;
    w.queue.push(out);
    this.schedule(w);
  }

  private schedule(w: Watcher): void {
    if (w.scheduled) return;
    w.scheduled = true;
    this.clock.setTimer(this.timings.watchLatencyMs, () => {
      w.scheduled = false;
      const q = w.queue;
      w.queue = [];
      for (const ev of q) {
        if (w.stopped) return;
        w.handler(ev);
      }
    });
  }

  /** The last-applied annotation key kubectl uses for client-side apply. */
  static readonly LAST_APPLIED = ANNOTATION_LAST_APPLIED;
}

/**
 * The parsed label and field selectors of a list or watch. A selector that does not parse is a
 * 400 BadRequest with the parser's text, as the apiserver's parameter decoding answers
 * (metainternalversion conversion of `labelSelector` / `fieldSelector`).
 * @throws StatusError 400
 */
function selectorsOf(opts: { labelSelector?: string | Selector; fieldSelector?: string | FieldRequirement[] }): {
  labels: Selector | undefined;
  fields: FieldRequirement[] | undefined;
} {
  try {
    return {
      labels: typeof opts.labelSelector === 'string' ? parseSelector(opts.labelSelector) : opts.labelSelector,
      fields: typeof opts.fieldSelector === 'string' ? parseFieldSelector(opts.fieldSelector) : opts.fieldSelector,
    };
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The namespaces kube-apiserver's NamespaceLifecycle admission refuses to delete (its Register:
 * metav1.NamespaceDefault, NamespaceSystem, NamespacePublic). kube-node-lease is not among
 * them upstream: deleting it succeeds there.
 */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);
