/**
 * Containers run the `docker run` way, outside Kubernetes (the seed's §1, "declarative vs
 * imperative"): `docker run -d --restart=always --name web nginx` on one machine.
 *
 * No API object stands for such a container, the kubelet does not manage it and no
 * controller watches it: the machine's own container engine (dockerd) keeps it, and its
 * restart policy is the only loop. Behaviour follows moby's daemon:
 * - moby daemon/restartmanager/restartmanager.go and daemon/daemon.go `restore()`: when the
 *   machine boots, dockerd starts again the containers whose policy is `always` (and
 *   `unless-stopped`); containers with `no` or `on-failure` stay Exited.
 * - A container on a machine that loses power is gone with it (state "lost" here: the
 *   process is not running anywhere) and nobody recreates it on another machine.
 * - moby daemon/names.go: a second container with the same name on one engine is refused
 *   with `Conflict. The container name "/web" is already in use by container "<id>". …`.
 *
 * Pure: the clock, the seeded RNG, the relay and the image registry are injected.
 */
import type { RelayRecorder } from '../relay/recorder';
import type { Rng } from '../sim/rng';
import type { ImageRegistry } from '../sim/image-registry';
import { parseImageRef } from '../sim/image-registry';

/** docker run's `--restart` policies (moby api/types/container RestartPolicyMode). */
export type RestartPolicy = 'no' | 'always' | 'unless-stopped' | 'on-failure';
export const RESTART_POLICIES: readonly RestartPolicy[] = ['no', 'always', 'unless-stopped', 'on-failure'];

/**
 * `running` — the process runs on its machine; `lost` — its machine is off or gone, so it
 * runs nowhere; `exited` — the machine came back but the policy did not restart it.
 */
export type StandaloneState = 'running' | 'lost' | 'exited';

/** One container started with `docker run` (plain JSON; the worker sends it to the UI). */
export interface StandaloneContainer {
  /** 64 hex digits, as `docker run -d` prints it. */
  id: string;
  name: string;
  /** The machine (node name) whose engine runs it. */
  node: string;
  image: string;
  restart: RestartPolicy;
  state: StandaloneState;
  /** Times dockerd started it again after a reboot. */
  restartCount: number;
  /** Simulated ms since the epoch. */
  createdAt: number;
  /** When its process last started (simulated ms since the epoch). */
  startedAt: number;
  /** When it stopped (machine off), or null while running. */
  stoppedAt: number | null;
  /** Exit code shown by `docker ps -a` once exited (255: killed by the power loss). */
  exitCode: number | null;
}

/** What `docker run` asks for. */
export interface DockerRunSpec {
  node: string;
  /** Container name; without one dockerd picks a random one (here: from the seeded RNG). */
  name?: string;
  image: string;
  restart?: RestartPolicy;
}

/** An error as the docker CLI prints it (`docker: Error response from daemon: …`). */
export class DockerError extends Error {}

const ADJECTIVES = ['admiring', 'bold', 'brave', 'eager', 'focused', 'gallant', 'happy', 'keen', 'nifty', 'quirky'];
const SCIENTISTS = ['curie', 'hopper', 'lovelace', 'turing', 'noether', 'ritchie', 'shannon', 'torvalds', 'wozniak', 'yalow'];

/**
 * The docker engines of all machines. `powered(node)` says whether a machine is on;
 * {@link machinePowered} / {@link machineRemoved} are called by the machine controller.
 */
export class StandaloneContainers {
  private readonly containers: StandaloneContainer[] = [];
  /** Increments on every change (the worker sends the list when it moved). */
  version = 0;

  constructor(
    private readonly deps: {
      now(): number;
      rng: Rng;
      relay: RelayRecorder;
      images: ImageRegistry;
      powered(node: string): boolean | undefined;
    },
  ) {}

  /**
   * `docker run -d`: creates and starts a container on `spec.node`'s engine.
   * @returns the new container (its `id` is what `docker run -d` prints)
   * @throws DockerError with the docker CLI's message (machine off, name taken, image missing)
   */
  run(spec: DockerRunSpec): StandaloneContainer {
    const node = spec.node;
    const powered = this.deps.powered(node);
    if (powered === undefined)
      throw new DockerError(`error during connect: ssh: Could not resolve hostname ${node}: Name or service not known`);
    if (!powered) throw new DockerError(`error during connect: ssh: connect to host ${node} port 22: No route to host`);
    const restart = spec.restart ?? 'no';
    if (!RESTART_POLICIES.includes(restart)) throw new DockerError(`docker: invalid restart policy '${String(restart)}'`);
    const ref = parseImageRef(spec.image);
    if (!ref) throw new DockerError(`docker: invalid reference format.`);
    if (!this.deps.images.exists(spec.image)) {
      throw new DockerError(
        `Unable to find image '${spec.image}' locally\ndocker: Error response from daemon: manifest for ${spec.image} not found: manifest unknown: manifest unknown.`,
      );
    }
    const name = spec.name ?? this.randomName(node);
    const taken = this.containers.find((c) => c.node === node && c.name === name);
    if (taken) {
      throw new DockerError(
        `docker: Error response from daemon: Conflict. The container name "/${name}" is already in use by container "${taken.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      );
    }
    const now = this.deps.now();
    const c: StandaloneContainer = {
      id: this.randomId(),
      name,
      node,
      image: spec.image,
      restart,
      state: 'running',
      restartCount: 0,
      createdAt: now,
      startedAt: now,
      stoppedAt: null,
      exitCode: null,
    };
    this.containers.push(c);
    this.version++;
    this.deps.relay.record({
      from: 'docker',
      to: `containerd/${node}`,
      kind: 'request',
      verb: 'run',
      name,
      summary: `docker run -d --restart=${restart} --name ${name} ${spec.image} (no API object: the kubelet and the controllers never see it)`,
    });
    return { ...c };
  }

  /** Whether `node`'s machine is on (undefined: no such machine). */
  powered(node: string): boolean | undefined {
    return this.deps.powered(node);
  }

  /** Every container, on every machine (copies), in creation order. */
  list(node?: string): StandaloneContainer[] {
    return this.containers.filter((c) => node === undefined || c.node === node).map((c) => ({ ...c }));
  }

  /**
   * The machine `node` lost or regained power. Off: its containers stop (lost). On: dockerd
   * starts those whose policy says so (`always`, `unless-stopped`); the rest stay Exited (255).
   */
  machinePowered(node: string, on: boolean): void {
    const now = this.deps.now();
    for (const c of this.containers) {
      if (c.node !== node) continue;
      if (!on && c.state === 'running') {
        c.state = 'lost';
        c.stoppedAt = now;
        c.exitCode = 255;
        this.version++;
        this.deps.relay.record({
          from: `containerd/${node}`,
          to: `containerd/${node}`,
          kind: 'note',
          name: c.name,
          summary: `container ${c.name} (docker run) died with machine ${node}: no controller knows it, nobody recreates it elsewhere`,
        });
      } else if (on && c.state === 'lost') {
        if (c.restart === 'always' || c.restart === 'unless-stopped') {
          c.state = 'running';
          c.startedAt = now;
          c.stoppedAt = null;
          c.exitCode = null;
          c.restartCount++;
          this.deps.relay.record({
            from: `containerd/${node}`,
            to: `containerd/${node}`,
            kind: 'note',
            name: c.name,
            summary: `dockerd restarts container ${c.name} on ${node} (--restart=${c.restart}): same machine only`,
          });
        } else {
          c.state = 'exited';
        }
        this.version++;
      }
    }
  }

  /** The machine is decommissioned: its containers are gone for good (stay `lost`). */
  machineRemoved(node: string): void {
    this.machinePowered(node, false);
  }

  private randomId(): string {
    let s = '';
    for (let i = 0; i < 8; i++) s += this.deps.rng.uint32().toString(16).padStart(8, '0');
    return s;
  }

  /** moby pkg/namesgenerator: adjective_surname. */
  private randomName(node: string): string {
    const free = (n: string) => !this.containers.some((c) => c.node === node && c.name === n);
    const n = `${ADJECTIVES[this.deps.rng.intn(ADJECTIVES.length)]}_${SCIENTISTS[this.deps.rng.intn(SCIENTISTS.length)]}`;
    // namesgenerator retries with a digit appended
    let i = 0;
    while (!free(i ? `${n}${i}` : n)) i++;
    return i ? `${n}${i}` : n;
  }
}
