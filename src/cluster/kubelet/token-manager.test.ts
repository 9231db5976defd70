/**
 * The kubelet's token manager (token-manager.ts, pkg/kubelet/token/token_manager.go): cache
 * keys, the refresh rule in simulated seconds, the error texts, DeleteServiceAccountToken and
 * the cleanup of expired tokens.
 */
import { describe, expect, it } from 'vitest';
import { newForbidden } from '../api/errors';
import type { TokenRequest } from '../apiserver/token-request';
import { Rng } from '../sim/rng';
import { TokenManager, keyFunc } from './token-manager';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** A fake apiserver: answers with token N (counting), or throws `fail` when set. */
function setup() {
  const clock = { now: T0 };
  const calls: string[] = [];
  let fail: Error | null = null;
  let n = 0;
  const mgr = new TokenManager(
    (name, namespace, tr) => {
      calls.push(`${namespace}/${name}`);
      if (fail) throw fail;
      const exp = tr.spec?.expirationSeconds ?? 3600;
      return {
        spec: { ...tr.spec, audiences: tr.spec?.audiences ?? ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: exp },
        status: { token: `token-${++n}`, expirationTimestamp: iso(clock.now + exp * 1000) },
      };
    },
    () => clock.now,
    new Rng(7).derive('jitter'),
  );
  return { clock, calls, mgr, setFail: (e: Error | null) => (fail = e) };
}

const podTR = (uid: string, exp = 3607, audiences?: string[]): TokenRequest => ({
  spec: {
    ...(audiences ? { audiences } : {}),
    expirationSeconds: exp,
    boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid },
  },
});

describe('keyFunc', () => {
  it.each([
    {
      name: 'no audiences: []string(nil)',
      tr: podTR('u1'),
      key: '"default"/"default"/[]string(nil)/3607/v1.BoundObjectReference{Kind:"Pod", APIVersion:"v1", Name:"web", UID:"u1"}',
    },
    {
      name: 'audiences and another lifetime',
      tr: podTR('u2', 7200, ['vault', 'sts']),
      key: '"default"/"default"/[]string{"vault", "sts"}/7200/v1.BoundObjectReference{Kind:"Pod", APIVersion:"v1", Name:"web", UID:"u2"}',
    },
    {
      name: 'no expiration, no bound object: zero values',
      tr: {},
      key: '"default"/"default"/[]string(nil)/0/v1.BoundObjectReference{Kind:"", APIVersion:"", Name:"", UID:""}',
    },
  ])('$name', ({ tr, key }) => {
    expect(keyFunc('default', 'default', tr)).toBe(key);
  });
});

describe('TokenManager.getServiceAccountToken', () => {
  it('caches a token until 80% of its TTL (less the jitter) has passed, then requests a new one', () => {
    const { clock, calls, mgr } = setup();
    expect(mgr.getServiceAccountToken('default', 'default', podTR('u1')).status?.token).toBe('token-1');
    // 3607 s: refresh once now > exp − 721 s − jitter (0..9 s), i.e. after iat + 2876..2886 s
    const seen: string[] = [];
    for (const s of [60, 1800, 2876]) {
      clock.now = T0 + s * 1000;
      seen.push(`${s}s ${mgr.getServiceAccountToken('default', 'default', podTR('u1')).status?.token}`);
    }
    clock.now = T0 + 2887 * 1000;
    seen.push(`2887s ${mgr.getServiceAccountToken('default', 'default', podTR('u1')).status?.token}`);
    expect(seen).toEqual(['60s token-1', '1800s token-1', '2876s token-1', '2887s token-2']);
    expect(calls).toEqual(['default/default', 'default/default']);
    expect(mgr.size).toBe(1);
  });

  it('refreshes a long-lived token after 24 h (maxTTL, less the jitter)', () => {
    const { clock, mgr } = setup();
    const tr = podTR('u1', 7 * 24 * 3600);
    mgr.getServiceAccountToken('default', 'default', tr);
    clock.now = T0 + (24 * 3600 - 10) * 1000;
    expect(mgr.getServiceAccountToken('default', 'default', tr).status?.token).toBe('token-1');
    clock.now = T0 + (24 * 3600 + 1) * 1000;
    expect(mgr.getServiceAccountToken('default', 'default', tr).status?.token).toBe('token-2');
  });

  it('keys by audience, lifetime and bound object: different requests get different tokens', () => {
    const { mgr } = setup();
    const got = [podTR('u1'), podTR('u1', 7200), podTR('u1', 3607, ['vault']), podTR('u2'), podTR('u1')].map(
      (tr) => mgr.getServiceAccountToken('default', 'default', tr).status?.token,
    );
    expect(got).toEqual(['token-1', 'token-2', 'token-3', 'token-4', 'token-1']);
  });

  it.each([
    {
      name: 'nothing cached: failed to fetch token',
      prime: false,
      at: [0],
      want: 'failed to fetch token: serviceaccounts "default" is forbidden: nope',
    },
    {
      // the failed refresh at 3560 s keeps the old token (and runs the cleanup); at 3608 s it has expired
      name: 'cached but expired: expired and refresh failed',
      prime: true,
      at: [3560, 3608],
      want:
        'token "default"/"default"/[]string(nil)/3607/v1.BoundObjectReference{Kind:"Pod", APIVersion:"v1", Name:"web", UID:"u1"} ' +
        'expired and refresh failed: serviceaccounts "default" is forbidden: nope',
    },
    { name: 'cached and still valid: the old token is kept', prime: true, at: [3000], want: 'token-1' },
  ])('$name', ({ prime, at, want }) => {
    const { clock, mgr, setFail } = setup();
    if (prime) mgr.getServiceAccountToken('default', 'default', podTR('u1'));
    setFail(newForbidden('serviceaccounts', 'default', 'nope'));
    let got = '';
    for (const s of at) {
      clock.now = T0 + s * 1000;
      try {
        got = mgr.getServiceAccountToken('default', 'default', podTR('u1')).status!.token;
      } catch (e) {
        got = (e as Error).message;
      }
    }
    expect(got).toBe(want);
  });
});

describe('TokenManager cache', () => {
  it('DeleteServiceAccountToken drops every token bound to the Pod, and only those', () => {
    const { mgr } = setup();
    for (const tr of [podTR('u1'), podTR('u1', 7200), podTR('u2')]) mgr.getServiceAccountToken('default', 'default', tr);
    expect(mgr.size).toBe(3);
    mgr.deleteServiceAccountToken('u1');
    expect(mgr.size).toBe(1);
    expect(mgr.peek('default', 'default', podTR('u2'))?.status?.token).toBe('token-3');
    expect(mgr.peek('default', 'default', podTR('u1'))).toBeUndefined();
  });

  it('cleanup (a minute after the last) drops the expired tokens', () => {
    const { clock, mgr } = setup();
    mgr.getServiceAccountToken('default', 'default', podTR('u1', 600));
    clock.now = T0 + 550_000;
    mgr.getServiceAccountToken('default', 'default', podTR('u2', 3600));
    expect(mgr.size).toBe(2);
    clock.now = T0 + 611_000; // u1 expired, a minute since the last cleanup: it runs before the lookup of u2
    mgr.getServiceAccountToken('default', 'default', podTR('u2', 3600));
    expect([mgr.size, mgr.peek('default', 'default', podTR('u1', 600))]).toEqual([1, undefined]);
  });

  it('earliestRefreshMs: exp − 20% − 9 s, or iat + 24 h − 9 s when sooner', () => {
    const { mgr } = setup();
    const a = mgr.getServiceAccountToken('default', 'default', podTR('u1'));
    const b = mgr.getServiceAccountToken('default', 'default', podTR('u2', 30 * 24 * 3600));
    expect([mgr.earliestRefreshMs(a) - T0, mgr.earliestRefreshMs(b) - T0]).toEqual([(3607 - 721 - 9) * 1000, (24 * 3600 - 9) * 1000]);
  });
});
