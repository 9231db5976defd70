import { describe, expect, it } from 'vitest';
import { dropFields, unknownFields } from './known-fields';

const pod = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec,
  ...extra,
});

describe('unknownFields (strict decoding paths)', () => {
  it.each<[string, string, unknown, string[]]>([
    [
      'typo in a container',
      'Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'b', imagePullPolcy: 'Always' }] } } },
      },
      ['spec.template.spec.containers[1].imagePullPolcy'],
    ],
    [
      'deep in an Ingress',
      'Ingress',
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'i' },
        spec: {
          rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 's', port: { numbr: 80 } } } }] } }],
        },
      },
      ['spec.rules[0].http.paths[0].backend.service.port.numbr'],
    ],
    ['top level', 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, dta: {} }, ['dta']],
    [
      'several, in document order',
      'Pod',
      pod({ containers: [{ name: 'a', imagee: 'x' }], restartPolcy: 'Never' }, { metdata: {} }),
      ['spec.containers[0].imagee', 'spec.restartPolcy', 'metdata'],
    ],
    [
      'a clean Pod',
      'Pod',
      pod({ containers: [{ name: 'a', image: 'nginx', resources: { limits: { cpu: '1' } } }], resources: { limits: { cpu: '2' } } }),
      [],
    ],
    [
      'v1.33 fields kubernetes-types 1.30 lacks',
      'Pod',
      pod({ containers: [{ name: 'a', lifecycle: { stopSignal: 'SIGTERM' } }], securityContext: { supplementalGroupsPolicy: 'Strict' } }),
      [],
    ],
    [
      'map values are not checked',
      'Pod',
      pod({ nodeSelector: { anything: 'x' }, containers: [] }, { metadata: { name: 'p', labels: { free: 'form' } } }),
      [],
    ],
    [
      '__proto__, constructor, toString as map keys are data',
      'ConfigMap',
      JSON.parse(
        '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"__proto__":"x"},"annotations":{"constructor":"y"}},"data":{"__proto__":"p","toString":"z"}}',
      ),
      [],
    ],
    [
      '__proto__ where a struct is expected is an unknown field',
      'ConfigMap',
      JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","__proto__":{"x":"y"}},"constructor":{}}'),
      ['metadata.__proto__', 'constructor'],
    ],
    [
      'autoscaling/v1 knows targetCPUUtilizationPercentage',
      'HorizontalPodAutoscaler',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'h' },
        spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
      },
      [],
    ],
    [
      'autoscaling/v2 does not',
      'HorizontalPodAutoscaler',
      {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'h' },
        spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
      },
      ['spec.targetCPUUtilizationPercentage'],
    ],
    [
      'custom resources: not checked',
      'Foo',
      { apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'f' }, spec: { whatever: 1 } },
      [],
    ],
    ["status is the engine's", 'Pod', pod({ containers: [] }, { status: { somethingNew: 1 } }), []],
  ])('%s', (_n, kind, obj, want) => {
    expect(unknownFields(kind, obj)).toEqual(want);
  });

  it('dropFields removes exactly the reported paths', () => {
    const obj = pod({ containers: [{ name: 'a', imagee: 'x' }], restartPolcy: 'Never' }) as Record<string, unknown>;
    dropFields(obj, unknownFields('Pod', obj));
    expect(obj.spec).toEqual({ containers: [{ name: 'a' }] });
  });
});
