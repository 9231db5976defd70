/**
 * The simulated clock's epoch for `npm run apiserver` (src/cli/apiserver.ts): real kubectl
 * computes ages in `describe` ("Age: 5m", "Terminating (lasts 12s)") and `get -w` against the
 * wall clock, so the served cluster's simulated now is anchored at the wall-clock second the
 * server starts, instead of the engine's default 2026-01-01T00:00:00Z. The engine stays pure: it
 * only gets a `startMs` (ClusterOptions). Tests and goldens build their clusters themselves and
 * keep the default epoch.
 */
import type { Cluster } from '../cluster/cluster';

/** `wallNowMs` truncated to the whole second (ms since the Unix epoch). */
export function serverEpochMs(wallNowMs: number): number {
  return Math.floor(wallNowMs / 1000) * 1000;
}

/**
 * Builds the served cluster so that, once built, its simulated now is the whole second of
 * `wallNowMs`. `build(startMs)` must create a Cluster with that `startMs` and play whatever comes
 * first (a scenario's steps, in fast-forward); when it moves the clock, the cluster is built a
 * second time starting that much earlier (same seed and steps: the same elapsed time), so objects
 * created by the scenario have the ages they would have on a real cluster.
 */
export function buildAnchored(wallNowMs: number, build: (startMs: number) => Cluster): Cluster {
  const epoch = serverEpochMs(wallNowMs);
  const first = build(epoch);
  const elapsed = first.now() - epoch;
  return elapsed === 0 ? first : build(epoch - elapsed);
}
