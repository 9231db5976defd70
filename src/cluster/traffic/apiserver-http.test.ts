/**
 * kube-apiserver from inside a Pod (apiserver-http.ts): `kubectl exec POD -- curl …
 * https://kubernetes.default.svc/…` with the Pod's projected token, through cluster DNS and
 * kube-proxy's DNAT to the apiserver's port 6443; RBAC's 403 for the ServiceAccount, the
 * PodList once a RoleBinding grants `view`, 403 for system:anonymous, 401 for a token it did
 * not issue, curl's error 60 without -k.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { CURL_SSL_CA_ERROR } from './traffic';
import { goJSONIndent } from './apiserver-http';

const TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const PODS = 'https://kubernetes.default.svc/api/v1/namespaces/default/pods';

/** kube-apiserver's 403 for `user` listing Pods in default, as curl prints it (pretty JSON, no newline at the end). */
const forbidden = (user: string) =>
  [
    '{',
    '  "kind": "Status",',
    '  "apiVersion": "v1",',
    '  "metadata": {},',
    '  "status": "Failure",',
    `  "message": "pods is forbidden: User \\"${user}\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"",`,
    '  "reason": "Forbidden",',
    '  "details": {',
    '    "kind": "pods"',
    '  },',
    '  "code": 403',
    '}',
  ].join('\n');

const UNAUTHORIZED = [
  '{',
  '  "kind": "Status",',
  '  "apiVersion": "v1",',
  '  "metadata": {},',
  '  "status": "Failure",',
  '  "message": "Unauthorized",',
  '  "reason": "Unauthorized",',
  '  "code": 401',
  '}',
].join('\n');

const VIEW_BINDING = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: default-view}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: default, namespace: default}]
`;

describe('curl kube-apiserver from a Pod', () => {
  const c = new Cluster({ seed: 5 });
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  containers:
  - {name: curl, image: curlimages/curl:8.10.1, command: [sh, -c, "sleep 360000"]}
`);
  c.settle(120_000);
  const token = c.kubectl(`exec client -- cat ${TOKEN}`).output;
  const pod = c.get('pods', 'default', 'client')!;

  it.each([
    {
      name: 'the ServiceAccount token, no permission: RBAC 403 for system:serviceaccount:default:default',
      line: () => `exec client -- curl -sk -H "Authorization: Bearer ${token}" ${PODS}`,
      output: forbidden('system:serviceaccount:default:default'),
      error: null,
    },
    {
      name: '--cacert instead of -k',
      line: () =>
        `exec client -- curl -s --cacert /var/run/secrets/kubernetes.io/serviceaccount/ca.crt -H "Authorization: Bearer ${token}" ${PODS}`,
      output: forbidden('system:serviceaccount:default:default'),
      error: null,
    },
    {
      name: 'sh -c with the token file read by $(cat …), as in-Pod scripts do',
      line: () => `exec client -- sh -c 'curl -sk -H "Authorization: Bearer $(cat ${TOKEN})" ${PODS}'`,
      output: forbidden('system:serviceaccount:default:default'),
      error: null,
    },
    {
      name: 'sh -c with TOKEN=$(cat …); curl … $TOKEN, the namespace from its file',
      line: () =>
        `exec client -- sh -c 'TOKEN=$(cat ${TOKEN}); NS=$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace); ` +
        `curl -sk -H "Authorization: Bearer $TOKEN" https://kubernetes.default.svc/api/v1/namespaces/$NS/pods'`,
      output: forbidden('system:serviceaccount:default:default'),
      error: null,
    },
    {
      name: 'sh -c with a file that is not there: cat’s error, then curl without a token (anonymous)',
      line: () => `exec client -- sh -c 'curl -sk -H "Authorization: Bearer $(cat /nope)" ${PODS}'`,
      output: forbidden('system:anonymous'),
      error: "cat: can't open '/nope': No such file or directory\n",
    },
    {
      name: 'no token: system:anonymous, 403',
      line: () => `exec client -- curl -sk ${PODS}`,
      output: forbidden('system:anonymous'),
      error: null,
    },
    {
      name: 'a token the apiserver did not issue: 401',
      line: () => `exec client -- curl -sk -H "Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln" ${PODS}`,
      output: UNAUTHORIZED,
      error: null,
    },
    {
      name: 'curl -f: 22 on the 403',
      line: () => `exec client -- curl -skf -H "Authorization: Bearer ${token}" ${PODS}`,
      output: '',
      error: 'command terminated with exit code 22\n',
    },
    {
      name: 'without -k: the cluster CA is unknown to curl (60)',
      line: () => `exec client -- curl -S ${PODS}`,
      output: '',
      error: `${CURL_SSL_CA_ERROR}\ncommand terminated with exit code 60\n`,
    },
    {
      name: 'busybox wget: no certificate check (its note), the 403 as its error line',
      line: () => `exec client -- wget -qO- --header "Authorization: Bearer ${token}" ${PODS}`,
      output: '',
      error:
        'wget: note: TLS certificate validation not implemented\nwget: server returned error: HTTP/1.1 403 Forbidden\ncommand terminated with exit code 1\n',
    },
    {
      name: 'plain HTTP to the HTTPS port: Go’s 400 text',
      line: () => 'exec client -- curl -s http://kubernetes.default.svc:443/api/v1/namespaces/default/pods',
      output: 'Client sent an HTTP request to an HTTPS server.\n',
      error: null,
    },
    {
      name: '/healthz answers anyone',
      line: () => 'exec client -- curl -sk https://kubernetes.default.svc/healthz',
      output: 'ok',
      error: null,
    },
    {
      name: '/version answers anyone: version.Info, indented, no final newline',
      line: () => 'exec client -- curl -sk https://kubernetes.default.svc/version',
      output: [
        '{',
        '  "major": "1",',
        '  "minor": "33",',
        '  "emulationMajor": "1",',
        '  "emulationMinor": "33",',
        '  "minCompatibilityMajor": "1",',
        '  "minCompatibilityMinor": "32",',
        '  "gitVersion": "v1.33.1",',
        '  "gitCommit": "8adc0f041b8e7ad1d30e29cc59c6ae7a15e19828",',
        '  "gitTreeState": "clean",',
        '  "buildDate": "2025-05-15T08:19:08Z",',
        '  "goVersion": "go1.24.2",',
        '  "compiler": "gc",',
        '  "platform": "linux/amd64"',
        '}',
      ].join('\n'),
      error: null,
    },
    {
      name: 'discovery /api to an authenticated user: APIVersions with the endpoint it reached',
      line: () => `exec client -- curl -sk -H "Authorization: Bearer ${token}" https://kubernetes.default.svc/api`,
      output: goJSONIndent({
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [
          { clientCIDR: '0.0.0.0/0', serverAddress: `${c.get('endpoints', 'default', 'kubernetes')!.subsets[0].addresses[0].ip}:6443` },
        ],
      }),
      error: null,
    },
    {
      name: 'discovery /apis/apps: the APIGroup',
      line: () => `exec client -- curl -sk -H "Authorization: Bearer ${token}" https://kubernetes.default.svc/apis/apps`,
      output: goJSONIndent({
        kind: 'APIGroup',
        apiVersion: 'v1',
        name: 'apps',
        versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
      }),
      error: null,
    },
    {
      name: 'discovery without a token: 403 for the path (system:discovery is for authenticated users)',
      line: () => 'exec client -- curl -sk https://kubernetes.default.svc/apis',
      output: goJSONIndent({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'forbidden: User "system:anonymous" cannot get path "/apis"',
        reason: 'Forbidden',
        details: {},
        code: 403,
      }),
      error: null,
    },
    {
      name: 'an unknown group: 404 page not found',
      line: () => `exec client -- curl -sk -H "Authorization: Bearer ${token}" https://kubernetes.default.svc/apis/nope.example.com`,
      output: '404 page not found\n',
      error: null,
    },
    {
      name: 'an unknown resource: 404 Status',
      line: () =>
        `exec client -- curl -sk -H "Authorization: Bearer ${token}" https://kubernetes.default.svc/api/v1/namespaces/default/nopes`,
      output: goJSONIndent({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
        code: 404,
      }),
      error: null,
    },
  ])('$name', ({ line, output, error }) => {
    const r = c.kubectl(line());
    expect(r.output).toBe(output);
    expect(r.error).toBe(error);
  });

  it('draws the request under the ServiceAccount’s name, after DNS and kube-proxy’s DNAT to port 6443', () => {
    const seq = c.relay.lastSeq;
    c.kubectl(`exec client -- curl -sk -H "Authorization: Bearer ${token}" ${PODS}`);
    const hops = c.relay
      .since(seq)
      .filter((h) => h.kind !== 'note' && h.to !== 'coredns' && h.from !== 'coredns' && h.from !== 'kubectl' && h.to !== 'kubectl')
      .map((h) => `${h.from} -> ${h.to} ${h.kind}: ${h.summary.replace(/KUBE-(SVC|SEP)-\w+/g, 'KUBE-$1-x')}`);
    const node = pod.spec.nodeName;
    const ep = c.get('endpoints', 'default', 'kubernetes')!.subsets[0].addresses[0].ip;
    expect(hops).toEqual([
      `pod/default/client -> kube-proxy/${node} request: connect 10.96.0.1:443 (GET kubernetes.default.svc/api/v1/namespaces/default/pods)`,
      `kube-proxy/${node} -> kube-proxy/${node} decision: DNAT 10.96.0.1:443 via KUBE-SVC-x → KUBE-SEP-x → ${ep}:6443`,
      `kube-proxy/${node} -> kube-apiserver request: HTTPS GET /api/v1/namespaces/default/pods Host: kubernetes.default.svc → ${ep}:6443`,
      'system:serviceaccount:default:default -> kube-apiserver request: list pods in default',
      `kube-apiserver -> system:serviceaccount:default:default response: 403 Forbidden: pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"`,
      'kube-apiserver -> pod/default/client response: HTTP/1.1 403 Forbidden · pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"',
    ]);
  });

  it('with a RoleBinding to view: the PodList', () => {
    c.apply(VIEW_BINDING);
    c.settle(30_000);
    const r = c.kubectl(`exec client -- curl -sk -H "Authorization: Bearer ${token}" ${PODS}`);
    expect(r.error).toBeNull();
    const list = JSON.parse(r.output);
    expect([list.kind, list.apiVersion, Object.keys(list), list.items.map((p: { metadata: { name: string } }) => p.metadata.name)]).toEqual(
      ['PodList', 'v1', ['kind', 'apiVersion', 'metadata', 'items'], ['client']],
    );
    expect(Object.keys(list.items[0])).toEqual(['metadata', 'spec', 'status']);
    expect(Object.keys(list.items[0].metadata).slice(0, 6)).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
    ]);
    expect(r.output).toBe(goJSONIndent(list));
    // view does not reach Secrets, and anonymous is still refused
    const s = c.kubectl(
      `exec client -- curl -sk -H "Authorization: Bearer ${token}" https://kubernetes.default.svc/api/v1/namespaces/default/secrets`,
    );
    expect(JSON.parse(s.output).message).toBe(
      'secrets is forbidden: User "system:serviceaccount:default:default" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    expect(c.kubectl(`exec client -- curl -sk ${PODS}`).output).toBe(forbidden('system:anonymous'));
  });

  it('the token of a deleted Pod no longer authenticates: 401', () => {
    c.apply(`apiVersion: v1
kind: Pod
metadata: {name: other}
spec:
  containers:
  - {name: curl, image: curlimages/curl:8.10.1, command: [sh, -c, "sleep 360000"]}
`);
    c.settle(120_000);
    const theirs = c.kubectl(`exec other -- cat ${TOKEN}`).output;
    c.kubectl('delete pod other');
    c.settle(120_000);
    expect(c.kubectl(`exec client -- curl -sk -H "Authorization: Bearer ${theirs}" ${PODS}`).output).toBe(UNAUTHORIZED);
  });
});
