import { describe, expect, it } from 'vitest';
import {
  actingAsStore,
  identityFromForm,
  impersonationFlags,
  parseGroups,
  receiveActingAsBatch,
  sameIdentity,
  serviceAccountUsers,
} from './acting-as';
import type { StoredObject } from '../store/types';

const sa = (ns: string, name: string): [string, StoredObject] => [
  `ServiceAccount/${ns}/${name}`,
  {
    key: `ServiceAccount/${ns}/${name}`,
    resource: 'serviceaccounts',
    object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } },
    row: null,
  },
];

describe('acting-as helpers', () => {
  it.each([
    ['dev, qa  ops', ['dev', 'qa', 'ops']],
    [' , ,', []],
    ['dev,dev system:masters', ['dev', 'system:masters']],
  ])('parseGroups(%j)', (text, expected) => expect(parseGroups(text)).toEqual(expected));

  it.each([
    ['jane', 'dev', { user: 'jane', groups: ['dev'] }],
    ['  jane ', '', { user: 'jane', groups: [] }],
    ['', 'dev', 'empty'],
    ['kubernetes-admin', '', null],
    ['kubernetes-admin', 'dev', { user: 'kubernetes-admin', groups: ['dev'] }],
  ] as const)('identityFromForm(%j, %j)', (user, groups, expected) => expect(identityFromForm(user, groups)).toEqual(expected));

  it('lists the ServiceAccounts as usernames, by namespace then name, and nothing else', () => {
    const objects = new Map<string, StoredObject>([
      sa('kube-system', 'coredns'),
      sa('default', 'default'),
      sa('default', 'builder'),
      [
        'Pod/default/p',
        {
          key: 'Pod/default/p',
          resource: 'pods',
          object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } },
          row: null,
        },
      ],
    ]);
    expect(serviceAccountUsers(objects).split('\n')).toEqual([
      'system:serviceaccount:default:builder',
      'system:serviceaccount:default:default',
      'system:serviceaccount:kube-system:coredns',
    ]);
    expect(serviceAccountUsers(new Map())).toBe('');
  });

  it.each([
    [null, ''],
    [{ user: 'jane', groups: [] }, '--as=jane'],
    [{ user: 'jane', groups: ['dev', 'qa'] }, '--as=jane --as-group=dev --as-group=qa'],
  ])('impersonationFlags(%j)', (as, expected) => expect(impersonationFlags(as)).toBe(expected));

  it('folds batches: keeps the same object while the identity is unchanged; absent (attach mode) changes nothing', () => {
    receiveActingAsBatch({ actingAs: { user: 'jane', groups: ['dev'] } });
    const first = actingAsStore.getState().actingAs;
    expect(first).toEqual({ user: 'jane', groups: ['dev'] });
    receiveActingAsBatch({ actingAs: { user: 'jane', groups: ['dev'] } });
    expect(actingAsStore.getState().actingAs).toBe(first);
    receiveActingAsBatch({});
    expect(actingAsStore.getState().actingAs).toBe(first);
    receiveActingAsBatch({ actingAs: null });
    expect(actingAsStore.getState().actingAs).toBeNull();
    expect(sameIdentity({ user: 'a', groups: ['x'] }, { user: 'a', groups: [] })).toBe(false);
  });
});
