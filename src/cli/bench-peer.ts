/**
 * The peer benchmark (docs/benchmarks.md#the-peer-ratio): the same Deployments on @ngrok/webernetes 0.3.5
 * (Apache-2.0), a browser Kubernetes simulator that runs at wall speed.
 *
 * How it runs in Node: the package's `dist/` is compiled with bundler resolution
 * (extension-less relative imports such as `./runtime`), which Node's ESM loader refuses
 * (ERR_UNSUPPORTED_DIR_IMPORT / ERR_MODULE_NOT_FOUND). The package also ships its TypeScript
 * `src/`, which tsx loads with TypeScript's resolution, so the bench imports
 * `node_modules/@ngrok/webernetes/src/index.ts` by path. The import is dynamic and typed
 * locally below, so `tsc -b` does not type-check the peer's sources under our settings.
 *
 * Each case: a fresh `Cluster({nodes})`, `init()` (excluded from the figures), then one
 * Deployment applied; the case ends when `want` Pods report `status.phase: Running` through
 * the peer's own informer, or at the time limit (then `pods` is the partial count and
 * `error` says so). wallMs / cpuMs cover apply → all Running only.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One peer case as written to bench/results.json `peer` (docs/benchmarks.md#results-file). */
export interface PeerResult {
  name: string;
  nodes: number;
  /** Pods that reached phase Running within the limit. */
  pods: number;
  wallMs: number;
  cpuMs: number;
  /** Set when the case did not finish (time limit, or the peer failed to load or run). */
  error?: string;
}

/** The subset of the webernetes API the bench uses (its Cluster, BaseImage, informer). */
interface PeerCluster {
  registerImage(image: unknown): void;
  init(): Promise<void>;
  apply(resources: readonly unknown[]): Promise<unknown>;
  informer(resource: 'pods', cb: (type: 'add' | 'update' | 'delete', obj: PeerPod) => void): { stop(): Promise<void> | void };
  close(): Promise<void>;
}
interface PeerPod {
  metadata?: { name?: string };
  status?: { phase?: string };
}
interface PeerModule {
  Cluster: new (opts: { nodes?: number }) => PeerCluster;
  BaseImage: new () => { exec(ctx: unknown, argv: readonly string[]): Promise<number> };
}

const PEER_SRC = resolve('node_modules/@ngrok/webernetes/src/index.ts');

/**
 * Loads the peer's TypeScript sources through tsx's scoped loader (tsImport), so it loads the
 * same whether the bench runs under tsx or as the plain-node bundle (vite.cli.config.ts).
 */
async function loadPeer(): Promise<PeerModule> {
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(pathToFileURL(PEER_SRC).href, import.meta.url)) as PeerModule;
}

/** An `nginx:1.27` image for the peer: a process that serves until killed. */
function nginxImage(mod: PeerModule): unknown {
  class Nginx extends mod.BaseImage {
    static readonly imageName = 'nginx';
    static readonly imageVersion = '1.27';
    readonly defaultCommand = ['server'];
    override async exec(ctx: unknown, argv: readonly string[]): Promise<number> {
      if (argv[0] !== 'server') return await super.exec(ctx, argv);
      return await (ctx as { waitUntilKilled(): Promise<number> }).waitUntilKilled();
    }
  }
  return Nginx;
}

function deployment(name: string, replicas: number): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    },
  };
}

/**
 * Runs one peer case: `replicas` Pods of one Deployment on `nodes` nodes, bounded by
 * `limitMs` of wall time.
 */
export async function runPeerCase(mod: PeerModule, name: string, nodes: number, replicas: number, limitMs: number): Promise<PeerResult> {
  const cluster = new mod.Cluster({ nodes });
  cluster.registerImage(nginxImage(mod));
  await cluster.init();
  const running = new Set<string>();
  let done: () => void = () => {};
  const allRunning = new Promise<void>((res) => (done = res));
  const informer = cluster.informer('pods', (type, pod) => {
    const n = pod.metadata?.name ?? '';
    if (type !== 'delete' && pod.status?.phase === 'Running') running.add(n);
    else running.delete(n);
    if (running.size >= replicas) done();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), limitMs)));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await cluster.apply([deployment('web', replicas)]);
  const outcome = await Promise.race([allRunning.then(() => 'ok' as const), timedOut]);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearTimeout(timer);
  await informer.stop();
  await cluster.close();
  const r: PeerResult = {
    name,
    nodes,
    pods: Math.min(running.size, replicas),
    wallMs: Math.round(wallMs * 10) / 10,
    cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10,
  };
  if (outcome === 'timeout') r.error = `time limit: ${running.size} of ${replicas} Pods Running after ${limitMs / 1000} s of wall time`;
  return r;
}

/** The three peer cases of docs/benchmarks.md; a load failure is reported per case. */
export async function runPeer(limitMs = 240_000): Promise<PeerResult[]> {
  const plan: [string, number, number][] = [
    ['webernetes-seed-3-replicas', 3, 3],
    ['webernetes-pods-30-nodes-30', 30, 30],
    ['webernetes-pods-300-nodes-30', 30, 300],
  ];
  let mod: PeerModule;
  try {
    mod = await loadPeer();
  } catch (e) {
    const error = `cannot load @ngrok/webernetes from ${PEER_SRC}: ${(e as Error).message}`;
    return plan.map(([name, nodes]) => ({ name, nodes, pods: 0, wallMs: 0, cpuMs: 0, error }));
  }
  const out: PeerResult[] = [];
  for (const [name, nodes, replicas] of plan) {
    try {
      out.push(await runPeerCase(mod, name, nodes, replicas, limitMs));
    } catch (e) {
      out.push({ name, nodes, pods: 0, wallMs: 0, cpuMs: 0, error: (e as Error).stack?.split('\n').slice(0, 2).join(' ') ?? String(e) });
    }
    const last = out[out.length - 1];
    process.stdout.write(
      `${last.name.padEnd(30)} ${String(nodes).padStart(5)} nodes ${String(last.pods).padStart(5)} pods ${String(last.wallMs).padStart(10)} ms wall ${String(last.cpuMs).padStart(10)} ms cpu${last.error ? `  (${last.error})` : ''}\n`,
    );
  }
  return out;
}

/**
 * Marginal CPU per Pod: (CPU at 300 Pods − CPU at 30 Pods) / 270, on 30 nodes (docs/benchmarks.md#the-peer-ratio).
 * Undefined when either run is missing or incomplete.
 */
export function marginalCpuPerPod(
  at30: { cpuMs: number; pods: number } | undefined,
  at300: { cpuMs: number; pods: number } | undefined,
): number | undefined {
  if (!at30 || !at300 || at30.pods < 30 || at300.pods < 300) return undefined;
  return (at300.cpuMs - at30.cpuMs) / 270;
}
