/**
 * The kubelet's volume manager, in miniature (pkg/kubelet/volumemanager: the desired-state
 * populator, the reconciler's MountVolume.SetUp through operationexecutor, and
 * WaitForAttachAndMount that SyncPod blocks on before creating the sandbox).
 *
 * - configMap / secret volumes: the object's keys become files; a missing object (not
 *   optional) fails SetUp with the event
 *   `Warning FailedMount MountVolume.SetUp failed for volume "config" : configmap "x" not found`,
 *   retried with the operation back-off of nestedpendingoperations (500 ms doubling to 2m2s).
 * - persistentVolumeClaim: the populator waits until the claim exists and is Bound (upstream
 *   logs "PVC ns/x has non-bound phase …" without an event; the scheduler's VolumeBinding
 *   normally keeps such Pods unscheduled). The claim's files live in a cluster-wide store keyed
 *   `namespace/claim` ({@link claimStore}), so data outlives the Pod.
 * - emptyDir: one store per Pod (survives container restarts); hostPath: one per node and path;
 *   projected / downwardAPI: files from their sources; anything else: an empty directory.
 * - projected serviceAccountToken sources (pkg/volume/projected/projected.go collectData): the
 *   token comes from the kubelet's token manager (token-manager.ts), asked for a TokenRequest
 *   of the Pod's ServiceAccount with the source's audience (none: the apiserver's), its
 *   expirationSeconds (3607 for `kube-api-access-*`) and boundObjectRef the Pod (v1 Pod, name,
 *   uid); the file at the source's path holds the JWT. A failure fails SetUp with
 *   `MountVolume.SetUp failed for volume "kube-api-access-xxxxx" : failed to fetch token: <err>`
 *   (several failing sources of one projected volume: utilerrors' `[a, b]`).
 * - Refresh: upstream the pod worker re-syncs every Pod each syncFrequency (1 min) and the
 *   volume manager remounts projected volumes, which asks the token manager again. Here only
 *   Pods with token sources are looked at: at the first resync tick (mount time + k · 1 min;
 *   upstream's 0–50% jitter of the resync is not modelled) from the moment the token can first
 *   require a refresh, and each minute after until it does; then the file's content is the new
 *   token (the container sees it at once, as after the atomic writer's rename). One timer per
 *   kubelet, not a deadline (settle does not wait for it). The Pod's tokens leave the cache
 *   when it goes (DeleteServiceAccountToken in the projected volume's TearDown).
 *
 * The Pod stays ContainerCreating (no sandbox) until every volume is set up. Times: simulated ms.
 */
import type { APIObject, ConfigMap, PersistentVolumeClaim, Pod, Secret } from '../api/objects';
import type { ServiceAccountTokenProjection, Volume } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';
import type { Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import type { ComponentContext } from '../component-context';
import { FileStore } from '../userland/filesystem';
import { base64Decode } from './env';
import type { OwnedTimers } from './timers';
import type { TimerHandle } from '../sim/clock';
import { setOwn } from '../api/safe-object';
import type { TokenManager } from './token-manager';
import type { TokenRequest } from '../apiserver/token-request';

/** Writes `content` at `p` (relative to the volume's root), with its parent directories. */
function put(store: FileStore, p: string, content: string): void {
  const path = '/' + p.replace(/^\/+/, '');
  let d = path.slice(0, path.lastIndexOf('/'));
  while (d) {
    store.dirs.add(d);
    d = d.slice(0, d.lastIndexOf('/'));
  }
  store.files.set(path, content);
}

const claimStores = new WeakMap<ComponentContext, Map<string, FileStore>>();

/** The files of a PersistentVolumeClaim (`namespace/claim`), shared by every node of the cluster. */
export function claimStore(ctx: ComponentContext, namespace: string, claim: string): FileStore {
  let m = claimStores.get(ctx);
  if (!m) claimStores.set(ctx, (m = new Map()));
  const k = `${namespace}/${claim}`;
  let s = m.get(k);
  if (!s) m.set(k, (s = new FileStore()));
  return s;
}

/** nestedpendingoperations exponential back-off: initialDurationBeforeRetry 500 ms, max 2m2s. */
const RETRY_INITIAL_MS = 500;
const RETRY_MAX_MS = 122_000;
/** The kubelet's --sync-frequency (1 min): the period of a running Pod's resync, simulated ms. */
export const POD_RESYNC_MS = 60_000;

interface PodVolumes {
  stores: Map<string, FileStore>;
  failing: Map<string, { delayMs: number; nextAt: number; message: string }>;
  timer?: TimerHandle;
  /** why the Pod waits, for the UI (e.g. an unbound claim) */
  waiting: string[];
  /** the Pod as last synced (its token volumes are refreshed from it) */
  pod: Pod;
  /** the projected volumes with serviceAccountToken sources, set up */
  tokenVolumes: { volume: Volume; store: FileStore }[];
  /** when the first volume was set up (the phase of the resync ticks), ms */
  mountedAt?: number;
  /** the next resync tick at which the tokens are looked at, ms */
  resyncAt?: number;
}

class SetUpError extends Error {
  constructor(
    message: string,
    readonly event: boolean,
  ) {
    super(message);
  }
}

/** utilerrors.NewAggregate(errs).Error(): one error as itself, several as `[a, b]`. */
function aggregate(msgs: string[]): string {
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

export class VolumeManager {
  private pods = new Map<string, PodVolumes>();
  private hostPaths = new Map<string, FileStore>();
  private resyncTimer?: TimerHandle;
  private resyncTimerAt = Infinity;

  /**
   * @param tokens the kubelet's token manager (its CreateToken goes through `client`'s identity)
   */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly timers: OwnedTimers,
    readonly tokens: TokenManager,
  ) {}

  private get<T extends APIObject>(res: string, ns: string, name: string): T {
    return this.client.resource<T>('', res).get(ns, name, { quiet: true });
  }

  /** `name`: the volume source's (validation requires it; kubernetes-types has it optional). */
  private fetch(res: 'configmaps', ns: string, name: string | undefined, optional: boolean): ConfigMap | null;
  private fetch(res: 'secrets', ns: string, name: string | undefined, optional: boolean): Secret | null;
  private fetch(res: 'configmaps' | 'secrets', ns: string, name: string | undefined, optional: boolean): ConfigMap | Secret | null {
    try {
      return this.get<ConfigMap | Secret>(res, ns, name!);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) {
        if (optional) return null;
        throw new SetUpError(`${res === 'secrets' ? 'secret' : 'configmap'} "${name}" not found`, true);
      }
      throw err;
    }
  }

  private fill(
    store: FileStore,
    data: Record<string, string>,
    items: { key: string; path: string }[] | undefined,
    kind: string,
    name: string | undefined,
  ): void {
    const entries = items?.length
      ? items.map((it) => {
          if (!(it.key in data))
            throw new SetUpError(
              `configmap references non-existent config key: ${it.key}`.replace('configmap', kind === 'secret' ? 'secret' : 'configmap'),
              true,
            );
          return [it.path, data[it.key]] as const;
        })
      : Object.entries(data);
    void name;
    for (const [p, v] of entries) put(store, p, v);
  }

  /** The TokenRequest collectData sends for a serviceAccountToken source of `pod`. */
  private tokenRequestFor(pod: Pod, tp: ServiceAccountTokenProjection): TokenRequest {
    return {
      spec: {
        ...(tp.audience ? { audiences: [tp.audience] } : {}),
        ...(tp.expirationSeconds !== undefined ? { expirationSeconds: tp.expirationSeconds } : {}),
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
      },
    };
  }

  /**
   * One serviceAccountToken source (collectData): the token manager's token for the Pod's
   * ServiceAccount, bound to the Pod, written to the source's path.
   * @returns the error text (`failed to fetch token: …`), or null when the file was written
   */
  private writeToken(pod: Pod, tp: ServiceAccountTokenProjection, store: FileStore): string | null {
    const tr = this.tokenRequestFor(pod, tp);
    try {
      const out = this.tokens.getServiceAccountToken(pod.metadata.namespace ?? 'default', pod.spec?.serviceAccountName ?? '', tr);
      put(store, tp.path, out.status?.token ?? '');
      return null;
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      return err.message;
    }
  }

  private setUp(pod: Pod, v: Volume, pv: PodVolumes): FileStore {
    const ns = pod.metadata.namespace ?? 'default';
    if (v.configMap) {
      const s = new FileStore();
      const o = this.fetch('configmaps', ns, v.configMap.name, !!v.configMap.optional);
      if (o) this.fill(s, { ...(o.binaryData ?? {}), ...(o.data ?? {}) }, v.configMap.items, 'configmap', v.configMap.name);
      return s;
    }
    if (v.secret) {
      const s = new FileStore();
      const o = this.fetch('secrets', ns, v.secret.secretName, !!v.secret.optional);
      const data: Record<string, string> = {};
      for (const [k, val] of Object.entries((o?.data ?? {}) as Record<string, string>)) setOwn(data, k, base64Decode(val));
      if (o) this.fill(s, data, v.secret.items, 'secret', v.secret.secretName);
      return s;
    }
    if (v.persistentVolumeClaim) {
      const claim = v.persistentVolumeClaim.claimName;
      let pvc: PersistentVolumeClaim;
      try {
        pvc = this.get('persistentvolumeclaims', ns, claim);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404)
          throw new SetUpError(
            `error processing PVC ${ns}/${claim}: failed to fetch PVC from API server: persistentvolumeclaims "${claim}" not found`,
            false,
          );
        throw err;
      }
      if (pvc.metadata.deletionTimestamp) throw new SetUpError(`can't start pod because PVC ${ns}/${claim} is being deleted`, false);
      if (pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName) {
        throw new SetUpError(
          `PVC ${ns}/${claim} has non-bound phase ("${pvc.status?.phase ?? ''}") or empty pvc.Spec.VolumeName ("${pvc.spec?.volumeName ?? ''}")`,
          false,
        );
      }
      return claimStore(this.ctx, ns, claim);
    }
    if (v.hostPath) {
      let s = this.hostPaths.get(v.hostPath.path);
      if (!s) this.hostPaths.set(v.hostPath.path, (s = new FileStore()));
      return s;
    }
    const s = new FileStore();
    if (v.downwardAPI || v.projected) {
      // collectData: every source is tried, the errors aggregated
      const errs: string[] = [];
      for (const src of v.projected?.sources ?? []) {
        try {
          if (src.configMap) {
            const o = this.fetch('configmaps', ns, src.configMap.name, !!src.configMap.optional);
            if (o) this.fill(s, o.data ?? {}, src.configMap.items, 'configmap', src.configMap.name);
          } else if (src.secret) {
            const o = this.fetch('secrets', ns, src.secret.name, !!src.secret.optional);
            const data: Record<string, string> = {};
            for (const [k, val] of Object.entries((o?.data ?? {}) as Record<string, string>)) setOwn(data, k, base64Decode(val));
            if (o) this.fill(s, data, src.secret.items, 'secret', src.secret.name);
          } else if (src.serviceAccountToken) {
            const e = this.writeToken(pod, src.serviceAccountToken, s);
            if (e) errs.push(e);
          }
        } catch (err) {
          if (!(err instanceof SetUpError)) throw err;
          errs.push(err.message);
        }
      }
      if (errs.length) throw new SetUpError(aggregate(errs), true);
      for (const it of [...(v.downwardAPI?.items ?? []), ...(v.projected?.sources ?? []).flatMap((x) => x.downwardAPI?.items ?? [])]) {
        const fp: string = it.fieldRef?.fieldPath ?? '';
        const val =
          fp === 'metadata.name'
            ? pod.metadata.name
            : fp === 'metadata.namespace'
              ? ns
              : fp === 'metadata.labels'
                ? Object.entries(pod.metadata.labels ?? {})
                    .map(([k, x]) => `${k}="${x}"`)
                    .join('\n')
                : '';
        s.files.set('/' + it.path, val);
      }
    }
    void pv;
    return s;
  }

  /**
   * Sets up what is missing (the reconciler's pass) and returns every volume's files, or null
   * while one is not ready — then `retry` is called when the next attempt falls due.
   */
  ensure(pod: Pod, retry: () => void): Map<string, FileStore> | null {
    const uid = pod.metadata.uid ?? '';
    let pv = this.pods.get(uid);
    if (!pv) this.pods.set(uid, (pv = { stores: new Map(), failing: new Map(), waiting: [], pod, tokenVolumes: [] }));
    pv.pod = pod;
    const now = this.ctx.clock.now();
    pv.waiting = [];
    let next = Infinity;
    for (const v of pod.spec?.volumes ?? []) {
      if (pv.stores.has(v.name)) continue;
      const f = pv.failing.get(v.name);
      if (f && now < f.nextAt) {
        next = Math.min(next, f.nextAt);
        pv.waiting.push(f.message);
        continue;
      }
      try {
        const store = this.setUp(pod, v, pv);
        pv.stores.set(v.name, store);
        pv.failing.delete(v.name);
        pv.mountedAt ??= now;
        if (v.projected?.sources?.some((x) => x.serviceAccountToken)) {
          pv.tokenVolumes.push({ volume: v, store });
          this.scheduleResync(pv);
        }
      } catch (err) {
        if (!(err instanceof SetUpError)) throw err;
        const delayMs = f ? Math.min(f.delayMs * 2, RETRY_MAX_MS) : RETRY_INITIAL_MS;
        const message = err.event ? `MountVolume.SetUp failed for volume "${v.name}" : ${err.message}` : err.message;
        pv.failing.set(v.name, { delayMs, nextAt: now + delayMs, message });
        pv.waiting.push(message);
        if (err.event) this.recorder.event(pod, 'Warning', 'FailedMount', message);
        next = Math.min(next, now + delayMs);
      }
    }
    if (next === Infinity) return pv.stores;
    this.timers.cancel(pv.timer);
    pv.timer = this.timers.set(
      next - now,
      () => {
        pv.timer = undefined;
        retry();
      },
      {
        deadline: true,
        label: `kubelet: retry mounting volumes of ${pod.metadata.namespace}/${pod.metadata.name}`,
        object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      },
    );
    return null;
  }

  /** The TokenRequests a Pod's token volumes use (the cached answers; their earliest refresh). */
  private tokenRequests(pv: PodVolumes): TokenRequest[] {
    const out: TokenRequest[] = [];
    for (const { volume } of pv.tokenVolumes)
      for (const src of volume.projected?.sources ?? []) {
        const tp = src.serviceAccountToken;
        if (!tp) continue;
        const tr = this.tokens.peek(
          pv.pod.metadata.namespace ?? 'default',
          pv.pod.spec?.serviceAccountName ?? '',
          this.tokenRequestFor(pv.pod, tp),
        );
        if (tr) out.push(tr);
      }
    return out;
  }

  /** Sets the Pod's next resync tick: the first at or after the moment a token can first require a refresh. */
  private scheduleResync(pv: PodVolumes): void {
    const now = this.ctx.clock.now();
    const base = pv.mountedAt ?? now;
    let earliest = Infinity;
    for (const tr of this.tokenRequests(pv)) earliest = Math.min(earliest, this.tokens.earliestRefreshMs(tr));
    if (earliest === Infinity) {
      pv.resyncAt = undefined;
      return;
    }
    const from = Math.max(earliest, now + 1);
    pv.resyncAt = base + Math.ceil((from - base) / POD_RESYNC_MS) * POD_RESYNC_MS;
    this.armResyncTimer();
  }

  /** One kubelet-wide timer at the earliest resync tick of its Pods. */
  private armResyncTimer(): void {
    let at = Infinity;
    for (const pv of this.pods.values()) if (pv.resyncAt !== undefined && pv.resyncAt < at) at = pv.resyncAt;
    if (at === this.resyncTimerAt) return;
    this.timers.cancel(this.resyncTimer);
    this.resyncTimer = undefined;
    this.resyncTimerAt = at;
    if (at === Infinity) return;
    // the periodic resync is not caused by whatever mounted the volume
    this.ctx.relay.withCause(null, () => {
      this.resyncTimer = this.timers.set(Math.max(0, at - this.ctx.clock.now()), () => this.resync(), {
        label: `${this.client.user.participant}: resync the projected service account tokens`,
      });
    });
  }

  /**
   * The resync tick: each due Pod's token volumes are collected again (the token manager
   * decides whether a token is refreshed); a failure is the remount's FailedMount event, the
   * old files stay.
   */
  private resync(): void {
    this.resyncTimer = undefined;
    this.resyncTimerAt = Infinity;
    const now = this.ctx.clock.now();
    for (const pv of this.pods.values()) {
      if (pv.resyncAt === undefined || pv.resyncAt > now) continue;
      for (const { volume, store } of pv.tokenVolumes) {
        const errs: string[] = [];
        for (const src of volume.projected?.sources ?? []) {
          const e = src.serviceAccountToken && this.writeToken(pv.pod, src.serviceAccountToken, store);
          if (e) errs.push(e);
        }
        if (errs.length)
          this.recorder.event(
            pv.pod,
            'Warning',
            'FailedMount',
            `MountVolume.SetUp failed for volume "${volume.name}" : ${aggregate(errs)}`,
          );
      }
      // refreshed: the tick from which the new token can require a refresh; else the next tick
      this.scheduleResync(pv);
    }
    this.armResyncTimer();
  }

  /** Why a Pod's volumes are not ready (UI), empty when they are. */
  waiting(uid: string): string[] {
    return this.pods.get(uid)?.waiting ?? [];
  }

  /**
   * The Pod reached a terminal phase: its volumes are no longer kept mounted (upstream the
   * desired state of world drops it and TearDown runs DeleteServiceAccountToken), so its tokens
   * leave the cache and are not refreshed again; the files stay until the Pod goes.
   */
  podTerminated(uid: string): void {
    const pv = this.pods.get(uid);
    this.tokens.deleteServiceAccountToken(uid);
    if (!pv || pv.resyncAt === undefined) return;
    pv.resyncAt = undefined;
    pv.tokenVolumes = [];
    this.armResyncTimer();
  }

  /** The Pod is gone: unmount (emptyDir content is lost; claims keep theirs). */
  forget(uid: string): void {
    const pv = this.pods.get(uid);
    if (pv) this.timers.cancel(pv.timer);
    this.pods.delete(uid);
    // the projected volume's TearDown: DeleteServiceAccountToken
    this.tokens.deleteServiceAccountToken(uid);
    if (pv?.resyncAt !== undefined) this.armResyncTimer();
  }

  /** Power loss: emptyDirs are gone (tmpfs-like); hostPath and claims stay on disk; the token cache (memory) is gone. */
  reset(): void {
    this.pods.clear();
    this.tokens.clear();
    this.resyncTimer = undefined;
    this.resyncTimerAt = Infinity;
  }
}
