/**
 * The kubeconfig `npm run apiserver` writes (docs/architecture.md#the-http-server): cluster and context
 * `kube-relay`, user `kubectl`. The server is named by its https:// URL with the per-start
 * certificate as certificate-authority-data, and the user carries the per-start bearer token
 * (server.ts, auth.ts): kubectl sends a kubeconfig's credentials only over TLS.
 */

/** The credential and trust a kubeconfig carries. */
export interface KubeconfigAuth {
  /** Bearer token of the `kubectl` user. */
  token: string;
  /** PEM of the serving certificate, written as certificate-authority-data. */
  caPem?: string;
}

/** The kubeconfig YAML for a server at `url` (use the https:// URL with `auth`). */
export function kubeconfigYAML(url: string, auth?: KubeconfigAuth): string {
  const ca = auth?.caPem ? [`    certificate-authority-data: ${Buffer.from(auth.caPem).toString('base64')}`] : [];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    ...ca,
    `    server: ${url}`,
    '  name: kube-relay',
    'contexts:',
    '- context:',
    '    cluster: kube-relay',
    '    namespace: default',
    '    user: kubectl',
    '  name: kube-relay',
    'current-context: kube-relay',
    'preferences: {}',
    'users:',
    '- name: kubectl',
    ...(auth ? ['  user:', `    token: ${auth.token}`] : ['  user: {}']),
    '',
  ].join('\n');
}

/**
 * Reads the bearer token back from a kubeconfig this module wrote (the app's /k8s proxy uses it,
 * vite.config.ts). @returns undefined when the text holds none.
 */
export function tokenFromKubeconfig(text: string): string | undefined {
  return /^\s+token:\s*(\S+)\s*$/m.exec(text)?.[1];
}
