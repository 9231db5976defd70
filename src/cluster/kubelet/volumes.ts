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
 *
 * The Pod stays ContainerCreating (no sandbox) until every volume is set up. Times: simulated ms.
 */
import type { APIObject, ConfigMap, PersistentVolumeClaim, Pod, Secret } from '../api/objects';
import type { Volume } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';
import type { Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import type { ComponentContext } from '../component-context';
import { FileStore } from '../userland/filesystem';
import { base64Decode } from './env';
import type { OwnedTimers } from './timers';
import type { TimerHandle } from '../sim/clock';
import { setOwn } from '../api/safe-object';

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

interface PodVolumes {
  stores: Map<string, FileStore>;
  failing: Map<string, { delayMs: number; nextAt: number; message: string }>;
  timer?: TimerHandle;
  /** why the Pod waits, for the UI (e.g. an unbound claim) */
  waiting: string[];
}

class SetUpError extends Error {
  constructor(
    message: string,
    readonly event: boolean,
  ) {
    super(message);
  }
}

export class VolumeManager {
  private pods = new Map<string, PodVolumes>();
  private hostPaths = new Map<string, FileStore>();

  constructor(
    private readonly ctx: ComponentContext,
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly timers: OwnedTimers,
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
    for (const [p, v] of entries) {
      const path = '/' + p.replace(/^\/+/, '');
      let d = path.slice(0, path.lastIndexOf('/'));
      while (d) {
        store.dirs.add(d);
        d = d.slice(0, d.lastIndexOf('/'));
      }
      store.files.set(path, v);
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
      for (const src of v.projected?.sources ?? []) {
        if (src.configMap) {
          const o = this.fetch('configmaps', ns, src.configMap.name, !!src.configMap.optional);
          if (o) this.fill(s, o.data ?? {}, src.configMap.items, 'configmap', src.configMap.name);
        } else if (src.secret) {
          const o = this.fetch('secrets', ns, src.secret.name, !!src.secret.optional);
          const data: Record<string, string> = {};
          for (const [k, val] of Object.entries((o?.data ?? {}) as Record<string, string>)) setOwn(data, k, base64Decode(val));
          if (o) this.fill(s, data, src.secret.items, 'secret', src.secret.name);
        } else if (src.serviceAccountToken)
          s.files.set('/' + (src.serviceAccountToken.path ?? 'token'), 'eyJhbGciOiJSUzI1NiJ9.simulated.token');
      }
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
    if (!pv) this.pods.set(uid, (pv = { stores: new Map(), failing: new Map(), waiting: [] }));
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
        pv.stores.set(v.name, this.setUp(pod, v, pv));
        pv.failing.delete(v.name);
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

  /** Why a Pod's volumes are not ready (UI), empty when they are. */
  waiting(uid: string): string[] {
    return this.pods.get(uid)?.waiting ?? [];
  }

  /** The Pod is gone: unmount (emptyDir content is lost; claims keep theirs). */
  forget(uid: string): void {
    const pv = this.pods.get(uid);
    if (pv) this.timers.cancel(pv.timer);
    this.pods.delete(uid);
  }

  /** Power loss: emptyDirs are gone (tmpfs-like); hostPath and claims stay on disk. */
  reset(): void {
    this.pods.clear();
  }
}
