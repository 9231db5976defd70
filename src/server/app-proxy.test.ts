/**
 * The app's /k8s proxy (vite.config.ts): the bearer token it injects comes from
 * KUBE_RELAY_API_TOKEN or the kubeconfig `npm run apiserver` wrote (followed when rewritten), and
 * requests another site's page makes through it are told apart from the app's own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isCrossSite, proxyToken } from '../../vite.config';
import { kubeconfigYAML } from './kubeconfig';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the /k8s proxy', () => {
  it('takes the token from the environment, else from the kubeconfig, following a rewrite', () => {
    expect(proxyToken({ token: 'env-token', kubeconfig: '/nope' })()).toBe('env-token');
    const dir = mkdtempSync(join(tmpdir(), 'kube-relay-proxy-'));
    const file = join(dir, 'kc');
    const get = proxyToken({ kubeconfig: file });
    expect(get()).toBeUndefined();
    writeFileSync(file, kubeconfigYAML('https://127.0.0.1:6443', { token: 'first', caPem: 'x' }));
    expect(get()).toBe('first');
    writeFileSync(file, kubeconfigYAML('https://127.0.0.1:6443', { token: 'second-token-longer', caPem: 'x' }));
    expect(get()).toBe('second-token-longer');
  });

  it.each([
    ['the app itself (no Origin: a same-origin GET)', { host: '127.0.0.1:4173' }, false],
    ['the app itself (same Origin)', { host: '127.0.0.1:4173', origin: 'http://127.0.0.1:4173', 'sec-fetch-site': 'same-origin' }, false],
    ['a typed URL', { host: '127.0.0.1:4173', 'sec-fetch-site': 'none' }, false],
    ['another site’s no-cors POST', { host: '127.0.0.1:4173', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, true],
    ['another local port', { host: '127.0.0.1:4173', origin: 'http://127.0.0.1:5173' }, true],
    ['a same-site page on another port', { host: '127.0.0.1:4173', 'sec-fetch-site': 'same-site' }, true],
    ['a null origin (sandboxed frame)', { host: '127.0.0.1:4173', origin: 'null' }, true],
  ])('%s → cross-site %s', (_what, headers, want) => {
    expect(isCrossSite(req(headers))).toBe(want);
  });
});
