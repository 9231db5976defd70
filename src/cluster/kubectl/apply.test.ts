import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { freshCluster } from './apply.fixture';
import { LAST_APPLIED, applyManifest, runApply } from './apply';
import { installCRDSupport } from '../apiserver/crd';
import { createThreeWayPatch, goJSON } from '../apimachinery/strategic-merge';

const DEPLOY = (image = 'nginx:1.27', extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: ${image}
        ports:
        - containerPort: 80
${extra}`;

describe('apply: created → unchanged → configured', () => {
  it('follows the sequence and keeps the last-applied annotation as kubectl writes it', () => {
    const { kubectl, api } = freshCluster();
    expect(runApply(kubectl, DEPLOY()).stdout).toBe('deployment.apps/web created\n');
    const live = api.getObject('deployments.apps', 'default', 'web')!;
    expect(live.metadata.annotations![LAST_APPLIED]).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"web"},"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"web","ports":[{"containerPort":80}]}]}}}}\n',
    );
    const rv = live.metadata.resourceVersion;
    expect(runApply(kubectl, DEPLOY()).stdout).toBe('deployment.apps/web unchanged\n');
    expect(api.getObject('deployments.apps', 'default', 'web')!.metadata.resourceVersion).toBe(rv);
    const r = applyManifest(kubectl, DEPLOY('nginx:1.28'));
    expect(r.map((x) => [x.object, x.action, x.namespace])).toEqual([['deployment.apps/web', 'configured', 'default']]);
    const after = api.getObject('deployments.apps', 'default', 'web')!;
    expect(after.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    expect(after.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(after.metadata.generation).toBe(2);
  });

  it('keeps replicas set by `kubectl scale` (omitted from both configs) and resets it when the manifest names it', () => {
    const { kubectl } = freshCluster();
    const d = kubectl.resource('apps', 'deployments');
    applyManifest(kubectl, DEPLOY());
    const cur = d.get('default', 'web');
    d.update({ ...cur, spec: { ...cur.spec, replicas: 5 } });
    expect(applyManifest(kubectl, DEPLOY())[0].action).toBe('unchanged');
    expect(applyManifest(kubectl, DEPLOY('nginx:1.28'))[0].action).toBe('configured');
    expect(d.get('default', 'web').spec.replicas).toBe(5);
    const withReplicas = DEPLOY('nginx:1.28').replace('spec:\n  selector', 'spec:\n  replicas: 3\n  selector');
    expect(applyManifest(kubectl, withReplicas)[0].action).toBe('configured');
    expect(d.get('default', 'web').spec.replicas).toBe(3);
  });

  it('deletes what the manifest no longer says and merges containers by name', () => {
    const { kubectl } = freshCluster();
    const d = kubectl.resource('apps', 'deployments');
    applyManifest(
      kubectl,
      DEPLOY(
        'nginx:1.27',
        '        env:\n        - name: A\n          value: "1"\n        - name: B\n          value: "2"\n      - name: sidecar\n        image: busybox:1.36\n',
      ),
    );
    const two = d.get('default', 'web');
    expect(two.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['web', 'sidecar']);
    applyManifest(
      kubectl,
      DEPLOY('nginx:1.27', '        env:\n        - name: B\n          value: "3"\n').replace('  labels:\n    app: web\nspec', 'spec'),
    );
    const one = d.get('default', 'web');
    expect(one.metadata.labels).toBeUndefined();
    expect(one.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['web']);
    expect(one.spec.template.spec.containers[0].env).toEqual([{ name: 'B', value: '3' }]);
  });

  it('computes the patch kubectl sends for an image change', () => {
    const original = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'web', image: 'a:1' }] } } },
    };
    const current = {
      ...original,
      metadata: { name: 'web', uid: 'u', resourceVersion: '7' },
      spec: { replicas: 4, template: { spec: { containers: [{ name: 'web', image: 'a:1', imagePullPolicy: 'IfNotPresent' }] } } },
    };
    const modified = { ...original, spec: { template: { spec: { containers: [{ name: 'web', image: 'a:2' }] } } } };
    expect(goJSON(createThreeWayPatch(original, modified, current, { kind: 'Deployment', strategic: true }))).toBe(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"a:2","name":"web"}]}}}}',
    );
    expect(createThreeWayPatch(original, original, current, { kind: 'Deployment', strategic: true })).toEqual({});
  });

  it('warns about a missing last-applied annotation and patches it in', () => {
    const { kubectl, api } = freshCluster();
    kubectl
      .resource('', 'configmaps')
      .create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } });
    const [r] = applyManifest(kubectl, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n');
    expect(r.action).toBe('configured');
    expect(r.warnings).toEqual([
      'resource configmaps/c is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.',
    ]);
    expect(api.getObject('configmaps', 'default', 'c')!.metadata.annotations![LAST_APPLIED]).toContain('"data":{"a":"1"}');
  });
});

describe('apply: namespaces, dry runs, field validation', () => {
  it('defaults the namespace; cluster-scoped objects have none', () => {
    const { kubectl } = freshCluster();
    const r = applyManifest(
      kubectl,
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
      { defaultNamespace: 'team' },
    );
    expect(r.map((x) => [x.object, x.namespace, x.line, x.documentIndex])).toEqual([
      ['namespace/team', null, 1, 0],
      ['configmap/c', 'team', 6, 1],
    ]);
  });

  it('dry runs store nothing and say so', () => {
    const { kubectl, api } = freshCluster();
    expect(runApply(kubectl, DEPLOY(), { dryRun: 'client' }).stdout).toBe('deployment.apps/web created (dry run)\n');
    expect(runApply(kubectl, DEPLOY(), { dryRun: 'server' }).stdout).toBe('deployment.apps/web created (server dry run)\n');
    expect(api.getObject('deployments.apps', 'default', 'web')).toBeUndefined();
  });

  const unknown = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndatta:\n  a: "1"\n';
  it('strict validation rejects unknown fields', () => {
    const { kubectl } = freshCluster();
    const [r] = applyManifest(kubectl, unknown);
    expect(r.message).toBe(
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "datta"',
    );
  });

  it('warn validation warns and drops them', () => {
    const { kubectl, api } = freshCluster();
    const [r] = applyManifest(kubectl, unknown.replace('datta', 'spec:\n  foo: 1\ndatta'), { validate: 'warn' });
    expect([r.action, r.warnings]).toEqual(['created', ['unknown field "spec"', 'unknown field "datta"']]);
    expect(api.getObject('configmaps', 'default', 'c')!.datta).toBeUndefined();
  });

  it('`__proto__` keys are inert: a map key is data, a struct key an unknown field', () => {
    const { kubectl } = freshCluster();
    const [r] = applyManifest(
      kubectl,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  __proto__:\n    polluted: "yes"\n  labels:\n    __proto__: "x"\n',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.action).toBe('error');
    expect(r.message).toBe(
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.__proto__"',
    );
  });
});

/** Inputs whose kubectl v1.32 stderr is in testdata/golden/yaml-errors.txt, in order. */
const YAML_ERROR_CASES = [
  'a: b\nc: d: e\n',
  'a: "abc\n',
  'a:\n\t- b\n',
  'a: *x\n',
  'metadata:\n  name: x\n',
  'kind: Pod\nmetadata:\n  name: x\n',
  'apiVersion: v1\nmetadata:\n  name: x\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: 1\n   b: 2\n',
];

describe('apply: bad input', () => {
  const goldens = readFileSync(new URL('./testdata/golden/yaml-errors.txt', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  it.each(YAML_ERROR_CASES.map((c, i) => [JSON.stringify(c), c, goldens[i]]))("%s → kubectl's message", (_n, input, want) => {
    const { kubectl } = freshCluster();
    const r = runApply(kubectl, input);
    expect(r.results).toHaveLength(1);
    expect(r.results[0].action).toBe('error');
    expect(r.results[0].message).toBe(want);
  });

  it('a syntax error stops the stream: earlier documents are applied, later ones never read', () => {
    const { kubectl, api } = freshCluster();
    const r = runApply(
      kubectl,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\nc: d: e\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z\n',
    );
    expect(r.results.map((x) => x.action)).toEqual(['created', 'error']);
    expect(r.results[1].message).toBe(
      'error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context',
    );
    expect(r.results[1].line).toBe(10);
    expect(api.getObject('configmaps', 'default', 'z')).toBeUndefined();
  });

  it('alias bombs are refused', () => {
    const { kubectl } = freshCluster();
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`,
      );
    const r = runApply(kubectl, `${lines.join('\n')}\n`);
    expect(r.results[0].action).toBe('error');
    expect(r.results[0].message).toMatch(/^error: error parsing STDIN: error converting YAML to JSON: yaml: /);
  });

  it('empty documents and bare separators are skipped; List items are flattened', () => {
    const { kubectl } = freshCluster();
    const r = applyManifest(
      kubectl,
      '---\n---\n# only a comment\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n',
    );
    expect(r.map((x) => x.object)).toEqual(['configmap/a', 'configmap/b']);
  });

  it('generateName cannot be used with apply', () => {
    const { kubectl } = freshCluster();
    expect(applyManifest(kubectl, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: x-\n')[0].message).toBe(
      'error: from x-: cannot use generate name with apply',
    );
  });

  it('several errors print as kubectl aggregates them (no "error: " prefix, source in server errors)', () => {
    const { kubectl } = freshCluster();
    const r = runApply(
      kubectl,
      'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: old\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: nowhere\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bad\nspec:\n  template:\n    spec:\n      containers: []\n',
    );
    expect(r.results.map((x) => x.message)).toEqual([
      'resource mapping not found for name: "old" namespace: "" from "STDIN": no matches for kind "Deployment" in version "extensions/v1beta1"\nensure CRDs are installed first',
      'Error from server (NotFound): error when creating "STDIN": namespaces "nowhere" not found',
      'Error from server (Invalid): error when creating "STDIN": Deployment.apps "bad" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`, spec.template.spec.containers: Required value]',
    ]);
    expect(r.stderr).toBe(`${r.results.map((x) => x.message).join('\n')}\n`);
  });
});

describe('apply: CRDs', () => {
  it('a CRD and its instance in one file: the instance has no mapping yet; the next apply creates it', () => {
    const { kubectl, api, clock } = freshCluster();
    installCRDSupport(api);
    const text = readFileSync(new URL('../../examples/real/crd-example-with-instance.yaml', import.meta.url), 'utf8');
    const first = applyManifest(kubectl, text);
    expect(first.map((x) => [x.object, x.action])).toEqual([
      ['customresourcedefinition.apiextensions.k8s.io/examples.test.com', 'created'],
      ['example.test.com/test', 'error'],
    ]);
    expect(first[1].message).toBe(
      'error: resource mapping not found for name: "test" namespace: "default" from "STDIN": no matches for kind "Example" in version "test.com/v1"\nensure CRDs are installed first',
    );
    clock.advance(10);
    const second = applyManifest(kubectl, text);
    expect(second.map((x) => [x.object, x.action])).toEqual([
      ['customresourcedefinition.apiextensions.k8s.io/examples.test.com', 'unchanged'],
      ['example.test.com/test', 'created'],
    ]);
    expect(applyManifest(kubectl, text.replace('test: test', 'test: changed'))[1].action).toBe('configured');
  });
});
