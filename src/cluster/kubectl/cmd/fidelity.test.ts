/**
 * Fidelity fixes found by a Kubernetes-expert trial, each against the exact upstream text:
 * map keys are data (not struct fields) in strict decoding, go-yaml's quoting of YAML 1.1
 * look-alikes, `exec POD COMMAND` without `--`, the kubelet's /etc/resolv.conf and /etc/hosts,
 * one server version, and empty `apply -f -` / `create -f -`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { VERSION_INFO } from '../../api/version';
import { VERSION_INFO as SERVER_VERSION_INFO } from '../../../server/discovery';
import { goYamlNeedsDoubleQuotes } from './go-yaml-resolve';
import { toYAML } from './output';

function run(c: Cluster, line: string, stdin?: string): string {
  const r = c.kubectl(line, stdin);
  return r.output + (r.error !== null ? `<stderr>\n${r.error}` : '') + `<exit ${r.exitCode}>`;
}

const POD =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: %N, namespace: %NS}\nspec: {%SPEC containers: [{name: c, image: busybox, command: [sleep, "3600"]}]}\n';
const pod = (name: string, ns = 'default', spec = '') => POD.replace('%N', name).replace('%NS', ns).replace('%SPEC', spec);

describe('map keys are data, never fields (and never prototypes)', () => {
  it('a ConfigMap with __proto__, toString and constructor keys is created with them as own keys', () => {
    const c = new Cluster({ seed: 1 });
    const out = run(
      c,
      'apply -f -',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations: {constructor: "y"}\ndata: {__proto__: polluted, toString: z}\n',
    );
    expect(out).toBe('configmap/cm created\n<exit 0>');
    const cm = c.get('configmaps', 'default', 'cm') as unknown as {
      data: Record<string, string>;
      metadata: { annotations: Record<string, string> };
    };
    expect(Object.keys(cm.data)).toEqual(['__proto__', 'toString']);
    expect(Object.getPrototypeOf(cm.data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(cm.data, '__proto__')?.value).toBe('polluted');
    expect(cm.metadata.annotations.constructor).toBe('y');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const yaml = c.kubectl('get cm cm -o yaml').output;
    expect(yaml).toContain('data:\n  __proto__: polluted\n  toString: z\n');
    expect(yaml).toContain('    constructor: "y"\n');
    expect(JSON.parse(c.kubectl('get cm cm -o json').output).data).toEqual(JSON.parse('{"__proto__":"polluted","toString":"z"}'));
  });

  it.each<[string, string, string]>([
    [
      '__proto__ where a struct is expected is an unknown field',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, __proto__: {x: y}}\n',
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.__proto__"\n',
    ],
    ['label keys are free-form', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, labels: {constructor: x, prototype: z}}\n', ''],
  ])('%s', (_n, manifest, stderr) => {
    const r = new Cluster({ seed: 1 }).kubectl('apply -f -', manifest);
    expect(r.error ?? '').toBe(stderr);
  });
});

describe('go-yaml v2 quoting (sigs.k8s.io/yaml)', () => {
  it.each<[string, boolean]>([
    ['2026-01-01T00:00:20Z', true],
    ['2026-1-2', true],
    ['2026-01-01 10:00:00', true],
    ['2026-13-01', false],
    ['yes', true],
    ['No', true],
    ['on', true],
    ['OFF', true],
    ['y', true],
    ['N', true],
    ['true', true],
    ['~', true],
    ['null', true],
    ['', true],
    ['123', true],
    ['1_000', true],
    ['0x1F', true],
    ['-0b101', true],
    ['010', true],
    ['1e3', true],
    ['.5', true],
    ['.inf', true],
    ['1:20', true],
    ['<<', true],
    ['nginx', false],
    ['v1', false],
    ['1.2.3', false],
    ['10.96.0.10', false],
    ['yess', false],
    ['0xZZ', false],
    ['-', false],
    ['80/TCP', false],
  ])('%j quoted: %s', (s, want) => {
    expect(goYamlNeedsDoubleQuotes(s)).toBe(want);
  });

  it('prints an object as kubectl does', () => {
    expect(
      toYAML({
        metadata: { creationTimestamp: '2026-01-01T00:00:20Z', labels: { on: 'yes', app: 'web', n: '8080' }, name: '*' },
        data: { script: 'a\nb\n' },
      }),
    ).toBe(
      'data:\n  script: |\n    a\n    b\nmetadata:\n  creationTimestamp: "2026-01-01T00:00:20Z"\n  labels:\n    app: web\n    "n": "8080"\n    "on": "yes"\n  name: \'*\'\n',
    );
  });
});

describe('kubectl exec, resolv.conf and hosts', () => {
  let c: Cluster;
  beforeAll(() => {
    c = new Cluster({ seed: 1 });
    c.apply(
      [
        pod('plain'),
        pod('other', 'kube-system'),
        pod('sub', 'default', 'hostname: web-0, subdomain: web, hostAliases: [{ip: 10.1.2.3, hostnames: [foo.local, bar]}],'),
        pod(
          'nodns',
          'default',
          'dnsPolicy: None, dnsConfig: {nameservers: [1.1.1.1], searches: [example.com], options: [{name: ndots, value: "2"}, {name: edns0}]},',
        ),
        pod('dflt', 'default', 'dnsPolicy: Default,'),
        pod('extra', 'default', 'dnsConfig: {searches: [example.com], options: [{name: ndots, value: "2"}]},'),
      ].join('---\n'),
    );
    c.settle(300_000);
  });
  const ip = (name: string, ns = 'default') => (c.get('pods', ns, name) as unknown as { status: { podIP: string } }).status.podIP;

  it.each<[string, string, () => string]>([
    [
      'exec without -- is refused',
      'exec plain ls',
      () =>
        "<stderr>\nerror: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n<exit 1>",
    ],
    [
      'ClusterFirst resolv.conf',
      'exec plain -- cat /etc/resolv.conf',
      () => 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n<exit 0>',
    ],
    [
      'resolv.conf follows the namespace',
      '-n kube-system exec other -- cat /etc/resolv.conf',
      () => 'search kube-system.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n<exit 0>',
    ],
    [
      'dnsPolicy None with dnsConfig',
      'exec nodns -- cat /etc/resolv.conf',
      () => 'search example.com\nnameserver 1.1.1.1\noptions ndots:2 edns0\n<exit 0>',
    ],
    ["dnsPolicy Default: the node's", 'exec dflt -- cat /etc/resolv.conf', () => 'nameserver 172.18.0.1\noptions ndots:0\n<exit 0>'],
    [
      'dnsConfig appended and merged',
      'exec extra -- cat /etc/resolv.conf',
      () =>
        'search default.svc.cluster.local svc.cluster.local cluster.local example.com\nnameserver 10.96.0.10\noptions ndots:2\n<exit 0>',
    ],
    [
      'managed /etc/hosts',
      'exec plain -- cat /etc/hosts',
      () =>
        `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${ip('plain')}\tplain\n<exit 0>`,
    ],
    [
      'hosts with subdomain and hostAliases',
      'exec sub -- cat /etc/hosts',
      () =>
        `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${ip('sub')}\tweb-0.web.default.svc.cluster.local\tweb-0\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar\n<exit 0>`,
    ],
  ])('%s', (_n, line, want) => {
    expect(run(c, line)).toBe(want());
  });
});

describe('empty manifests and the server version', () => {
  it.each<[string, string, string]>([
    ['apply, empty stdin', 'apply -f -', ''],
    ['apply, only separators and comments', 'apply -f -', '---\n# nothing\n---\n'],
  ])('%s', (_n, line, stdin) => {
    expect(run(new Cluster({ seed: 1 }), line, stdin)).toBe('<stderr>\nerror: no objects passed to apply\n<exit 1>');
  });

  it.each<[string, string, string]>([
    ['create, empty stdin', '', '<stderr>\nerror: no objects passed to create\n<exit 1>'],
    ['create, one object', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: made}\n', 'configmap/made created\n<exit 0>'],
  ])('%s', (_n, stdin, want) => {
    expect(run(new Cluster({ seed: 1 }), 'create -f -', stdin)).toBe(want);
  });

  it('create -f - twice: AlreadyExists with the source', () => {
    const c = new Cluster({ seed: 1 });
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: made}\n';
    run(c, 'create -f -', cm);
    expect(run(c, 'create -f -', cm)).toBe(
      '<stderr>\nError from server (AlreadyExists): error when creating "STDIN": configmaps "made" already exists\n<exit 1>',
    );
  });

  it('one version: /version, kubectl version and the kubelets agree on v1.33.1', () => {
    const c = new Cluster({ seed: 1 });
    c.settle(60_000);
    expect(SERVER_VERSION_INFO.gitVersion).toBe('v1.33.1');
    expect(SERVER_VERSION_INFO).toBe(VERSION_INFO);
    expect(c.kubectl('version').output).toBe('Client Version: v1.33.1\nKustomize Version: v5.6.0\nServer Version: v1.33.1\n');
    const kubelets = c.list('nodes').map((n) => (n.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo.kubeletVersion);
    expect(kubelets.length).toBeGreaterThan(0);
    expect(new Set(kubelets)).toEqual(new Set(['v1.33.1']));
  });
});
