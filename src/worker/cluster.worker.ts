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

const resourceByKind = new Map<string, string>();
for (const r of BUILTIN_RESOURCES) {
  if (!resourceByKind.has(r.kind)) resourceByKind.set(r.kind, r.group ? `${r.resource}.${r.group}` : r.resource);
}

const host = new ClusterHost({
  createCluster: () => new Cluster({ seed: 1, nodes: 3 }),
  // the clock the user sees counts from the cluster's boot (30 s before the engine's time zero),
  // so that it agrees with the nodes' AGE and creationTimestamps (docs/time-model.md#boot-and-time-zero)
  startMs: DEFAULT_START_MS - BOOT_MS,
  describeRow,
  // kinds added by a CustomResourceDefinition (Machine…): the plural of the kind in its group
  resourceOf: (o: KObject) => resourceByKind.get(o.kind) ?? `${o.kind.toLowerCase()}s${o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : ''}`,
  wallNow: () => performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  // continuation slices (time-slice.ts): a zero timeout yields to the messages queued meanwhile
  setTimeout: (fn, ms) => setTimeout(fn, ms),
});

Comlink.expose(host);
