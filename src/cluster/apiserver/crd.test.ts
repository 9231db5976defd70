import { describe, expect, it } from 'vitest';
import { APIServer } from './apiserver';
import { installCRDSupport } from './crd';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { StatusError } from '../api/errors';
import { users } from '../client/clientset';
import type { KObject } from '../api/types';

const CRD: KObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'examples.test.com' },
  spec: {
    group: 'test.com',
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['test'],
                properties: { test: { type: 'string' }, size: { type: 'integer', minimum: 1 }, mode: { type: 'string', enum: ['a', 'b'] } },
              },
            },
          },
        },
      },
    ],
    names: { plural: 'examples', singular: 'example', kind: 'Example', shortNames: ['ex'] },
  },
};

function setup() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(1), relay, {});
  installCRDSupport(api);
  const u = users.kubectl();
  api.create(u, api.registry.forResource('', 'namespaces')!, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { clock, api, u };
}

describe('CustomResourceDefinitions', () => {
  it('a CRD adds its kind: discovery, Established condition, create/list/watch of instances', () => {
    const { clock, api, u } = setup();
    expect(api.registry.forKind('test.com/v1', 'Example')).toBeUndefined();
    api.create(u, api.registry.forResource('apiextensions.k8s.io', 'customresourcedefinitions')!, '', CRD);
    const info = api.registry.forKind('test.com/v1', 'Example')!;
    expect(info).toMatchObject({ resource: 'examples', namespaced: true, shortNames: ['ex'], custom: true });
    expect(api.registry.resolve('ex')?.kind).toBe('Example');
    clock.advance(10);
    const crd = api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', 'examples.test.com')!;
    expect(crd.status.conditions.map((c: { type: string; status: string; reason: string }) => [c.type, c.status, c.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ]);
    const seen: string[] = [];
    api.watch(u, info, 'default', {}, (ev) => seen.push(`${ev.type} ${ev.object.metadata.name}`));
    const created = api.create(u, info, 'default', {
      apiVersion: 'test.com/v1',
      kind: 'Example',
      metadata: { name: 'test' },
      spec: { test: 'test', unknown: 1 },
    }).object;
    expect(created.spec).toEqual({ test: 'test' }); // unknown fields pruned
    clock.advance(10);
    expect(seen).toEqual(['ADDED test']);
    expect(api.list(u, info, 'default', { quiet: true }).items.map((i) => i.metadata.name)).toEqual(['test']);
  });

  const invalid: { name: string; spec: Record<string, unknown>; message: string }[] = [
    {
      name: 'wrong type',
      spec: { test: 5 },
      message:
        'Example.test.com "bad" is invalid: spec.test: Invalid value: "integer": spec.test in body must be of type string: "integer"',
    },
    { name: 'required', spec: {}, message: 'Example.test.com "bad" is invalid: spec.test: Required value' },
    {
      name: 'enum',
      spec: { test: 'x', mode: 'c' },
      message: 'Example.test.com "bad" is invalid: spec.mode: Unsupported value: "c": supported values: "a", "b"',
    },
    {
      name: 'minimum',
      spec: { test: 'x', size: 0 },
      message: 'Example.test.com "bad" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    },
  ];
  for (const c of invalid) {
    it(`rejects an instance: ${c.name}`, () => {
      const { api, u } = setup();
      api.create(u, api.registry.forResource('apiextensions.k8s.io', 'customresourcedefinitions')!, '', CRD);
      const info = api.registry.forKind('test.com/v1', 'Example')!;
      let err: StatusError | undefined;
      try {
        api.create(u, info, 'default', { apiVersion: 'test.com/v1', kind: 'Example', metadata: { name: 'bad' }, spec: c.spec });
      } catch (e) {
        err = e as StatusError;
      }
      expect(err?.code).toBe(422);
      expect(err?.message).toBe(c.message);
    });
  }

  it('deleting the CRD deletes its instances and stops serving the kind', () => {
    const { clock, api, u } = setup();
    const crdInfo = api.registry.forResource('apiextensions.k8s.io', 'customresourcedefinitions')!;
    api.create(u, crdInfo, '', CRD);
    const info = api.registry.forKind('test.com/v1', 'Example')!;
    api.create(u, info, 'default', { apiVersion: 'test.com/v1', kind: 'Example', metadata: { name: 'a' }, spec: { test: 'x' } });
    clock.advance(10);
    api.delete(u, crdInfo, '', 'examples.test.com');
    expect(api.store.count('examples.test.com')).toBe(0);
    expect(api.registry.forKind('test.com/v1', 'Example')).toBeUndefined();
  });
});
