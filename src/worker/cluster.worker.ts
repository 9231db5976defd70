/**
 * The Web Worker that hosts the simulated cluster. The engine runs only here; the UI sees it
 * through comlink (protocol.ts) and the batches ClusterHost pushes once per tick.
 */
import * as Comlink from 'comlink';
import { BOOT_MS, Cluster } from '../cluster/cluster';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { BUILTIN_RESOURCES } from '../cluster/api/resources';
import { describeRow } from '../cluster/kubectl/printers';
import type { KObject } from '../cluster/api/types';
import { ClusterHost } from './cluster-api';
import { workerSandboxFactory, type SandboxPort } from './controller-sandbox';

// user controllers (docs/user-controllers.md): one Web Worker each, started from this worker
const controllerSandbox = workerSandboxFactory(
  (name) =>
    new Worker(new URL('./controller-sandbox.worker.ts', import.meta.url), {
      type: 'module',
      name: `controller ${name}`,
    }) as unknown as SandboxPort,
  { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
);

const resourceByKind = new Map<string, string>();
for (const r of BUILTIN_RESOURCES) {
  if (!resourceByKind.has(r.kind)) resourceByKind.set(r.kind, r.group ? `${r.resource}.${r.group}` : r.resource);
}

const host = new ClusterHost({
  // One clock: the cluster boots at 2026-01-01T00:00:00Z (its time zero, when the user can
  // act, is BOOT_MS later) and the toolbar counts from the boot (docs/ui-hooks.md: ms since the
  // cluster started; docs/time-model.md#boot-and-time-zero), so the toolbar, the nodes' AGE and every timestamp or time of day
  // (creationTimestamp, Events, relay notes) read the same simulated time.
  createCluster: (opts) =>
    new Cluster({
      seed: 1,
      nodes: 3,
      startMs: DEFAULT_START_MS + BOOT_MS,
      controllerSandbox,
      ...(opts ? { controlPlane: { replicas: opts.controlPlaneReplicas } } : {}),
    }),
  startMs: DEFAULT_START_MS,
  describeRow,
  // kinds added by a CustomResourceDefinition (Machine…): the plural of the kind in its group
  resourceOf: (o: KObject) =>
    resourceByKind.get(o.kind) ?? `${o.kind.toLowerCase()}s${o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : ''}`,
  wallNow: () => performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  // continuation slices (time-slice.ts): a zero timeout yields to the messages queued meanwhile
  setTimeout: (fn, ms) => setTimeout(fn, ms),
});

Comlink.expose(host);
