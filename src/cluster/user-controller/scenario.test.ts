import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parseScenarioText } from '../scenario/text';
import { runScenario } from '../scenario/runner';
import { parseScenario } from '../scenario/scenario';
import { runnerIO } from '../../cli/scenario-files';

const file = fileURLToPath(new URL('../../scenarios/website-operator.scenario.yaml', import.meta.url));

describe('the controller scenario step (headless)', () => {
  it('runs src/scenarios/website-operator.scenario.yaml: owned objects appear with owner references, then go with the Website', () => {
    const r = runScenario(parseScenarioText(readFileSync(file, 'utf8')), runnerIO(file));
    expect(r.steps.map((s) => [s.step, s.error ?? null, s.target ?? null])).toEqual([
      ['applyFile', null, null],
      ['advance', null, null],
      ['controller', null, 'website-controller'],
      ['applyFile', null, null],
      ['settle', null, null],
      ['snapshot', null, null],
      ['kubectl', null, null],
      ['settle', null, null],
    ]);
    const snap = r.snapshots[0].objects;
    const site = snap.find((o) => o.kind === 'Website')!;
    expect(site.status.readyReplicas).toBe(2);
    const owned = snap
      .filter((o) => o.metadata.ownerReferences?.some((ref) => ref.uid === site.metadata.uid))
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(owned).toEqual(['Deployment/blog', 'Service/blog']);
    expect(
      r.final.objects.filter((o) => ['Website', 'Deployment', 'ReplicaSet', 'Pod'].includes(o.kind) && o.metadata.namespace === 'default'),
    ).toEqual([]);
    expect(
      r.relay.some(
        (h) => h.from === 'website-controller' && h.to === 'kube-apiserver' && h.verb === 'create' && h.resource === 'deployments',
      ),
    ).toBe(true);
  });

  it.each([
    {
      name: 'no source or file',
      step: { controller: { name: 'c' } },
      error: 'steps[0] (controller): give exactly one of source (the code) and file (a path relative to the scenario file)',
    },
    {
      name: 'both',
      step: { controller: { name: 'c', source: 'x', file: 'y' } },
      error: 'steps[0] (controller): give exactly one of source (the code) and file (a path relative to the scenario file)',
    },
    {
      name: 'a bad name',
      step: { controller: { name: 'Web_Ctl', source: 'x' } },
      error: 'steps[0] (controller): name: Invalid value: "Web_Ctl"',
    },
    {
      name: 'owns not a list',
      step: { controller: { name: 'c', source: 'x', owns: 'deployments' } },
      error: 'steps[0] (controller): owns must be a list of kinds such as deployments.apps',
    },
    { name: 'an unknown field', step: { controller: { name: 'c', source: 'x', image: 'y' } }, error: 'steps[0] (controller)' },
    {
      name: 'stopController without a name',
      step: { stopController: '' },
      error: 'steps[0] (stopController): the controller name must be a non-empty string',
    },
  ])('rejects $name', ({ step, error }) => {
    expect(() => parseScenario({ steps: [step] })).toThrow(error);
  });
});
