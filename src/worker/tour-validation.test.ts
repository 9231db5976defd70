/**
 * Tours loaded in the UI are parsed by the worker (ClusterHost.parseTour) with the headless
 * runner's parseScenario, so they get the same validation and the same messages as
 * `npm run scenario` (issue 21): checked before any step runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { testHost } from './test-host';
import { parseScenarioText } from '../cluster/scenario/text';

describe('ClusterHost.parseTour validates as the headless runner does', () => {
  const { host } = testHost();
  afterAll(() => host.dispose());

  it.each([
    ['an invalid node name', 'cluster: {nodes: [{name: Node_1}]}\nsteps: []\n'],
    ['a bad node capacity', 'cluster: {nodes: [{name: n1, capacity: {cpu: lots}}]}\nsteps: []\n'],
    ['an addNode with an invalid name', 'steps:\n  - addNode: {name: Node_1}\n'],
    ['an advance past the simulated-time limit', 'steps:\n  - advance: 2000000h\n'],
    ['a misspelt settle field', 'steps:\n  - settle: {for: 5m, quite: 30s}\n'],
    ['a killNode of a node not in the scenario', 'steps:\n  - killNode: node-9\n'],
  ])('%s', (_name, text) => {
    let headless = '';
    try {
      parseScenarioText(text);
    } catch (e) {
      headless = (e as Error).message;
    }
    expect(headless).toMatch(/^(cluster|steps)/);
    expect(() => host.parseTour(text)).toThrow(new Error(headless));
  });

  it('a valid tour still parses, with its title', () => {
    const t = host.parseTour('name: t\ntitle: {en: T, ko: T}\nsteps:\n  - advance: 1s\n');
    expect([t.title, t.scenario.steps]).toEqual([{ en: 'T', ko: 'T' }, [{ kind: 'advance', ms: 1000 }]]);
  });
});
