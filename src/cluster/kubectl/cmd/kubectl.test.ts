/**
 * kubectl commands against the real Cluster (seed 1, the peekcart seed manifest, settled):
 * exact stdout/stderr as kubectl v1.33 prints them. Client-side outputs are compared with
 * goldens captured from a real kubectl binary in ../testdata/create-*.yaml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const SEED = readFileSync(join(__dirname, '../../../scenarios/peekcart.yaml'), 'utf8');
const TESTDATA = join(__dirname, '../testdata');

function seeded(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.apply(SEED);
  c.settle(600_000);
  return c;
}

/** stdout, then stderr after a marker, as one string (easy to compare exactly). */
function run(c: Cluster, line: string): string {
  const r = c.kubectl(line);
  return r.output + (r.error !== null ? `<stderr>\n${r.error}` : '') + `<exit ${r.exitCode}>`;
}

describe('kubectl get', () => {
  let c: Cluster;
  beforeEach(() => {
    c = seeded();
  });
  const cases: [string, string][] = [
    ['pods', 'get pods'],
    ['pods wide', 'get pods -o wide'],
    ['pods all namespaces', 'get pods -A'],
    ['nodes', 'get nodes'],
    ['nodes wide', 'get nodes -o wide'],
    ['deployments wide', 'get deploy -o wide'],
    ['replicasets', 'get rs'],
    ['services wide', 'get svc -o wide'],
    ['endpointslices', 'get endpointslices'],
    ['endpoints', 'get endpoints'],
    ['events for pods', 'get events --field-selector involvedObject.kind=Pod'],
    ['all', 'get all'],
    ['names', 'get pods -o name'],
    ['jsonpath items', "get pods -o jsonpath='{.items[*].spec.nodeName}'"],
    [
      'jsonpath range',
      `get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.addresses[?(@.type=="InternalIP")].address}{"\\n"}{end}'`,
    ],
    ['custom columns', 'get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IP:.status.podIP'],
    ['show labels', 'get deploy,svc --show-labels'],
    ['no headers, sort by name desc-able field', 'get nodes --no-headers --sort-by=.metadata.name'],
    ['label selector', 'get pods -l app=nope'],
    ['one by name', 'get deploy peekcart'],
    ['type/name', 'get deployment/peekcart service/peekcart'],
    ['not found', 'get pod nope'],
    ['unknown type', 'get widgets'],
    ['namespaces', 'get ns'],
    ['storage classes', 'get sc'],
    ['crds', 'get crd'],
    ['machines (CRD printer columns)', 'get machines'],
    ['configmaps in kube-system', 'get cm -n kube-system'],
    ['serviceaccounts', 'get sa'],
    ['leases', 'get leases -n kube-node-lease'],
  ];
  it.each(cases)('%s', (_name, line) => {
    expect(run(c, line)).toMatchSnapshot();
  });

  it('yaml of one object is the object; of a list a v1 List', () => {
    const one = c.kubectl('get deploy peekcart -o yaml').output;
    expect(one.startsWith('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n')).toBe(true);
    const list = c.kubectl('get svc -o yaml').output;
    expect(list.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Service\n')).toBe(true);
    expect(list.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    const json = JSON.parse(c.kubectl('get pods -o json').output);
    expect(json.kind).toBe('List');
    expect(json.items).toHaveLength(3);
  });
});

describe('kubectl describe', () => {
  it('pod, node, deployment, replicaset, service, custom resource', () => {
    const c = seeded();
    const pod = c.list('pods', 'default')[0].metadata.name;
    const rs = c.list('replicasets.apps', 'default')[0].metadata.name;
    expect(run(c, `describe pod ${pod}`)).toMatchSnapshot();
    expect(run(c, 'describe node node-2')).toMatchSnapshot();
    expect(run(c, 'describe deployment peekcart')).toMatchSnapshot();
    expect(run(c, `describe rs ${rs}`)).toMatchSnapshot();
    expect(run(c, 'describe svc peekcart')).toMatchSnapshot();
    expect(run(c, 'describe machine node-1')).toMatchSnapshot();
    expect(run(c, 'describe pod nope')).toBe('<stderr>\nError from server (NotFound): pods "nope" not found\n<exit 1>');
  });
});

describe('kubectl logs', () => {
  it('errors as the apiserver and kubelet return them', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(SEED);
    c.advance(200);
    const pod = c.list('pods', 'default')[0].metadata.name;
    expect(run(c, `logs ${pod}`)).toBe(
      `<stderr>\nError from server (BadRequest): container "peekcart" in pod "${pod}" is waiting to start: ContainerCreating\n<exit 1>`,
    );
    expect(run(c, `logs ${pod} -c nope`)).toBe(`<stderr>\nerror: container nope is not valid for pod ${pod}\n<exit 1>`);
    c.settle(600_000);
    expect(run(c, `logs ${pod}`)).toBe('<exit 0>');
    expect(run(c, `logs ${pod} --previous`)).toBe(
      `<stderr>\nError from server (BadRequest): previous terminated container "peekcart" in pod "${pod}" not found\n<exit 1>`,
    );
    expect(run(c, 'logs deploy/peekcart --tail 5')).toBe(`<stderr>\nFound 3 pods, using pod/${pod}\n<exit 0>`);
    expect(run(c, 'logs')).toBe(
      "<stderr>\nerror: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n<exit 1>",
    );
  });

  it('prints the container log lines, --tail keeps the last N', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: v1
kind: Pod
metadata: {name: talker}
spec:
  restartPolicy: Never
  containers:
  - name: sh
    image: busybox
    command: ["sh", "-c", "echo one; echo two; echo three"]
`);
    c.settle(600_000);
    expect(run(c, 'logs talker')).toBe('one\ntwo\nthree\n<exit 0>');
    expect(run(c, 'logs talker --tail=1')).toBe('three\n<exit 0>');
  });
});

describe('kubectl rollout, set image, scale', () => {
  it('set image, then rollout status lines, history, undo', () => {
    const c = seeded();
    const seq: string[] = [];
    const step = (line: string): void => {
      seq.push(`$ ${line}\n${run(c, line)}`);
    };
    step('set image deployment/peekcart peekcart=ghcr.io/peekcart/peekcart:1.1.0');
    step('rollout status deployment/peekcart');
    c.advance(1000);
    step('rollout status deployment/peekcart');
    c.settle(600_000);
    step('rollout status deployment/peekcart');
    step('rollout history deployment/peekcart');
    step('rollout undo deployment/peekcart --to-revision=9');
    step('rollout undo deployment/peekcart');
    c.settle(600_000);
    step('rollout history deployment/peekcart');
    step('rollout undo deployment/peekcart --to-revision=3');
    step('set image deployment/peekcart nope=x');
    step('rollout pause deployment/peekcart');
    step('rollout pause deployment/peekcart');
    step('rollout undo deployment/peekcart');
    step('rollout resume deployment/peekcart');
    step('rollout restart deployment/peekcart');
    step('scale deployment/peekcart --replicas=5');
    step('scale deployment peekcart');
    step('scale deployment peekcart --replicas=-1');
    c.settle(600_000);
    step('get deploy peekcart');
    expect(seq.join('\n')).toMatchSnapshot();
    const tmpl = c.get('deployments.apps', 'default', 'peekcart')!.spec.template;
    expect(tmpl.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^2026-01-01T00:\d\d:\d\dZ$/);
  });
});

describe('kubectl label, annotate, create, delete', () => {
  it('prints kubectl’s words', () => {
    const c = seeded();
    const lines = [
      'label deploy peekcart tier=web',
      'label deploy peekcart tier=db',
      'label deploy peekcart tier=db --overwrite',
      'label deploy peekcart tier=db --overwrite',
      'label deploy peekcart tier-',
      'label deploy peekcart tier-',
      'label deploy peekcart',
      'annotate deploy peekcart team=cart',
      'annotate deploy peekcart team=other',
      'annotate deploy peekcart team=other --overwrite',
      'create deployment web --image=nginx:1.27 --replicas=2',
      'create deployment web --image=nginx:1.27',
      'create deployment bare',
      'create namespace team-a',
      'create configmap app-config --from-literal=mode=prod --from-literal=level=3',
      'create secret generic db-pass --from-literal=password=s3cret',
      'create service clusterip web --tcp=80:8080',
      'create service nodeport web-np --tcp=80:8080',
      'create job hello --image=busybox -- echo hi',
      'create deployment x --image=nginx --dry-run=client',
      'get cm app-config -o jsonpath={.data.mode}',
      'get secret db-pass -o jsonpath={.data.password}',
      'delete configmap app-config',
      'delete configmap app-config',
      'delete configmap app-config --ignore-not-found',
      'delete deploy',
      'delete svc --all -n team-a',
      'delete pods -l app=web --force',
      'delete namespace team-a',
    ];
    expect(lines.map((l) => `$ ${l}\n${run(c, l)}`).join('\n')).toMatchSnapshot();
  });

  it.each([
    ['create-deployment.yaml', 'create deployment web --image=nginx:1.27 --replicas=3 --port=80 --dry-run=client -o yaml'],
    ['create-deployment-multi.yaml', 'create deployment web --image=nginx --image=redis --dry-run=client -o yaml'],
    ['create-namespace.yaml', 'create namespace team-a --dry-run=client -o yaml'],
    ['create-configmap.yaml', 'create configmap app-config --from-literal=mode=prod --from-literal=level=3 --dry-run=client -o yaml'],
    ['create-secret.yaml', 'create secret generic db-pass --from-literal=password=s3cret --dry-run=client -o yaml'],
    ['create-service-clusterip.yaml', 'create service clusterip web --tcp=80:8080 --dry-run=client -o yaml'],
    ['create-service-nodeport.yaml', 'create service nodeport web --tcp=80:8080 --node-port=30080 --dry-run=client -o yaml'],
    ['create-job.yaml', 'create job hello --image=busybox --dry-run=client -o yaml -- echo hi'],
  ])('%s matches the real kubectl', (file, line) => {
    const c = new Cluster({ seed: 1 });
    expect(c.kubectl(line)).toEqual({ output: readFileSync(join(TESTDATA, file), 'utf8'), error: null, exitCode: 0 });
  });
});

describe('kubectl cordon, drain', () => {
  it('evicts the Pods, which are replaced on other nodes', () => {
    const c = seeded();
    const onNode1 = c.list('pods').filter((p) => p.spec.nodeName === 'node-1');
    expect(onNode1.length).toBeGreaterThan(0);
    const seen: string[] = [];
    const stop = c.ctx.relay.listen((h) => {
      if (h.from === 'kubectl' && h.to === 'kube-apiserver') seen.push(h.summary);
    });
    const r = c.kubectl('drain node-1 --ignore-daemonsets');
    stop();
    expect(r.output).toBe(
      [
        'node/node-1 cordoned',
        ...onNode1.map((p) => `evicting pod ${p.metadata.namespace}/${p.metadata.name}`),
        ...onNode1.map((p) => `pod/${p.metadata.name} evicted`),
        'node/node-1 drained',
        '',
      ].join('\n'),
    );
    expect(r.error).toBeNull();
    // each Pod through the pods/eviction subresource, which marks it DisruptionTarget before deleting
    expect(seen.filter((s) => /evict/i.test(s))).toEqual(
      onNode1.flatMap((p) => [
        `Pod ${p.metadata.namespace}/${p.metadata.name}: DisruptionTarget (EvictionByEvictionAPI)`,
        `evict Pod ${p.metadata.namespace}/${p.metadata.name}`,
      ]),
    );
    const victim = c.get('pods', onNode1[0].metadata.namespace ?? '', onNode1[0].metadata.name);
    expect(victim?.status.conditions.find((x: { type: string }) => x.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    });
    c.settle(600_000);
    const pods = c.list('pods', 'default');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.spec.nodeName !== 'node-1' && p.status.phase === 'Running')).toBe(true);
    expect(run(c, 'get nodes node-1')).toMatch(/node-1   Ready,SchedulingDisabled   <none>/);
    expect(run(c, 'cordon node-1')).toBe('node/node-1 already cordoned\n<exit 0>');
    expect(run(c, 'uncordon node-1')).toBe('node/node-1 uncordoned\n<exit 0>');
    expect(run(c, 'drain')).toBe("<stderr>\nerror: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n<exit 1>");
  });

  it('honours a PodDisruptionBudget and refuses unmanaged Pods without --force', () => {
    const c = seeded();
    c.apply(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: peekcart}
spec:
  minAvailable: 3
  selector: {matchLabels: {app: peekcart}}
---
apiVersion: v1
kind: Pod
metadata: {name: loner}
spec:
  nodeName: node-3
  containers: [{name: c, image: nginx}]
`);
    c.settle(600_000);
    const onNode3 = c.list('pods').filter((p) => p.spec.nodeName === 'node-3');
    const victim = onNode3.find((p) => p.metadata.labels?.app === 'peekcart')!.metadata.name;
    const r1 = c.kubectl('drain node-3');
    expect(r1.output).toBe('node/node-3 cordoned\n');
    expect(r1.error).toBe(
      'error: unable to drain node "node-3" due to error: cannot delete Pods that declare no controller (use --force to override): default/loner, continuing command...\nThere are pending nodes to be drained:\n node-3\ncannot delete Pods that declare no controller (use --force to override): default/loner\n',
    );
    const r2 = c.kubectl('drain node-3 --force');
    const id = (p: { metadata: { namespace?: string; name: string } }): string => `${p.metadata.namespace}/${p.metadata.name}`;
    const evicted = onNode3.filter((p) => p.metadata.name !== victim);
    expect(r2.output).toBe(
      [
        'node/node-3 already cordoned',
        ...onNode3.map((p) => `evicting pod ${id(p)}`),
        ...evicted.map((p) => `pod/${p.metadata.name} evicted`),
        '',
      ].join('\n'),
    );
    expect(r2.error).toBe(
      `Warning: deleting Pods that declare no controller: default/loner\nerror when evicting pods/"${victim}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`,
    );
    expect(run(c, 'get pdb')).toBe(
      'NAME       MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\npeekcart   3               N/A               0                     40s\n<exit 0>',
    );
  });
});

describe('kubectl misc and errors', () => {
  const c = new Cluster({ seed: 1 });
  it.each([
    ['version', 'version', 'Client Version: v1.33.1\nKustomize Version: v5.6.0\nServer Version: v1.33.1\n<exit 0>'],
    ['unknown command', 'foo', '<stderr>\nerror: unknown command "foo" for "kubectl"\n\nDid you mean this?\n\ttop\n<exit 1>'],
    ['unknown flag', 'get pods --foo', "<stderr>\nerror: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n<exit 1>"],
    [
      'unknown shorthand',
      'get pods -x',
      "<stderr>\nerror: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage.\n<exit 1>",
    ],
    [
      'flag needs an argument',
      'get pods --selector',
      "<stderr>\nerror: flag needs an argument: --selector\nSee 'kubectl get --help' for usage.\n<exit 1>",
    ],
    [
      'get without a type',
      'get',
      '<stderr>\nYou must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n<exit 1>',
    ],
    ['no resources', 'get pods', '<stderr>\nNo resources found in default namespace.\n<exit 0>'],
    ['no resources, cluster-scoped', 'get pv', '<stderr>\nNo resources found\n<exit 0>'],
    [
      'bad output format',
      'get pods -o toml',
      expect.stringContaining('error: unable to match a printer suitable for the output format "toml"'),
    ],
  ])('%s', (_n, line, want) => {
    expect(run(c, line)).toEqual(want);
  });

  it('top pods and nodes from the simulated metrics-server', () => {
    const d = seeded();
    expect(run(d, 'top pods')).toMatchSnapshot();
    expect(run(d, 'top nodes')).toMatchSnapshot();
  });

  it('api-resources header and first lines', () => {
    const lines = c.kubectl('api-resources').output.split('\n');
    expect(lines[0]).toBe('NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND');
    expect(lines[1]).toBe('bindings                                         v1                                true         Binding');
    expect(lines).toContain('deployments                         deploy       apps/v1                           true         Deployment');
    expect(lines).toContain('machines                            mach         sim.kube-relay.dev/v1alpha1       false        Machine');
  });

  it('apply -f - uses stdin', () => {
    const d = new Cluster({ seed: 1 });
    expect(d.kubectl('apply -f -', SEED)).toEqual({
      output: 'deployment.apps/peekcart created\nservice/peekcart created\n',
      error: null,
      exitCode: 0,
    });
    expect(d.kubectl('apply -f -', SEED).output).toBe('deployment.apps/peekcart unchanged\nservice/peekcart unchanged\n');
  });
});
