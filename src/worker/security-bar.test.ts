/**
 * Issue 14 §1, §5, §6 from the in-app kubectl bar (ClusterHost.kubectl), table-driven: each
 * line prints what kubectl v1.33 prints against kube-apiserver; no prototype changes; a
 * hostile line kept in the session log replays to the same harmless result after a reload.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { testHost } from './test-host';

const PROTOS = [Object.prototype, Array.prototype, Function.prototype] as const;
const protoKeys = () => PROTOS.map((p) => Object.getOwnPropertyNames(p).sort().join(','));
const clean = protoKeys();
afterEach(() => expect(protoKeys()).toEqual(clean));

const POLLUTE = `patch cm pc --type=json -p '[{"op":"add","path":"/__proto__/deletionTimestamp","value":"2026-01-01T00:00:00Z"}]'`;

interface Case {
  name: string;
  /** lines run first (their output is not checked) */
  setup?: string[];
  line: string;
  output?: string;
  error?: string | null;
}

const CASES: Case[] = [
  {
    name: 'JSON patch through __proto__: 422, nothing written',
    setup: ['create configmap pc --from-literal=a=b'],
    line: POLLUTE,
    output: '',
    error: 'The request is invalid: the server rejected our request due to an error in our request\n',
  },
  {
    name: 'merge patch with a top-level __proto__: an unknown field, dropped with a warning',
    setup: ['create configmap pc --from-literal=a=b'],
    line: `patch cm pc --type=merge -p '{"__proto__":{"deletionTimestamp":"2026-01-01T00:00:00Z"}}'`,
    output: 'configmap/pc patched (no change)\n',
    error: 'Warning: unknown field "__proto__"\n',
  },
  {
    name: '--from-literal=__proto__=x is an ordinary key',
    setup: ['create configmap pc --from-literal=__proto__=x --from-literal=constructor=y'],
    line: 'get cm pc -o jsonpath={.data}',
    output: '{"__proto__":"x","constructor":"y"}',
    error: null,
  },
  {
    name: 'label constructor=x on an object without labels',
    setup: ['create configmap pc --from-literal=a=b'],
    line: 'label cm pc constructor=x',
    output: 'configmap/pc labeled\n',
    error: null,
  },
  {
    name: 'label constructor twice without --overwrite: its own value is named',
    setup: ['create configmap pc --from-literal=a=b', 'label cm pc constructor=x'],
    line: 'label cm pc constructor=y',
    output: '',
    error: "error: 'constructor' already has a value (x), and --overwrite is false\n",
  },
  {
    name: 'annotate constructor and prototype',
    setup: ['create configmap pc --from-literal=a=b'],
    line: 'annotate cm pc constructor=x prototype=y',
    output: 'configmap/pc annotated\n',
    error: null,
  },
  {
    name: 'removing an inherited name is "not found"',
    setup: ['create configmap pc --from-literal=a=b'],
    line: 'label cm pc toString-',
    output: 'label "toString" not found.\nconfigmap/pc not labeled\n',
    error: null,
  },
  {
    name: 'jsonpath does not see inherited members',
    setup: ['create configmap pc --from-literal=a=b'],
    line: 'get cm pc -o jsonpath={.metadata.constructor}{.data.toString}',
    output: '',
    error: null,
  },
  {
    name: 'custom-columns does not see inherited members',
    setup: ['create configmap pc --from-literal=a=b'],
    line: 'get cm pc -o custom-columns=C:.data.constructor,P:.metadata.__proto__',
    output: 'C        P\n<none>   <none>\n',
    error: null,
  },
  {
    name: "a malformed label selector: 400 with selector.go's text",
    line: "get pods -l 'a b'",
    output: '',
    error:
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "a b", field selector "": unable to parse requirement: found \'b\', expected: in, notin, =, ==, !=, gt, lt\n',
  },
  {
    name: 'a JSON patch on a missing path of the scale subresource',
    setup: ['create deployment web --image=nginx'],
    line: `patch deployment web --subresource=scale --type=json -p '[{"op":"replace","path":"/spec/nope/x","value":1}]'`,
    output: '',
    error: 'The request is invalid: the server rejected our request due to an error in our request\n',
  },
  {
    name: 'rollout history with only a selector: kubectl\'s "required resource not specified" (was a TypeError; found by the fuzz)',
    line: 'rollout history -l app=x',
    output: '',
    error: 'error: required resource not specified\n',
  },
  {
    name: 'delete namespace default is Forbidden',
    line: 'delete namespace default',
    output: '',
    error: 'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n',
  },
  {
    name: 'delete namespace kube-system is Forbidden',
    line: 'delete namespace kube-system',
    output: '',
    error: 'Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted\n',
  },
  {
    name: 'delete namespace kube-public is Forbidden',
    line: 'delete namespace kube-public',
    output: '',
    error: 'Error from server (Forbidden): namespaces "kube-public" is forbidden: this namespace may not be deleted\n',
  },
];

describe('hostile kubectl bar lines (issue 14)', () => {
  it.each(CASES)('$name', ({ setup, line, output, error }) => {
    const { host } = testHost({ nodes: 1, subscribe: false });
    for (const l of setup ?? []) expect(host.kubectl(l).exitCode, l).toBe(0);
    const r = host.kubectl(line);
    if (output !== undefined) expect(r.output).toBe(output);
    if (error !== undefined) expect(r.error).toBe(error);
  });

  it('YAML with __proto__ and constructor keys applies as ordinary keys, and is unchanged when applied again', () => {
    const { host } = testHost({ nodes: 1, subscribe: false });
    const yaml =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pc\n  labels: {constructor: a}\ndata:\n  __proto__: x\n  constructor: c\n';
    expect(host.apply(yaml).map((r) => `${r.object} ${r.action}`)).toEqual(['configmap/pc created']);
    expect(host.apply(yaml).map((r) => `${r.object} ${r.action}`)).toEqual(['configmap/pc unchanged']);
    expect(host.kubectl('get cm pc -o jsonpath={.data}{.metadata.labels}').output).toBe(
      '{"__proto__":"x","constructor":"c"}{"constructor":"a"}',
    );
  });

  it.each([
    [
      'a JSON 6902 patch through /__proto__ fails as kustomize does',
      '- op: add\n      path: /__proto__/polluted\n      value: yes',
      '',
      'error: add operation does not apply: doc is missing path: "/__proto__/polluted": missing value\n',
    ],
    [
      'a JSON 6902 patch adding data/__proto__ is an ordinary key',
      '- op: add\n      path: /data/__proto__\n      value: z',
      'apiVersion: v1\ndata:\n  __proto__: z\n  a: b\nkind: ConfigMap\nmetadata:\n  labels:\n    constructor: x\n  name: pc\n',
      '',
    ],
  ])('kustomize: %s', (_name, patch, stdout, stderr) => {
    const { host } = testHost({ nodes: 1, subscribe: false });
    const files = {
      'k/kustomization.yaml': `resources: [cm.yaml]\nlabels:\n- pairs: {constructor: x}\npatches:\n- target: {kind: ConfigMap}\n  patch: |-\n    ${patch}\n`,
      'k/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: pc}\ndata: {a: b}\n',
    };
    expect(host.kustomizeBuild(files, 'k')).toEqual({ stdout, stderr, code: stderr ? 1 : 0 });
  });

  it('after the __proto__ patch the cluster is intact: no Pod terminating, nodes Ready, creates work; the same after a reload and a Reset', () => {
    const a = testHost({ nodes: 2 });
    a.host.kubectl('create configmap pc --from-literal=a=b');
    a.host.kubectl('create deployment web --image=nginx --replicas=2');
    a.run(3000);
    expect(a.host.kubectl(POLLUTE).exitCode).toBe(1);
    a.run(3000);
    const check = (h: typeof a.host) => {
      expect(h.kubectl("get pods -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.deletionTimestamp};{end}'")).toMatchObject({
        output: expect.stringMatching(/^(web-[a-z0-9]+-[a-z0-9]+=;){2}$/),
        exitCode: 0,
      });
      expect(
        h.kubectl('get nodes -o jsonpath=\'{range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}\''),
      ).toMatchObject({ output: 'control-plane=True node-1=True node-2=True ', exitCode: 0 });
      expect(h.kubectl('create configmap after --from-literal=k=v')).toMatchObject({ output: 'configmap/after created\n', exitCode: 0 });
    };
    // a reload: the session log (with the hostile line) replayed on a fresh cluster
    const log = structuredClone(a.host.exportState());
    expect(log.steps.some(({ step: s }) => s.kind === 'kubectl' && s.command === POLLUTE)).toBe(true);
    const b = testHost({ nodes: 2, subscribe: false });
    b.host.importState(log);
    check(b.host);
    check(a.host);
    a.host.reset();
    a.run(3000);
    a.host.kubectl('create deployment web --image=nginx --replicas=2');
    a.run(3000);
    check(a.host);
  });
});
