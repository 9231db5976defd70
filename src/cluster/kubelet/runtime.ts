/**
 * containerd, simulated: the CRI runtime one kubelet talks to (k8s.io/cri-api
 * RuntimeService + ImageService, as containerd 2.1's CRI plugin serves them). It keeps pod
 * sandboxes (with a Pod IP from the node's podCIDR, as the CNI host-local IPAM hands them out),
 * containers and their processes, and the node's image store.
 *
 * Every CRI call is a relay hop `kubelet/NODE → containerd/NODE` (kind request, verbs
 * PullImage, RunPodSandbox, CreateContainer, StartContainer, StopContainer, StopPodSandbox)
 * and its answer back, so the seed's "kubelet: image pull → container start" shows.
 *
 * Timings come from ctx.timings (kwok-style stage data) with seeded jitter: a pull takes
 * imagePullBaseMs + size × imagePullMsPerMiB (only the manifest resolve when the layers are
 * already on disk); pulls on one node are serialized (kubelet serializeImagePulls=true).
 * All durations are simulated ms. Power loss wipes sandboxes and containers; images stay on
 * disk.
 */
import type { ComponentContext } from '../component-context';
import { ImageRegistry } from '../sim/image-registry';
import type { OwnedTimers } from './timers';
import type { ContainerProcess } from '../userland/container-process';

/** Which pod a CRI call is for (relay hops name it). */
export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface Sandbox {
  id: string;
  podUID: string;
  ip: string;
  ready: boolean;
}

export interface RuntimeContainer {
  id: string;
  podUID: string;
  name: string;
  sandboxId: string;
  /** Normalized reference, e.g. docker.io/library/nginx:1.14.2 (what status.image shows). */
  image: string;
  /** docker.io/library/nginx@sha256:… (status.imageID). */
  imageID: string;
  state: 'created' | 'running' | 'exited';
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  stdout: string[];
}

export interface StoredImage {
  ref: string;
  id: string;
  repoDigest: string;
  sizeBytes: number;
}

export type PullResult = { ok: true; image: StoredImage; pullMs: number; totalMs: number } | { ok: false; error: string };

/** A stable 64-hex digest of a string (FNV-1a lanes), for image IDs and digests. */
export function stableDigest(s: string): string {
  let out = '';
  for (let lane = 0; lane < 8; lane++) {
    let h = (0x811c9dc5 ^ (lane * 0x9e3779b9)) >>> 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

export class ContainerRuntime {
  private images = new Map<string, StoredImage>();
  private imagesChanged = 0;
  private sandboxes = new Map<string, Sandbox>();
  private containers = new Map<string, RuntimeContainer>();
  private exitTimers = new Map<string, ReturnType<OwnedTimers['set']>>();
  private ipsInUse = new Set<number>();
  private nextHost = 2;
  private pullQueue: (() => void)[] = [];
  private pulling = false;
  readonly participant: string;

  constructor(
    private readonly ctx: ComponentContext,
    readonly nodeName: string,
    private readonly timers: OwnedTimers,
    /** "10.244.N" — the first three octets of the node's podCIDR. */
    private readonly podNet: () => string,
  ) {
    this.participant = `containerd/${nodeName}`;
  }

  private get kubelet(): string {
    return `kubelet/${this.nodeName}`;
  }

  private hop(verb: string, pod: PodRef | null, summary: string): number {
    return this.ctx.relay.record({
      from: this.kubelet,
      to: this.participant,
      kind: 'request',
      verb,
      resource: 'pods',
      namespace: pod?.namespace ?? null,
      name: pod?.name,
      summary,
    });
  }

  private reply(verb: string, pod: PodRef | null, summary: string, cause: number): void {
    this.ctx.relay.record({
      from: this.participant,
      to: this.kubelet,
      kind: 'response',
      verb,
      resource: 'pods',
      namespace: pod?.namespace ?? null,
      name: pod?.name,
      summary,
      cause,
    });
  }

  private newId(): string {
    let s = '';
    for (let i = 0; i < 8; i++) s += this.ctx.rng.uint32().toString(16).padStart(8, '0');
    return s;
  }

  // ---- images (ImageService) ---------------------------------------------------------

  /** ImageService.ImageStatus: the stored image for a reference, if present. */
  imageStatus(image: string): StoredImage | undefined {
    return this.images.get(ImageRegistry.normalize(image));
  }

  /** Called just before the stored images change (the kubelet's lazy status sync writes what it skipped, then wakes up). */
  onImagesChanged: (() => void) | null = null;

  /** A count of changes to the stored images: {@link listImages} is the same while it is. */
  get imagesVersion(): number {
    return this.imagesChanged;
  }

  /** Images on disk, largest first (node.status.images, capped at 50 as the kubelet does). */
  listImages(): StoredImage[] {
    return [...this.images.values()].sort((a, b) => b.sizeBytes - a.sizeBytes || (a.ref < b.ref ? -1 : 1)).slice(0, 50);
  }

  /**
   * ImageService.PullImage, serialized per node. `cb` gets the stored image, the pull time
   * and the time including waiting in the queue, or containerd's error text.
   */
  pullImage(image: string, pod: PodRef, cb: (r: PullResult) => void): void {
    const queuedAt = this.ctx.clock.now();
    const run = () => {
      const t = this.ctx.timings;
      const ref = ImageRegistry.normalize(image);
      const cause = this.hop('PullImage', pod, `PullImage ${image}`);
      const exists = this.ctx.images.exists(image);
      const have = this.images.get(ref);
      const ms = Math.round(
        !exists || have
          ? this.ctx.rng.jitter(t.imagePullBaseMs, 0.3)
          : this.ctx.rng.jitter(t.imagePullBaseMs + this.ctx.images.sizeMiB(image) * t.imagePullMsPerMiB, 0.2),
      );
      this.timers.set(
        ms,
        () => {
          this.ctx.relay.withCause(cause, () => {
            let r: PullResult;
            if (!exists) {
              r = {
                ok: false,
                error: `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`,
              };
              this.reply('PullImage', pod, `NotFound ${ref}`, cause);
            } else {
              const stored = have ?? this.store(image);
              r = { ok: true, image: stored, pullMs: ms, totalMs: this.ctx.clock.now() - queuedAt };
              this.reply('PullImage', pod, `image ${stored.ref} (sha256:${stored.id.slice(0, 12)})`, cause);
            }
            this.pulling = false;
            const next = this.pullQueue.shift();
            if (next) next();
            cb(r);
          });
        },
        { label: `containerd/${this.nodeName}: pull ${image}` },
      );
    };
    if (this.pulling) this.pullQueue.push(run);
    else {
      this.pulling = true;
      run();
    }
  }

  private store(image: string): StoredImage {
    const ref = ImageRegistry.normalize(image);
    const mib = this.ctx.images.sizeMiB(image);
    const d = stableDigest(ref);
    const img: StoredImage = {
      ref,
      id: stableDigest('id:' + ref),
      repoDigest: `${ref.replace(/[:@][^/]*$/, '')}@sha256:${d}`,
      sizeBytes: Math.round(mib * 1048576) + (parseInt(d.slice(0, 5), 16) % 1048576),
    };
    this.onImagesChanged?.();
    this.images.set(ref, img);
    this.imagesChanged++;
    return img;
  }

  // ---- sandboxes and containers (RuntimeService) -------------------------------------

  /** RuntimeService.RunPodSandbox: pause container + CNI ADD → a new Pod IP. */
  runPodSandbox(pod: PodRef, cb: (s: Sandbox) => void): void {
    const cause = this.hop('RunPodSandbox', pod, `RunPodSandbox ${pod.namespace}/${pod.name}`);
    const ms = Math.round(this.ctx.rng.jitter(this.ctx.timings.sandboxCreateMs, 0.25));
    this.timers.set(ms, () => {
      const s: Sandbox = { id: this.newId(), podUID: pod.uid, ip: this.allocateIP(), ready: true };
      this.sandboxes.set(s.id, s);
      this.reply('RunPodSandbox', pod, `sandbox ${s.id.slice(0, 13)} ready, IP ${s.ip}`, cause);
      cb(s);
    });
  }

  /** RuntimeService.StopPodSandbox + RemovePodSandbox: frees the Pod IP. */
  stopPodSandbox(sandboxId: string, pod: PodRef): void {
    const s = this.sandboxes.get(sandboxId);
    if (!s) return;
    const cause = this.hop('StopPodSandbox', pod, `StopPodSandbox ${sandboxId.slice(0, 13)}`);
    this.sandboxes.delete(sandboxId);
    this.ipsInUse.delete(Number(s.ip.split('.')[3]));
    this.reply('StopPodSandbox', pod, `sandbox stopped, IP ${s.ip} released`, cause);
  }

  private allocateIP(): string {
    for (let i = 0; i < 253; i++) {
      const host = ((this.nextHost - 2 + i) % 253) + 2;
      if (!this.ipsInUse.has(host)) {
        this.ipsInUse.add(host);
        this.nextHost = host + 1 > 254 ? 2 : host + 1;
        return `${this.podNet()}.${host}`;
      }
    }
    throw new Error('no IP addresses available in range set');
  }

  /** RuntimeService.CreateContainer. */
  createContainer(sandbox: Sandbox, pod: PodRef, name: string, image: StoredImage, cb: (c: RuntimeContainer) => void): void {
    const cause = this.hop('CreateContainer', pod, `CreateContainer ${name} (${image.ref})`);
    const ms = Math.round(this.ctx.rng.jitter(this.ctx.timings.containerStartMs * 0.6, 0.25));
    this.timers.set(ms, () => {
      const c: RuntimeContainer = {
        id: this.newId(),
        podUID: pod.uid,
        name,
        sandboxId: sandbox.id,
        image: image.ref,
        imageID: image.repoDigest,
        state: 'created',
        stdout: [],
      };
      this.containers.set(c.id, c);
      this.reply('CreateContainer', pod, `container ${c.id.slice(0, 13)} created`, cause);
      cb(c);
    });
  }

  /**
   * RuntimeService.StartContainer: the process runs on the simulated clock (each sleep a
   * timer; sleeps outside loops are deadlines); `onExit` fires when it exits by itself (not
   * when stopped — {@link stopContainer} reports that).
   */
  startContainer(id: string, pod: PodRef, proc: ContainerProcess, cb: () => void, onExit: (c: RuntimeContainer) => void): void {
    const cause = this.hop('StartContainer', pod, `StartContainer ${id.slice(0, 13)}`);
    const ms = Math.round(this.ctx.rng.jitter(this.ctx.timings.containerStartMs * 0.4, 0.25));
    this.timers.set(ms, () => {
      const c = this.containers.get(id);
      if (!c) return;
      c.state = 'running';
      c.startedAt = this.ctx.clock.now();
      this.reply('StartContainer', pod, `container ${c.name} running`, cause);
      cb();
      const advance = (): void => {
        if (c.state !== 'running' || this.containers.get(id) !== c) return;
        const s = proc.step();
        if (s.kind === 'exited') {
          this.exitTimers.set(
            id,
            this.timers.set(
              0,
              () => {
                this.exitTimers.delete(id);
                this.exit(c, s.exitCode);
                onExit(c);
              },
              {
                label: `container ${pod.namespace}/${pod.name}/${c.name} exits`,
                deadline: true,
                object: `Pod/${pod.namespace}/${pod.name}`,
              },
            ),
          );
        } else if (s.kind === 'sleeping') {
          this.exitTimers.set(
            id,
            this.timers.set(
              s.ms,
              () => {
                this.exitTimers.delete(id);
                advance();
              },
              s.inLoop
                ? { label: `container ${pod.namespace}/${pod.name}/${c.name} loops` }
                : {
                    label: `container ${pod.namespace}/${pod.name}/${c.name} sleeps`,
                    deadline: true,
                    object: `Pod/${pod.namespace}/${pod.name}`,
                  },
            ),
          );
        }
      };
      advance();
    });
  }

  private exit(c: RuntimeContainer, code: number): void {
    c.state = 'exited';
    c.exitCode = code;
    c.reason = code === 0 ? 'Completed' : 'Error';
    c.finishedAt = this.ctx.clock.now();
  }

  /**
   * RuntimeService.StopContainer: SIGTERM, then SIGKILL after `graceMs`. A process with a
   * SIGTERM handler exits within 0–1 s (code 0); PID-1 `sh`/`sleep` ignore SIGTERM and are
   * killed at the deadline (137).
   */
  stopContainer(id: string, pod: PodRef, graceMs: number, ignoresSigterm: boolean, cb: (c: RuntimeContainer) => void): void {
    const c = this.containers.get(id);
    if (!c) return;
    const cause = this.hop('StopContainer', pod, `StopContainer ${c.name} (timeout ${Math.round(graceMs / 1000)}s)`);
    this.timers.cancel(this.exitTimers.get(id));
    this.exitTimers.delete(id);
    if (c.state !== 'running') {
      this.reply('StopContainer', pod, `container ${c.name} already exited`, cause);
      cb(c);
      return;
    }
    const ms = ignoresSigterm ? graceMs : Math.min(graceMs, Math.round(this.ctx.rng.float() * 1000));
    this.timers.set(
      ms,
      () => {
        this.exit(c, ignoresSigterm ? 137 : 0);
        this.reply('StopContainer', pod, `container ${c.name} exited (${c.exitCode})`, cause);
        cb(c);
      },
      { label: `stop ${pod.namespace}/${pod.name}/${c.name}`, deadline: true, object: `Pod/${pod.namespace}/${pod.name}` },
    );
  }

  /** RuntimeService.RemoveContainer. */
  removeContainer(id: string): void {
    this.timers.cancel(this.exitTimers.get(id));
    this.exitTimers.delete(id);
    this.containers.delete(id);
  }

  container(id: string): RuntimeContainer | undefined {
    return this.containers.get(id);
  }

  sandbox(id: string): Sandbox | undefined {
    return this.sandboxes.get(id);
  }

  /** Number of containers in state running (tests, UI). */
  runningCount(): number {
    let n = 0;
    for (const c of this.containers.values()) if (c.state === 'running') n++;
    return n;
  }

  /** Power loss: every sandbox, container and in-flight pull is gone; images stay on disk. */
  wipe(): void {
    this.sandboxes.clear();
    this.containers.clear();
    this.exitTimers.clear();
    this.ipsInUse.clear();
    this.pullQueue = [];
    this.pulling = false;
  }
}
