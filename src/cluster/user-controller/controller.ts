/**
 * A learner's controller inside the simulated control plane (docs/user-controllers.md): the
 * engine side of controller-runtime's Controller (sigs.k8s.io/controller-runtime
 * pkg/internal/controller/controller.go: processNextWorkItem, reconcileHandler) with the
 * learner's `reconcile(request, client)` run in a sandbox (types.ts).
 *
 * - Watches: an informer on the `for` kind enqueues the object's key on every add, update and
 *   delete (handler.EnqueueRequestForObject); informers on the `owns` kinds enqueue the
 *   controller owner of the changed object when it is of the `for` kind
 *   (handler.EnqueueRequestForOwner with OnlyControllerOwner).
 * - Work queue: client-go's contract (fair, stingy, a key re-added while it runs comes back
 *   after), one reconcile at a time (MaxConcurrentReconciles 1), per-item back-off 5 ms · 2ⁿ up
 *   to 1000 s on errors (DefaultTypedControllerRateLimiter's exponential part).
 * - Result: `{requeueAfter}` → AddAfter (and Forget), `{requeue: true}` → AddRateLimited, an
 *   error → AddRateLimited plus a Warning Event `ReconcileError` on the object (controller-runtime
 *   only logs "Reconciler error"; the Event makes it visible here), nothing → Forget.
 * - Client: reads of the watched kinds come from the informer caches (controller-runtime's
 *   default client reads from its cache); other reads and every write are requests through the
 *   apiserver's door as `system:serviceaccount:kube-system:NAME` (authorization, decoding,
 *   admission, validation), shown in the relay under the controller's name.
 *
 * Simulated time: a reconcile starts in a clock timer and holds the clock (sim/clock.ts `hold`)
 * until the sandbox answers, so the reconcile and all its requests happen at one simulated
 * instant whatever wall time the sandbox takes. A synchronous sandbox (headless) answers inside
 * the timer; both give the same sequence of timers, so a replay is deterministic.
 */
import type { ComponentContext } from '../component-context';
import type { Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { SharedInformer } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import { parseApiVersion, type ResourceInfo } from '../api/resources';
import type { RequestUser } from '../apiserver/apiserver';
import { users } from '../apiserver/authentication/user';
import { grantUserControllerRBAC } from './rbac';
import { StatusError, newNotFound } from '../api/errors';
import { deepCopy, metaNamespaceKey, type KObject } from '../api/types';
import { parseSelector } from '../api/labels';
import type { TimerHandle } from '../sim/clock';
import { parseDuration } from '../util/duration';
import { parseMarkers } from './markers';
import {
  RECONCILE_CPU_LIMIT_MS,
  type ClientRequest,
  type ClientResponse,
  type ReconcileOutcome,
  type ReconcileSandbox,
  type UserControllerSpec,
  type UserControllerStatus,
} from './types';

/** Reason of the Warning Event for a failed reconcile. */
export const ReconcileErrorReason = 'ReconcileError';
/** A reconcile past the CPU limit is retried no sooner than this (simulated ms): every retry costs the limit in wall time. */
export const TIMEOUT_RETRY_MIN_MS = 10_000;
const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 1000_000;

/** The ServiceAccount identity a user controller authenticates as (not trusted: bodies are decoded as a client's). */
export function userControllerUser(name: string): RequestUser {
  return {
    name: `system:serviceaccount:kube-system:${name}`,
    participant: name,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}

function apiError(e: unknown): ClientResponse {
  if (e instanceof StatusError) return { ok: false, error: { code: e.code, reason: e.reason, message: e.message } };
  return { ok: false, error: { code: 500, reason: 'InternalError', message: e instanceof Error ? e.message : String(e) } };
}

/** Interprets `reconcile`'s return value (reconcile.Result): requeue and requeueAfter (seconds, or a Go duration string). */
export function resultOf(v: unknown): { requeue: boolean; requeueAfterMs: number } {
  if (!v || typeof v !== 'object') return { requeue: false, requeueAfterMs: 0 };
  const r = v as { requeue?: unknown; requeueAfter?: unknown };
  let after = 0;
  if (typeof r.requeueAfter === 'number' && Number.isFinite(r.requeueAfter) && r.requeueAfter > 0)
    after = Math.round(r.requeueAfter * 1000);
  else if (typeof r.requeueAfter === 'string') {
    try {
      after = parseDuration(r.requeueAfter);
    } catch {
      after = 0;
    }
  }
  return { requeue: r.requeue === true, requeueAfterMs: after };
}

export class UserController {
  readonly name: string;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private forInfo: ResourceInfo | null = null;
  private ownsInfos: ResourceInfo[] = [];
  /** informers by "group/resource" */
  private readonly informers = new Map<string, SharedInformer>();
  private queue: string[] = [];
  private readonly dirty = new Map<string, number | null>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, TimerHandle>();
  private drainTimer: TimerHandle | null = null;
  private inflight: { id: number; key: string; seq: number; release: () => void } | null = null;
  private callSeq = 0;
  private stopped = false;
  private readonly st: UserControllerStatus;
  /** Called when the status changed (the host sends it to the UI) and when a held reconcile ended. */
  onChange: (() => void) | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    readonly spec: UserControllerSpec,
    private readonly sandbox: ReconcileSandbox,
  ) {
    this.name = spec.name;
    this.client = ctx.client(userControllerUser(spec.name));
    this.recorder = ctx.recorder(this.client, spec.name);
    const m = parseMarkers(spec.source);
    this.st = {
      name: spec.name,
      for: spec.for ?? m.for ?? '',
      owns: spec.owns ?? m.owns,
      state: 'stopped',
      queueDepth: 0,
      inFlight: null,
      reconciles: 0,
      errors: 0,
      lastError: null,
      source: spec.source,
    };
  }

  /**
   * Resolves the kinds and starts the informers (their initial lists enqueue every object).
   * @throws Error when `for` is missing or a kind is unknown (the CRD is not applied yet).
   */
  start(): void {
    const reg = this.client.restMapper;
    const resolve = (k: string): ResourceInfo => {
      const info = reg.resolve(k);
      if (!info) throw new Error(`the server doesn't have a resource type "${k}"`);
      return info;
    };
    try {
      if (!this.st.for)
        throw new Error('no kind to reconcile: add a `// +kube-relay:for=RESOURCE` line (e.g. websites.demo.kube-relay.dev)');
      if (!/\breconcile\b/.test(this.spec.code ?? this.spec.source)) throw new Error('the source defines no `reconcile` function');
      this.forInfo = resolve(this.st.for);
      this.ownsInfos = this.st.owns.map(resolve);
    } catch (e) {
      this.st.state = 'failed';
      this.st.startError = (e as Error).message;
      throw e;
    }
    const fi = this.forInfo;
    // deployed as kubebuilder deploys an operator: its ServiceAccount, ClusterRole and binding (rbac.ts)
    grantUserControllerRBAC(this.ctx.client(users.kubectl()), this.name, fi, this.ownsInfos, this.spec.source);
    this.st.for = fi.group ? `${fi.resource}.${fi.group}` : fi.resource;
    this.st.owns = this.ownsInfos.map((i) => (i.group ? `${i.resource}.${i.group}` : i.resource));
    this.st.state = 'running';
    const primary = this.informer(fi);
    primary.addEventHandler({
      participant: this.name,
      onAdd: (o) => this.add(metaNamespaceKey(o)),
      onUpdate: (_old, o) => this.add(metaNamespaceKey(o)),
      onDelete: (o) => this.add(metaNamespaceKey(o)),
    });
    for (const info of this.ownsInfos) {
      if (info === fi) continue;
      const inf = this.informer(info);
      const owner = (o: KObject) => {
        const ref = o.metadata.ownerReferences?.find(
          (r) => r.controller && r.kind === fi.kind && parseApiVersion(r.apiVersion)[0] === fi.group,
        );
        if (ref) this.add(fi.namespaced ? `${o.metadata.namespace}/${ref.name}` : ref.name);
      };
      inf.addEventHandler({
        participant: this.name,
        filter: (o) => !!o.metadata.ownerReferences?.length,
        onAdd: owner,
        onUpdate: (old, o) => {
          owner(old);
          owner(o);
        },
        onDelete: owner,
      });
    }
    for (const inf of this.informers.values()) inf.start();
    this.changed();
  }

  private informer(info: ResourceInfo): SharedInformer {
    const k = `${info.group}/${info.resource}`;
    let inf = this.informers.get(k);
    if (!inf) this.informers.set(k, (inf = new SharedInformer(newListWatchFromClient(this.client, info.group, info.resource))));
    return inf;
  }

  /** Stops watching and drops the queue; a reconcile in progress ends without effect on the queue. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const inf of this.informers.values()) inf.stop();
    for (const h of this.delayed.values()) this.ctx.clock.cancel(h);
    this.delayed.clear();
    this.ctx.clock.cancel(this.drainTimer);
    this.drainTimer = null;
    this.queue = [];
    this.dirty.clear();
    const f = this.inflight;
    this.inflight = null;
    f?.release();
    this.sandbox.dispose();
    if (this.st.state === 'running') this.st.state = 'stopped';
    this.changed();
  }

  /** What the UI shows (a copy). */
  status(): UserControllerStatus {
    return {
      ...this.st,
      owns: [...this.st.owns],
      queueDepth: this.queue.length,
      inFlight: this.inflight?.key ?? null,
      lastError: this.st.lastError && { ...this.st.lastError },
    };
  }

  /** True while a reconcile waits for the sandbox (the clock is held). */
  get busy(): boolean {
    return this.inflight !== null;
  }

  // ---- the work queue ---------------------------------------------------------------------

  private add(key: string, cause: number | null = this.ctx.relay.currentCause): void {
    if (this.stopped) return;
    if (this.dirty.has(key)) {
      if (cause !== null) this.dirty.set(key, cause);
      return;
    }
    this.dirty.set(key, cause);
    if (this.inflight?.key === key) return; // comes back after the current run
    this.queue.push(key);
    this.scheduleDrain();
    this.changed();
  }

  private addAfter(key: string, delayMs: number): void {
    const cause = this.ctx.relay.currentCause;
    this.ctx.clock.cancel(this.delayed.get(key));
    this.delayed.set(
      key,
      this.ctx.clock.setTimer(
        delayMs,
        () => {
          this.delayed.delete(key);
          this.add(key, cause);
        },
        { label: `${this.name} requeue ${key}` },
      ),
    );
  }

  private addRateLimited(key: string, minMs = 0): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.max(Math.min(BASE_DELAY_MS * 2 ** n, MAX_DELAY_MS), minMs);
    const cause = this.ctx.relay.currentCause;
    this.ctx.clock.cancel(this.delayed.get(key));
    this.delayed.set(
      key,
      this.ctx.clock.setTimer(
        delay,
        () => {
          this.delayed.delete(key);
          this.add(key, cause);
        },
        { deadline: true, label: `${this.name}: retry ${key}`, object: key },
      ),
    );
  }

  private scheduleDrain(): void {
    if (this.drainTimer || this.inflight || this.stopped || !this.queue.length) return;
    this.drainTimer = this.ctx.clock.setTimer(0, () => {
      this.drainTimer = null;
      this.next();
    });
  }

  /** processNextWorkItem: takes one key and starts its reconcile. */
  private next(): void {
    if (this.inflight || this.stopped) return;
    const key = this.queue.shift();
    if (key === undefined) return;
    const cause = this.dirty.get(key) ?? null;
    this.dirty.delete(key);
    const fi = this.forInfo!;
    const slash = key.indexOf('/');
    const [namespace, name] = fi.namespaced && slash >= 0 ? [key.slice(0, slash), key.slice(slash + 1)] : ['', key];
    const obj = this.informers.get(`${fi.group}/${fi.resource}`)?.get(key);
    const seen = obj
      ? `${obj.metadata.deletionTimestamp ? 'being deleted' : `resourceVersion ${obj.metadata.resourceVersion}`}`
      : 'not found';
    const id = this.ctx.relay.newReconcile();
    const seq = this.ctx.relay.withCause(cause, () =>
      this.ctx.relay.record({
        from: this.name,
        to: this.name,
        kind: 'decision',
        resource: fi.resource,
        namespace: namespace || null,
        name,
        summary: `Reconcile ${fi.kind} ${key}`,
        reconcile: id,
        note: `${fi.kind} ${key}: ${seen} → Reconcile`,
      }),
    );
    const callId = ++this.callSeq;
    const release = this.ctx.clock.hold();
    this.inflight = { id: callId, key, seq, release };
    this.st.inFlight = key;
    this.changed();
    let ended = false;
    const host = {
      call: (req: ClientRequest): ClientResponse => {
        if (ended || this.inflight?.id !== callId)
          return { ok: false, error: { code: 500, reason: 'InternalError', message: 'the reconcile has ended' } };
        return this.ctx.relay.withCause(seq, () => this.serve(req));
      },
      done: (o: ReconcileOutcome) => {
        if (ended) return;
        ended = true;
        if (this.inflight?.id !== callId) return;
        this.ctx.relay.withCause(seq, () => this.finish(key, o));
      },
    };
    try {
      this.sandbox.reconcile(
        {
          id: callId,
          controller: this.name,
          code: this.spec.code ?? this.spec.source,
          request: { namespace, name, now: this.ctx.clock.nowRFC3339() },
        },
        host,
      );
    } catch (e) {
      host.done({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** reconcileHandler's tail: the result or error decides the key's next turn. */
  private finish(key: string, o: ReconcileOutcome): void {
    const f = this.inflight!;
    this.inflight = null;
    this.st.inFlight = null;
    this.st.reconciles++;
    let summary: string;
    if (o.kind === 'result') {
      const r = resultOf(o.value);
      this.st.lastError = null;
      if (r.requeueAfterMs > 0) {
        this.failures.delete(key);
        this.addAfter(key, r.requeueAfterMs);
        summary = `requeue after ${r.requeueAfterMs / 1000} s`;
      } else if (r.requeue) {
        this.addRateLimited(key);
        summary = 'requeue (rate limited)';
      } else {
        this.failures.delete(key);
        summary = 'done';
      }
    } else {
      const message =
        o.kind === 'error'
          ? `Reconciler error: ${o.message}`
          : `Reconciler error: reconcile did not finish within the ${o.limitMs} ms CPU limit: the sandbox was stopped and restarted`;
      this.st.errors++;
      this.st.lastError = { at: this.ctx.clock.now(), key, message };
      const obj = this.forInfo && this.informers.get(`${this.forInfo.group}/${this.forInfo.resource}`)?.get(key);
      if (obj) this.recorder.event(obj, 'Warning', ReconcileErrorReason, message);
      this.addRateLimited(key, o.kind === 'timeout' ? TIMEOUT_RETRY_MIN_MS : 0);
      summary = o.kind === 'error' ? `error: ${o.message}` : `timeout after ${o.limitMs} ms`;
    }
    this.ctx.relay.record({
      from: this.name,
      to: this.name,
      kind: 'note',
      resource: this.forInfo?.resource,
      name: key,
      summary: `Reconcile ${key} → ${summary}`,
    });
    if (this.dirty.has(key) && !this.queue.includes(key)) this.queue.push(key);
    f.release();
    this.scheduleDrain();
    this.changed();
  }

  private changed(): void {
    this.onChange?.();
  }

  // ---- the client -------------------------------------------------------------------------

  private infoOf(apiVersion: string, kind: string): ResourceInfo {
    const info = this.client.restMapper.forKind(String(apiVersion), String(kind));
    if (!info)
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code: 404,
        reason: 'NotFound',
        message: `no matches for kind "${kind}" in version "${apiVersion}"`,
      });
    return info;
  }

  private cached(info: ResourceInfo): SharedInformer | undefined {
    const inf = this.informers.get(`${info.group}/${info.resource}`);
    return inf && inf.info.version === info.version ? inf : undefined;
  }

  /** One client request, as the learner's code made it. */
  private serve(req: ClientRequest): ClientResponse {
    try {
      return { ok: true, value: this.run(req) };
    } catch (e) {
      return apiError(e);
    }
  }

  private run(req: ClientRequest): unknown {
    const rc = (info: ResourceInfo) => this.client.resource(info.group, info.resource);
    const nsOf = (info: ResourceInfo, ns: string | undefined) => (info.namespaced ? ns || 'default' : '');
    const objOf = (o: unknown): KObject => {
      if (!o || typeof o !== 'object' || !(o as KObject).metadata || typeof (o as KObject).metadata !== 'object')
        throw new StatusError({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          code: 400,
          reason: 'BadRequest',
          message: 'the object has no metadata',
        });
      return o as KObject;
    };
    switch (req.op) {
      case 'get': {
        const info = this.infoOf(req.key.apiVersion, req.key.kind);
        const ns = nsOf(info, req.key.namespace);
        const inf = this.cached(info);
        if (inf) {
          const o = inf.get(ns ? `${ns}/${req.key.name}` : req.key.name);
          if (!o) throw newNotFound(info.group ? `${info.resource}.${info.group}` : info.resource, req.key.name);
          return deepCopy(o);
        }
        return rc(info).get(ns, req.key.name);
      }
      case 'list': {
        const info = this.infoOf(req.apiVersion, req.kind);
        const ns = info.namespaced ? req.namespace : undefined;
        const inf = this.cached(info);
        if (inf) return inf.list(ns, req.labelSelector ? parseSelector(req.labelSelector) : undefined).map((o) => deepCopy(o));
        return rc(info).list(ns, { labelSelector: req.labelSelector }).items;
      }
      case 'create': {
        const o = objOf(req.object);
        const info = this.infoOf(o.apiVersion, o.kind);
        return rc(info).create(nsOf(info, o.metadata.namespace), o);
      }
      case 'update': {
        const o = objOf(req.object);
        const info = this.infoOf(o.apiVersion, o.kind);
        return rc(info).update({ ...o, metadata: { ...o.metadata, namespace: nsOf(info, o.metadata.namespace) || undefined } });
      }
      case 'updateStatus': {
        const o = objOf(req.object);
        const info = this.infoOf(o.apiVersion, o.kind);
        return rc(info).updateStatus({ ...o, metadata: { ...o.metadata, namespace: nsOf(info, o.metadata.namespace) || undefined } });
      }
      case 'patch': {
        const info = this.infoOf(req.key.apiVersion, req.key.kind);
        return rc(info).patch(nsOf(info, req.key.namespace), req.key.name, req.patchType, req.patch).object;
      }
      case 'delete': {
        const info = this.infoOf(req.key.apiVersion, req.key.kind);
        return rc(info).delete(
          nsOf(info, req.key.namespace),
          req.key.name,
          req.propagationPolicy ? { propagationPolicy: req.propagationPolicy } : undefined,
        );
      }
      case 'event': {
        const k = req.object;
        this.recorder.event(
          { apiVersion: k.apiVersion, kind: k.kind, namespace: k.namespace, name: k.name, uid: k.uid },
          req.type === 'Warning' ? 'Warning' : 'Normal',
          String(req.reason),
          String(req.message),
        );
        return null;
      }
      default:
        throw new StatusError({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          code: 400,
          reason: 'BadRequest',
          message: `unknown client request ${JSON.stringify((req as { op?: unknown }).op)}`,
        });
    }
  }
}

export { RECONCILE_CPU_LIMIT_MS };
