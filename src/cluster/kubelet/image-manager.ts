/**
 * The kubelet's image manager: EnsureImageExists as pkg/kubelet/images/image_manager.go
 * (v1.33, KubeletEnsureSecretPulledImages off) — pull policy, the per-node image cache,
 * per-image back-off (key `<podUID>_<image>`, 10 s doubling to 300 s), and the events, with
 * upstream's exact texts (pkg/kubelet/events/event.go reasons):
 *   Normal  Pulling  Pulling image "nginx:1.14.2"
 *   Normal  Pulled   Successfully pulled image "nginx:1.14.2" in 1.86s (1.86s including waiting). Image size: 71303168 bytes.
 *   Normal  Pulled   Container image "nginx:1.14.2" already present on machine
 *   Warning Failed   Failed to pull image "nginx:1.161": rpc error: code = NotFound desc = …: not found
 *   Normal  BackOff  Back-off pulling image "nginx:1.161"
 * While backing off, the container's waiting message carries the last pull error (v1.33's
 * prevPullErrMsg): `Back-off pulling image "nginx:1.161": ErrImagePull: rpc error: …`; the
 * event's message stays without it.
 *   Warning ErrImageNeverPull  Container image "x" is not present with pull policy of Never
 *   Warning InspectFailed      Failed to apply default image tag "x": …
 * Durations are simulated ms.
 */
import type { Pod } from '../api/objects';
import type { EventRecorder, ObjectRef } from '../client/record';
import type { ComponentContext } from '../component-context';
import { Backoff, formatGoDuration } from './backoff';
import { parseImageRef } from '../sim/image-registry';
import type { ContainerRuntime, StoredImage } from './runtime';

/** Waiting reasons the image manager produces (pkg/kubelet/images/types.go). */
export type ImageErrorReason = 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName';

export type EnsureResult = { ok: true; image: StoredImage } | { ok: false; reason: ImageErrorReason; message: string; retryAt?: number };

/** Container fields the image manager reads. */
export interface ImageContainer {
  name: string;
  image?: string;
  imagePullPolicy?: string;
}

/**
 * The effective pull policy: the API defaults it (Always for `:latest` or no tag,
 * IfNotPresent otherwise); an absent policy is treated the same way here.
 */
export function effectivePullPolicy(c: ImageContainer): 'Always' | 'IfNotPresent' | 'Never' {
  const p = c.imagePullPolicy;
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return p;
  const r = parseImageRef(c.image ?? '');
  if (r && !r.digest && r.tag === 'latest') return 'Always';
  return 'IfNotPresent';
}

/** The ObjectReference kubelet events use for a container (fieldPath spec.containers{name}). */
export function containerRef(pod: Pod, name: string): ObjectRef {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    resourceVersion: pod.metadata.resourceVersion,
    fieldPath: `spec.containers{${name}}`,
  };
}

export class ImageManager {
  readonly backOff: Backoff;
  /** the last failed pull's `<err>: <msg>` per back-off key (image_manager.go prevPullErrMsg) */
  private readonly prevPullErrMsg = new Map<string, string>();

  constructor(
    private readonly ctx: ComponentContext,
    private readonly runtime: ContainerRuntime,
    private readonly recorder: EventRecorder,
  ) {
    this.backOff = new Backoff(ctx.timings.backOffInitialMs, ctx.timings.backOffMaxMs, () => ctx.clock.now());
  }

  /** Forgets the back-off and the remembered pull errors (a kubelet restart: both live in memory). */
  reset(): void {
    this.backOff.clear();
    this.prevPullErrMsg.clear();
  }

  /** EnsureImageExists: calls `cb` once, asynchronously when a pull is needed. */
  ensureImageExists(pod: Pod, c: ImageContainer, cb: (r: EnsureResult) => void): void {
    const image = c.image ?? '';
    const ref = containerRef(pod, c.name);
    if (!parseImageRef(image)) {
      const msg = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": invalid reference format`;
      this.recorder.event(ref, 'Warning', 'InspectFailed', msg);
      cb({ ok: false, reason: 'InvalidImageName', message: msg });
      return;
    }
    const policy = effectivePullPolicy(c);
    const present = this.runtime.imageStatus(image);
    if (policy !== 'Always' && present) {
      this.recorder.event(ref, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
      cb({ ok: true, image: present });
      return;
    }
    if (policy === 'Never') {
      const msg = `Container image "${image}" is not present with pull policy of Never`;
      this.recorder.event(ref, 'Warning', 'ErrImageNeverPull', msg);
      cb({ ok: false, reason: 'ErrImageNeverPull', message: msg });
      return;
    }
    const key = `${pod.metadata.uid}_${image}`;
    const now = this.ctx.clock.now();
    if (this.backOff.isInBackOffSinceUpdate(key, now)) {
      const msg = `Back-off pulling image "${image}"`;
      this.recorder.event(ref, 'Normal', 'BackOff', msg);
      // wrap the error from the actual pull: it becomes state.waiting.message
      const prev = this.prevPullErrMsg.get(key);
      cb({
        ok: false,
        reason: 'ImagePullBackOff',
        message: prev === undefined ? msg : `${msg}: ${prev}`,
        retryAt: (this.backOff.lastUpdate(key) ?? now) + this.backOff.get(key),
      });
      return;
    }
    this.recorder.event(ref, 'Normal', 'Pulling', `Pulling image "${image}"`);
    this.runtime.pullImage(
      image,
      { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
      (r) => {
        if (!r.ok) {
          this.recorder.event(ref, 'Warning', 'Failed', `Failed to pull image "${image}": ${r.error}`);
          this.backOff.next(key, this.ctx.clock.now());
          // evalCRIPullErr's fallback: the error as is, ErrImagePull
          this.prevPullErrMsg.set(key, `ErrImagePull: ${r.error}`);
          cb({ ok: false, reason: 'ErrImagePull', message: r.error });
          return;
        }
        this.prevPullErrMsg.delete(key);
        this.recorder.event(
          ref,
          'Normal',
          'Pulled',
          `Successfully pulled image "${image}" in ${formatGoDuration(r.pullMs)} (${formatGoDuration(r.totalMs)} including waiting). Image size: ${r.image.sizeBytes} bytes.`,
        );
        cb({ ok: true, image: r.image });
      },
    );
  }
}
