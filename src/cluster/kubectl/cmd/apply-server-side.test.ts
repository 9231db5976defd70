/**
 * `kubectl apply --server-side` in the kubectl bar (apply-server-side.ts), against
 * staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (v1.33): output `serverside-applied`, the
 * conflict advice text, flag checks in Complete, and the CSA→SSA migration of managedFields.
 * Oracle for the output lines: src/server/testdata/workloads.txt and
 * real-manifests-server-side.txt (real kubectl v1.32 against the engine's HTTP API).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { conflictAdvice } from './apply-server-side';

const cm = (v: string, extra = ''): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n${extra}data:\n  k: "${v}"\n`;
const managers = (c: Cluster): string[] =>
  (c.get('configmaps', 'default', 'a')?.metadata.managedFields ?? []).map(
    (e: any) => `${e.manager}/${e.operation}:${JSON.stringify(e.fieldsV1)}`,
  );
const LA = '"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}';
const ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

describe('kubectl apply --server-side in the kubectl bar', () => {
  it('creates with manager "kubectl" (Apply), prints serverside-applied, writes no last-applied annotation', () => {
    const c = new Cluster({ seed: 1 });
    const r = c.kubectl('apply --server-side -f -', cm('1'));
    expect([r.output, r.error, r.exitCode]).toEqual(['configmap/a serverside-applied\n', null, 0]);
    const o = c.get('configmaps', 'default', 'a')!;
    expect(o.metadata.annotations).toBeUndefined();
    expect(managers(c)).toEqual(['kubectl/Apply:{"f:data":{"f:k":{}}}']);
  });

  const cases: { name: string; steps: [string, string][]; output: string; error: string | null; data: string; managers: string[] }[] = [
    {
      // kube-apiserver's lastAppliedManager (KEP-3517): the fields client-side apply set (still as
      // applied) are taken over by "kubectl" without a conflict, then kubectl migrates the manager
      name: 'a client-side applied field is taken over by kubectl without a conflict (CSA → SSA upgrade)',
      steps: [
        ['apply -f -', cm('1')],
        ['apply --server-side -f -', cm('2')],
      ],
      output: 'configmap/a serverside-applied\n',
      error: null,
      data: '2',
      managers: [`kubectl-last-applied/Apply:{${LA}}`, 'kubectl/Apply:{"f:data":{"f:k":{}}}'],
    },
    {
      name: "another manager gets no upgrade: the conflict prints kubectl's advice and changes nothing",
      steps: [
        ['apply -f -', cm('1')],
        ['apply --server-side --field-manager=other -f -', cm('2')],
      ],
      output: '',
      error: `error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k\n${ADVICE}\n`,
      data: '1',
      managers: [`kubectl-client-side-apply/Update:{${LA},"f:data":{"f:k":{}}}`],
    },
    {
      name: '--force-conflicts takes the field, then migrates the CSA manager (annotation kept under kubectl-last-applied)',
      steps: [
        ['apply -f -', cm('1')],
        ['apply --server-side --force-conflicts -f -', cm('2')],
      ],
      output: 'configmap/a serverside-applied\n',
      error: null,
      data: '2',
      managers: [`kubectl-last-applied/Apply:{${LA}}`, 'kubectl/Apply:{"f:data":{"f:k":{}}}'],
    },
    {
      name: 'the same value is co-owned: no conflict, and the migration moves the CSA fields to kubectl',
      steps: [
        ['apply -f -', cm('1')],
        ['apply --server-side -f -', cm('1')],
      ],
      output: 'configmap/a serverside-applied\n',
      error: null,
      data: '1',
      managers: [`kubectl-last-applied/Apply:{${LA}}`, 'kubectl/Apply:{"f:data":{"f:k":{}}}'],
    },
    {
      name: '--field-manager names the manager; a second manager conflicts with the first',
      steps: [
        ['apply --server-side --field-manager=alice -f -', cm('1')],
        ['apply --server-side --field-manager=bob -f -', cm('2')],
      ],
      output: '',
      error: `error: Apply failed with 1 conflict: conflict with "alice": .data.k\n${ADVICE}\n`,
      data: '1',
      managers: ['alice/Apply:{"f:data":{"f:k":{}}}'],
    },
    {
      name: '--dry-run=server says so and stores nothing',
      steps: [
        ['apply --server-side -f -', cm('1')],
        ['apply --server-side --dry-run=server -f -', cm('3')],
      ],
      output: 'configmap/a serverside-applied (server dry run)\n',
      error: null,
      data: '1',
      managers: ['kubectl/Apply:{"f:data":{"f:k":{}}}'],
    },
    {
      name: 'an undeclared field is refused by structured-merge-diff',
      steps: [
        ['apply --server-side -f -', cm('1')],
        ['apply --server-side -f -', cm('2', 'bogus: 1\n')],
      ],
      output: '',
      error:
        'Error from server (BadRequest): failed to create typed patch object (default/a; /v1, Kind=ConfigMap): .bogus: field not declared in schema\n',
      data: '1',
      managers: ['kubectl/Apply:{"f:data":{"f:k":{}}}'],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const c = new Cluster({ seed: 1 });
      let last = { output: '', error: null as string | null };
      for (const [line, stdin] of tc.steps) last = c.kubectl(line, stdin);
      expect([last.output, last.error]).toEqual([tc.output, tc.error]);
      expect(c.get('configmaps', 'default', 'a')!.data.k).toBe(tc.data);
      expect(managers(c)).toEqual(tc.managers);
    });
  }

  const flagErrors: [string, string][] = [
    ['apply --force-conflicts -f -', 'error: --force-conflicts only works with --server-side\n'],
    [
      'apply --server-side --dry-run=client -f -',
      "error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)\n",
    ],
    ['apply --server-side --force -f -', 'error: --force cannot be used with --server-side\n'],
  ];
  for (const [line, error] of flagErrors) {
    it(`refuses: ${line}`, () => {
      const c = new Cluster({ seed: 1 });
      const r = c.kubectl(line, cm('1'));
      expect([r.output, r.error, r.exitCode]).toEqual(['', error, 1]);
      expect(c.get('configmaps', 'default', 'a')).toBeUndefined();
    });
  }

  it('the seed manifest server-side applied prints what real kubectl printed against the engine (workloads.txt)', () => {
    const c = new Cluster({ seed: 1 });
    const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: peekcart\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: peekcart}\n  template:\n    metadata:\n      labels: {app: peekcart}\n    spec:\n      containers:\n      - name: peekcart\n        image: nginx\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: peekcart\nspec:\n  selector: {app: peekcart}\n  ports:\n  - port: 80\n`;
    expect(c.kubectl('apply --server-side -f -', text).output).toBe(
      'deployment.apps/peekcart serverside-applied\nservice/peekcart serverside-applied\n',
    );
    expect(conflictAdvice('x').startsWith('x\nPlease review the fields above--they')).toBe(true);
  });
});
