import { describe, expect, it } from 'vitest';
import { plural } from './kubectl-names';

describe('plural: the resource name kubectl get takes', () => {
  it.each([
    ['core group', 'pods', 'pods'],
    ['endpoints is already plural', 'endpoints', 'endpoints'],
    ['storageclasses (not storageclasss)', 'storageclasses.storage.k8s.io', 'storageclasses'],
    ['ingressclasses (not ingressclasss)', 'ingressclasses.networking.k8s.io', 'ingressclasses'],
    ['networkpolicies', 'networkpolicies.networking.k8s.io', 'networkpolicies'],
    ['a custom resource', 'crontabs.stable.example.com', 'crontabs'],
    ['unknown', undefined, ''],
  ])('%s', (_name, resource, want) => {
    expect(plural(resource === undefined ? undefined : { resource })).toBe(want);
  });
});
