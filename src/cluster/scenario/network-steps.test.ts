/** The scenario steps issue 5 adds: `request` and `setLoad` — parsing and its errors. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './scenario';

const one = (step: unknown) => parseScenario({ steps: [step] }).steps[0];

describe('scenario steps request and setLoad', () => {
  it.each([
    {
      name: 'external, count defaults to 1',
      step: { request: { url: 'http://shop.example.com/' } },
      want: { kind: 'request', from: { kind: 'external' }, url: 'http://shop.example.com/', count: 1 },
    },
    {
      name: 'from a named Pod',
      step: { request: { from: { pod: 'team/client' }, url: 'web', count: 5 } },
      want: { kind: 'request', from: { kind: 'pod', namespace: 'team', name: 'client' }, url: 'web', count: 5 },
    },
    {
      name: 'from a Pod without namespace',
      step: { request: { from: { pod: 'client' }, url: 'web' } },
      want: { kind: 'request', from: { kind: 'pod', namespace: 'default', name: 'client' }, url: 'web', count: 1 },
    },
    {
      name: 'from a selector',
      step: { request: { from: { selector: 'app=x', namespace: 'ns', index: 1 }, url: 'web' } },
      want: { kind: 'request', from: { kind: 'pick', pick: { selector: 'app=x', namespace: 'ns', index: 1 } }, url: 'web', count: 1 },
    },
    {
      name: 'setLoad in millicores',
      step: { setLoad: { namespace: 'ns', workload: 'deployment/web', cpu: '900m' } },
      want: { kind: 'setLoad', namespace: 'ns', workload: 'deployment/web', cpuMillicores: 900 },
    },
    {
      name: 'setLoad in cores, default namespace',
      step: { setLoad: { workload: 'app=web', cpu: '1.5' } },
      want: { kind: 'setLoad', namespace: 'default', workload: 'app=web', cpuMillicores: 1500 },
    },
    {
      name: 'setLoad as a YAML number',
      step: { setLoad: { workload: 'deployment/web', cpu: 2 } },
      want: { kind: 'setLoad', namespace: 'default', workload: 'deployment/web', cpuMillicores: 2000 },
    },
  ])('$name', ({ step, want }) => {
    expect(one(step)).toEqual(want);
  });

  it.each([
    { step: { request: 'web' }, msg: 'steps[0] (request): expected {from, url, count?}' },
    { step: { request: { url: 'web', count: 0 } }, msg: 'steps[0] (request): count must be an integer from 1 to 100' },
    {
      step: { request: { url: 'web', from: 'inside' } },
      msg: 'steps[0] (request): from must be external, {pod: NS/NAME} or {selector, namespace?, index?}',
    },
    { step: { request: { from: 'external' } }, msg: 'steps[0] (request): url must be a non-empty string' },
    {
      step: { setLoad: { workload: 'deployment/web', cpu: 'lots' } },
      msg: 'steps[0] (setLoad): cpu must be a quantity such as 900m or 2 (got "lots")',
    },
    { step: { setLoad: { cpu: '1' } }, msg: 'steps[0] (setLoad): workload must be a non-empty string' },
  ])('rejects $step', ({ step, msg }) => {
    expect(() => one(step)).toThrow(msg);
  });
});
