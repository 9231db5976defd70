/**
 * Tours on the live cluster (script.ts through ClusterHost): actions run at once, time steps
 * wait on the (fake) wall clock, progress and docker containers come in the batches, and the
 * session log replays the same cluster.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { TICK_MS } from './cluster-api';
import type { Step } from './protocol';
import { testHost } from './test-host';

const setup = () => testHost({ wallStep: TICK_MS });

const TOUR: Step[] = [
  { kind: 'dockerRun', run: { node: 'node-1', name: 'web', image: 'nginx', restart: 'always' } },
  { kind: 'advance', ms: 10_000 },
  { kind: 'killNode', node: 'node-1' },
  { kind: 'advance', ms: 5_000 },
];

describe('runScenarioSteps on the live cluster', () => {
  it('runs actions at once, waits on the clock for time steps, and reports progress in the batches', () => {
    const { host, run, last } = setup();
    host.setSpeed(10);
    const t0 = last().simMs;
    host.runScenarioSteps(TOUR);
    // dockerRun ran; the advance waits (killNode, advance still queued)
    expect(last().script).toEqual({ pending: 3, waitingUntil: DEFAULT_START_MS + t0 + 10_000, enqueued: 1 });
    expect(last().standalone?.map((c) => [c.name, c.node, c.state])).toEqual([['web', 'node-1', 'running']]);
    run(500); // 500 wall ms × 10 = 5 s simulated
    expect(last().script?.pending).toBe(3);
    run(600);
    expect(last().script?.pending).toBe(1);
    run(600);
    expect(last().script).toEqual({ pending: 0, waitingUntil: null, enqueued: 1 });
    expect(host.standaloneContainers().map((c) => c.state)).toEqual(['lost']);
    // the killNode ran exactly when the first wait ended
    const log = host.exportState().steps;
    expect(log.map((e) => [e.step.kind, e.at - DEFAULT_START_MS - t0])).toEqual([
      ['dockerRun', 0],
      ['killNode', 10_000],
    ]);
  });

  it('finishScenarioSteps fast-forwards the rest, recording the time steps it ran', () => {
    const { host, last } = setup();
    const t0 = last().simMs;
    host.runScenarioSteps(TOUR);
    host.finishScenarioSteps();
    expect(last().script?.pending).toBe(0);
    expect(last().simMs - t0).toBe(15_000);
    expect(host.exportState().steps.map((e) => e.step.kind)).toEqual(['dockerRun', 'advance', 'killNode', 'advance']);
  });

  it('a session with tour steps and a docker line replays to the same containers and time', () => {
    const a = setup();
    a.host.runScenarioSteps(TOUR);
    a.host.finishScenarioSteps();
    expect(a.host.kubectl('docker -H ssh://node-2 run -d --name db redis').exitCode).toBe(0);
    const log = a.host.exportState();
    const b = setup();
    b.host.importState(log);
    expect(b.host.standaloneContainers()).toEqual(a.host.standaloneContainers());
    expect(b.host.exportState().now).toBe(log.now);
  });

  it('cancelScenarioSteps drops what is queued', () => {
    const { host, run, last } = setup();
    host.runScenarioSteps(TOUR);
    host.cancelScenarioSteps();
    run(2_000);
    expect(last().script).toEqual({ pending: 0, waitingUntil: null, enqueued: 1 });
    expect(host.standaloneContainers().map((c) => c.state)).toEqual(['running']);
  });
});
