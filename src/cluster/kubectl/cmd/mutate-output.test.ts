/**
 * What kubectl v1.33 sends and prints for scale, label, annotate, set image and rollout, checked
 * against the real kubectl's -v=8 requests to the relay's own apiserver:
 * - `-o name` prints `<type>/<name>`, `-o yaml|json` the object (scale and rollout undo: the one
 *   the builder read; label, annotate, set image, rollout restart/pause/resume: the server's
 *   answer), and no " (dry run)" suffix goes with an -o;
 * - label / annotate send their PATCH even when nothing changes (`{}`);
 * - scale with a precondition GETs …/scale before its PUT; rollout undo GETs the object again and
 *   LISTs its ReplicaSets by the selector before the JSON patch, and refuses a paused Deployment
 *   only after finding the revision.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { setImagePatch } from './mutate';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: default}
spec:
  schedule: "0 0 1 1 *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: busybox:1.36}]
`;

function cluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.apply(DEPLOY);
  c.advance(10_000);
  return c;
}

/** kubectl's requests after `after`: "verb resource". */
function requests(c: Cluster, after: number): string[] {
  return c.relay
    .all()
    .filter((h) => h.seq > after && h.from === 'kubectl' && h.kind === 'request')
    .map((h) => `${h.verb} ${h.resource}`);
}

describe('mutating commands: output and requests', () => {
  const cases: { line: string; setup?: string[]; output: string | RegExp; error?: string; reqs: string[] }[] = [
    {
      line: 'scale deploy/web --replicas=3 -o name',
      output: 'deployment.apps/web\n',
      reqs: ['get deployments', 'patch deployments/scale'],
    },
    {
      line: 'scale deploy/web --replicas=3 -o yaml',
      output: /^apiVersion: apps\/v1\nkind: Deployment\n[^]*\n {2}replicas: 2\n/,
      reqs: ['get deployments', 'patch deployments/scale'],
    },
    {
      line: 'scale deploy/web --replicas=3 --dry-run=server -o name',
      output: 'deployment.apps/web\n',
      reqs: ['get deployments', 'patch deployments/scale'],
    },
    {
      line: 'scale deploy/web --replicas=3 --current-replicas=2',
      output: 'deployment.apps/web scaled\n',
      reqs: ['get deployments', 'get deployments/scale', 'update deployments/scale'],
    },
    {
      line: 'scale deploy/web --replicas=3 --current-replicas=1',
      output: '',
      error: 'error: Expected replicas to be 1, was 2\n',
      reqs: ['get deployments', 'get deployments/scale'],
    },
    {
      line: 'scale cronjob/cj deploy/web --replicas=3',
      output: '',
      error: 'Error from server (NotFound): the server could not find the requested resource\n',
      reqs: ['get cronjobs', 'get deployments', 'patch cronjobs/scale'],
    },
    {
      line: 'scale deploy/nope1 deploy/web deploy/nope2 --replicas=3',
      output: 'deployment.apps/web scaled\n',
      error:
        'Error from server (NotFound): deployments.apps "nope1" not found\nError from server (NotFound): deployments.apps "nope2" not found\n',
      reqs: ['get deployments', 'get deployments', 'get deployments', 'patch deployments/scale'],
    },
    {
      line: 'scale deploy/nope1 deploy/nope2 --replicas=3',
      output: '',
      error: 'error: no objects passed to scale [deployments.apps "nope1" not found, deployments.apps "nope2" not found]\n',
      reqs: ['get deployments', 'get deployments'],
    },
    {
      line: 'scale deploy -l app=nomatch --replicas=3',
      output: '',
      error: 'error: no objects passed to scale\n',
      reqs: ['list deployments'],
    },
    {
      line: 'scale deploy/web --replicas=3 --as=jane',
      output: '',
      error:
        'error: no objects passed to scale deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "default"\n',
      reqs: ['get deployments'],
    },
    {
      line: 'scale deploy/web cronjob/cj --replicas=3 --resource-version=5',
      output: '',
      error: 'error: cannot use --resource-version with multiple resources\n',
      reqs: ['get deployments', 'get cronjobs'],
    },
    { line: 'label deploy/web tier=fe -o name', output: 'deployment.apps/web\n', reqs: ['get deployments', 'patch deployments'] },
    {
      line: 'label deploy/web tier=fe -o json',
      output: /^\{\n {4}"apiVersion": "apps\/v1",[^]*"tier": "fe"/,
      reqs: ['get deployments', 'patch deployments'],
    },
    {
      line: 'label deploy/web tier=fe',
      setup: ['label deploy/web tier=fe'],
      output: 'deployment.apps/web not labeled\n',
      reqs: ['get deployments', 'patch deployments'],
    },
    {
      line: 'label deploy/web nope-',
      output: 'label "nope" not found.\ndeployment.apps/web not labeled\n',
      reqs: ['get deployments', 'patch deployments'],
    },
    { line: 'label deploy/web nope- --dry-run=client', output: 'deployment.apps/web labeled (dry run)\n', reqs: ['get deployments'] },
    {
      line: 'label deploy/web x=1 x- y=2 y-',
      output: '',
      error: 'error: can not both modify and remove a label in the same command\n',
      reqs: [],
    },
    { line: 'label deploy/web zz=1 --list', output: 'zz=1\n', reqs: ['get deployments'] },
    {
      line: 'annotate deploy/web x=1 x- y=2 y- --list',
      output: '',
      error: 'error: can not both modify and remove the following annotation(s) in the same command: x, y\n',
      reqs: [],
    },
    {
      line: 'annotate deploy/web a=b',
      setup: ['annotate deploy/web a=b'],
      output: 'deployment.apps/web annotated\n',
      reqs: ['get deployments', 'patch deployments'],
    },
    {
      line: 'set image deploy/web web=nginx:1.28 -o name',
      output: 'deployment.apps/web\n',
      reqs: ['get deployments', 'patch deployments'],
    },
    {
      line: 'set image deploy/web web=nginx:1.28 nope=x',
      output: 'deployment.apps/web image updated\n',
      error: 'error: unable to find container named "nope"\n',
      reqs: ['get deployments', 'patch deployments'],
    },
    { line: 'set image deploy/web nope=x', output: '', error: 'error: unable to find container named "nope"\n', reqs: ['get deployments'] },
    { line: 'rollout restart deploy', output: 'deployment.apps/web restarted\n', reqs: ['list deployments', 'patch deployments'] },
    {
      line: 'rollout history deploy/web',
      output: 'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n\n',
      reqs: ['get deployments', 'get deployments', 'list replicasets'],
    },
    {
      line: 'rollout history cronjob/cj',
      output: '',
      error: 'error: no history viewer has been implemented for "CronJob.batch"\n',
      reqs: ['get cronjobs'],
    },
    {
      line: 'rollout undo cronjob/cj',
      output: '',
      error: 'error: no rollbacker has been implemented for "CronJob.batch"\n',
      reqs: ['get cronjobs'],
    },
    {
      line: 'rollout status cronjob/cj',
      output: '',
      error: 'error: no status viewer has been implemented for CronJob.batch\n',
      reqs: ['get cronjobs'],
    },
    { line: 'rollout restart deploy/web -o name', output: 'deployment.apps/web\n', reqs: ['get deployments', 'patch deployments'] },
    { line: 'rollout pause deploy/web -o name', output: 'deployment.apps/web\n', reqs: ['get deployments', 'patch deployments'] },
    {
      line: 'rollout undo deploy/web',
      setup: ['set image deploy/web web=nginx:1.28'],
      output: 'deployment.apps/web rolled back\n',
      reqs: ['get deployments', 'get deployments', 'list replicasets', 'patch deployments'],
    },
    {
      line: 'rollout undo deploy/web',
      setup: ['set image deploy/web web=nginx:1.28', 'rollout pause deploy/web'],
      output: '',
      error: "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n",
      reqs: ['get deployments', 'get deployments', 'list replicasets'],
    },
    {
      line: 'rollout undo deploy/web --to-revision=9',
      setup: ['rollout pause deploy/web'],
      output: '',
      error: 'error: unable to find specified revision 9 in history\n',
      reqs: ['get deployments', 'get deployments', 'list replicasets'],
    },
  ];
  for (const tc of cases)
    it(`${tc.setup ? tc.setup.join(' ; ') + ' ; ' : ''}${tc.line}`, () => {
      const c = cluster();
      for (const s of tc.setup ?? []) {
        expect(c.kubectl(s).exitCode).toBe(0);
        c.advance(10_000);
      }
      const before = c.relay.lastSeq;
      const r = c.kubectl(tc.line);
      if (typeof tc.output === 'string') expect(r.output).toBe(tc.output);
      else expect(r.output).toMatch(tc.output);
      expect(r.error).toBe(tc.error ?? null);
      expect(requests(c, before)).toEqual(tc.reqs);
    });

  it('a label PATCH that changes nothing writes nothing (no new resourceVersion; its answer drawn as patch)', () => {
    const c = cluster();
    c.kubectl('label deploy/web tier=fe');
    const rv = c.get('deployments.apps', 'default', 'web')!.metadata.resourceVersion;
    const before = c.relay.lastSeq;
    c.kubectl('label deploy/web tier=fe');
    expect(c.get('deployments.apps', 'default', 'web')!.metadata.resourceVersion).toBe(rv);
    const answers = c.relay.all().filter((h) => h.seq > before && h.to === 'kubectl' && h.kind === 'response');
    expect(answers.map((h) => `${h.verb} ${h.summary}`)).toEqual([
      'get 200 OK Deployment default/web',
      'patch 200 OK (no change) Deployment default/web',
    ]);
  });
});

describe('setImagePatch', () => {
  it("`set image deploy/web '*=busybox:1.37'`: the body real kubectl sends, byte for byte (directives first)", () => {
    const spec = {
      initContainers: [{ name: 'init', image: 'a' }],
      containers: [
        { name: 'nginx', image: 'a' },
        { name: 'side', image: 'a' },
      ],
    };
    const after = structuredClone(spec);
    for (const c of [...after.initContainers, ...after.containers]) c.image = 'busybox:1.37';
    const obj = { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'web' }, spec: { template: { spec } } };
    expect(JSON.stringify(setImagePatch(obj, spec, after))).toBe(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"},{"name":"side"}],' +
        '"$setElementOrder/initContainers":[{"name":"init"}],"containers":[{"image":"busybox:1.37","name":"nginx"},' +
        '{"image":"busybox:1.37","name":"side"}],"initContainers":[{"image":"busybox:1.37","name":"init"}]}}}}',
    );
  });
});

describe('RBAC denials of the write, in kubectl’s words (jane may only get and list deployments)', () => {
  const RO = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: ro, namespace: default}
rules: [{apiGroups: [apps], resources: [deployments], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ro, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ro}
subjects: [{kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}]
`;
  const denied = (verb: string, res: string, name = ' "web"') =>
    `${res === 'replicasets' ? 'replicasets.apps' : 'deployments.apps'}${name} is forbidden: User "jane" cannot ${verb} resource "${res}" in API group "apps" in the namespace "default"`;
  const cases = [
    { line: 'scale deploy/web --replicas=3', error: `Error from server (Forbidden): ${denied('patch', 'deployments/scale')}` },
    {
      line: 'scale deploy/web --replicas=3 --current-replicas=2',
      error: `Error from server (Forbidden): ${denied('get', 'deployments/scale')}`,
    },
    { line: 'label deploy/web q=1', error: `Error from server (Forbidden): ${denied('patch', 'deployments')}` },
    {
      line: 'set image deploy/web web=nginx:1.28',
      error: `error: failed to patch image update to pod template: ${denied('patch', 'deployments')}`,
    },
    { line: 'rollout restart deploy/web', error: `error: failed to patch: ${denied('patch', 'deployments')}` },
    { line: 'rollout pause deploy/web', error: `error: failed to patch: ${denied('patch', 'deployments')}` },
    {
      line: 'rollout undo deploy/web',
      error: `error: failed to retrieve replica sets from deployment web: ${denied('list', 'replicasets', '')}`,
    },
  ];
  for (const tc of cases)
    it(tc.line, () => {
      const c = cluster();
      c.apply(RO);
      const r = c.kubectl(`${tc.line} --as=jane`);
      expect(r.output).toBe('');
      expect(r.error).toBe(`${tc.error}\n`);
      expect(r.exitCode).toBe(1);
    });
});
