/**
 * Plays a scenario (scenario.ts) on a fresh {@link Cluster} in fast-forward and collects
 * the JSON result of docs/scenario-format.md: per-step results, snapshots, the final state and the
 * relay. File access (applyFile, applyKustomize) is injected, so this stays pure.
 */
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import type { RelayHop } from '../relay/relay-event';
import type { Scenario, Step } from './scenario';
import type { StandaloneContainer } from '../docker/standalone';
import type { ControlPlaneInstanceView } from '../control-plane';
import { playContext, playStep, standalone, type RunnerIO, type Snapshot, type StepResult } from './play';

export type { RunnerIO, Snapshot, StepResult } from './play';
export type { StandaloneContainer };

export const KUBERNETES_VERSION = 'v1.33';

/** A relay hop as the JSON output carries it (time as RFC 3339 with milliseconds). */
export type RelayHopOut = Omit<RelayHop, 'time'> & { time: string };

export interface ScenarioResult {
  kubernetesVersion: string;
  name: string;
  steps: StepResult[];
  snapshots: Snapshot[];
  /** `standaloneContainers`: containers started by dockerRun steps (outside Kubernetes), when any. */
  final: {
    time: string;
    objects: KObject[];
    events: KObject[];
    standaloneContainers?: StandaloneContainer[];
    controlPlane: ControlPlaneInstanceView[];
  };
  relay: RelayHopOut[];
}

const isoMs = (ms: number) => new Date(ms).toISOString();
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/**
 * Runs one step through the shared player (play.ts `playStep`) with a context of its own: a
 * step after an `actAs` must share the context instead (runScenario does).
 */
export function runStep(cluster: Cluster, step: Step, index: number, io: RunnerIO, snapshots: Snapshot[]): StepResult {
  return playStep(cluster, step, index, playContext(io, snapshots)).result;
}

/** Plays a whole scenario on a new cluster and returns the result. */
export function runScenario(sc: Scenario, io: RunnerIO): ScenarioResult {
  const cluster = new Cluster({
    seed: sc.cluster.seed,
    nodes: sc.cluster.nodes,
    images: sc.cluster.images,
    controlPlane: sc.cluster.controlPlane,
    relayCapacity: 1_000_000,
    controllerSandbox: io.controllerSandbox,
  });
  const ctx = playContext(io);
  const steps = sc.steps.map((s, i) => playStep(cluster, s, i, ctx).result);
  const snapshots = ctx.snapshots;
  return {
    kubernetesVersion: KUBERNETES_VERSION,
    name: sc.name,
    steps,
    snapshots,
    final: {
      time: iso(cluster.now()),
      objects: cluster.objects(),
      events: cluster.events(),
      ...standalone(cluster),
      controlPlane: cluster.controlPlane.view(),
    },
    relay: cluster.relay.all().map((h) => ({ ...h, time: isoMs(h.time) })),
  };
}
