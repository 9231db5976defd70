/**
 * The kubeconfig `npm run apiserver` writes (docs/architecture.md#the-http-server): cluster and context
 * `kube-relay`, user `kubectl`, plain HTTP on 127.0.0.1 (no credentials: the server trusts
 * every local client as the kubectl user, kubernetes-admin).
 */

/** The kubeconfig YAML for a server at `url`. */
export function kubeconfigYAML(url: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
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
    '  user: {}',
    '',
  ].join('\n');
}
