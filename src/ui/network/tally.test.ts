import { describe, expect, it } from 'vitest';
import type { TrafficResult } from '../../worker/protocol';
import { flightOf, parseSource, shortKey, tallyByPod } from './tally';

function result(index: number, podKey: string | null, ok = true, extra: Partial<TrafficResult> = {}): TrafficResult {
  return {
    index,
    ok,
    status: ok ? 200 : null,
    message: ok ? 'HTTP/1.1 200 OK' : 'curl: (7) Failed to connect to 10.96.0.20 port 80: Connection refused',
    ingressKey: null,
    serviceKey: 'Service/default/web',
    podKey,
    viaNode: 'node-1',
    endpoint: podKey ? '10.244.1.5:80' : null,
    chains: ['KUBE-SERVICES', 'KUBE-SVC-X'],
    dnsQueries: [],
    ...extra,
  };
}

describe('tallyByPod', () => {
  it.each([
    ['nothing sent', [], { pods: [], total: 0, ok: 0, noPod: 0 }],
    [
      'ten requests over three Pods: by count, then name',
      [
        result(1, 'Pod/default/web-b'),
        result(2, 'Pod/default/web-a'),
        result(3, 'Pod/default/web-c'),
        result(4, 'Pod/default/web-b'),
        result(5, 'Pod/default/web-a'),
        result(6, 'Pod/default/web-c'),
        result(7, 'Pod/default/web-b'),
        result(8, 'Pod/default/web-a'),
        result(9, 'Pod/default/web-b'),
        result(10, 'Pod/default/web-c'),
      ],
      {
        pods: [
          { podKey: 'Pod/default/web-b', count: 4, ok: 4, share: 0.4 },
          { podKey: 'Pod/default/web-a', count: 3, ok: 3, share: 0.3 },
          { podKey: 'Pod/default/web-c', count: 3, ok: 3, share: 0.3 },
        ],
        total: 10,
        ok: 10,
        noPod: 0,
      },
    ],
    [
      'a Pod that refused (wrong targetPort) counts as routed, a request with no endpoints does not',
      [result(1, 'Pod/default/web-a', false), result(2, 'Pod/default/web-a'), result(3, null, false), result(4, null, false)],
      { pods: [{ podKey: 'Pod/default/web-a', count: 2, ok: 1, share: 1 }], total: 4, ok: 1, noPod: 2 },
    ],
  ] as [string, TrafficResult[], ReturnType<typeof tallyByPod>][])('%s', (_case, results, expected) => {
    expect(tallyByPod(results)).toEqual(expected);
  });
});

describe('parseSource', () => {
  it.each([
    ['external', { kind: 'external' }],
    ['default/web-abc', { kind: 'pod', namespace: 'default', name: 'web-abc' }],
    ['kube-system/coredns-1', { kind: 'pod', namespace: 'kube-system', name: 'coredns-1' }],
    ['garbage', { kind: 'external' }],
  ])('%s', (value, expected) => {
    expect(parseSource(value)).toEqual(expected);
  });
});

describe('flightOf', () => {
  it('starts a Pod-sourced flight at that Pod and carries the route', () => {
    expect(flightOf(result(1, 'Pod/default/web-a', true, { ingressKey: 'Ingress/default/shop' }), 'default/client', 1234.5)).toEqual({
      source: { kind: 'pod', podKey: 'Pod/default/client' },
      ingressKey: 'Ingress/default/shop',
      serviceKey: 'Service/default/web',
      podKey: 'Pod/default/web-a',
      viaNode: 'node-1',
      ok: true,
      message: 'HTTP/1.1 200 OK',
      startedWallMs: 1234.5,
    });
  });

  it('marks a failed external request without a Pod', () => {
    const f = flightOf(result(1, null, false, { serviceKey: null, viaNode: null }), 'external', 0);
    expect(f).toMatchObject({ source: { kind: 'external' }, podKey: null, serviceKey: null, viaNode: null, ok: false });
  });
});

describe('shortKey', () => {
  it.each([
    ['Pod/default/web-a', 'web-a'],
    ['Node/node-1', 'node-1'],
    [null, ''],
  ])('%s → %s', (key, expected) => {
    expect(shortKey(key)).toBe(expected);
  });
});
