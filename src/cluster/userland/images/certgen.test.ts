/**
 * kube-webhook-certgen in ingress-nginx's admission Jobs (images/certgen.ts): the kind manifest
 * of src/examples/real applied to a fresh cluster — `create` makes Secret
 * ingress-nginx-admission (ca/cert/key), `patch` writes its CA into the
 * ValidatingWebhookConfiguration, both Jobs complete (and the TTL-after-finished controller
 * deletes them, ttlSecondsAfterFinished: 0), the controller's webhook-cert volume mounts and
 * its Deployment becomes available. Plus the program's flag handling on its own.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../../cluster';
import type { KObject } from '../../api/types';
import { base64Decode } from '../../kubelet/env';
import { base64Bytes, generateCerts, runCertgen } from './certgen';
import type { InCluster } from './in-cluster';

const MANIFEST = readFileSync(new URL('../../../examples/real/ingress-nginx-kind-rendered.yaml', import.meta.url), 'utf8');
const NS = 'ingress-nginx';

interface Run {
  c: Cluster;
  /** the last status of each Job before it was deleted */
  jobs: Map<string, KObject>;
  /** `kubectl logs` of each Job's Pod, taken when it succeeded */
  logs: Map<string, string>;
  /** Job names seen deleted */
  deleted: Set<string>;
}

/** Applies the manifest and steps until both Jobs are gone, collecting their Pods' logs on the way. */
function install(c = new Cluster({ seed: 1 })): Run {
  const jobs = new Map<string, KObject>();
  const deleted = new Set<string>();
  const logs = new Map<string, string>();
  c.onChange((ch) => {
    const o = ch.object as KObject | undefined;
    if (o?.kind === 'Job' && o.metadata.namespace === NS) {
      if (ch.type === 'DELETED') deleted.add(o.metadata.name);
      else jobs.set(o.metadata.name, o);
    }
  });
  const results = c.apply(MANIFEST);
  expect(results.filter((r) => r.action === 'error')).toEqual([]);
  for (let i = 0; i < 200_000 && deleted.size < 2; i++) {
    c.step();
    for (const p of c.list('pods', NS)) {
      const job = p.metadata.labels?.['batch.kubernetes.io/job-name'];
      if (job && p.status?.phase === 'Succeeded' && !logs.has(job)) logs.set(job, c.kubectl(`logs -n ${NS} ${p.metadata.name}`).output);
    }
  }
  return { c, jobs, logs, deleted };
}

describe('ingress-nginx admission Jobs (kube-webhook-certgen)', () => {
  const run = install();
  const { c } = run;

  it('both Jobs complete 1/1 and are then deleted (ttlSecondsAfterFinished: 0)', () => {
    for (const name of ['ingress-nginx-admission-create', 'ingress-nginx-admission-patch']) {
      const job = run.jobs.get(name)!;
      expect(job.status.succeeded).toBe(1);
      expect(job.status.conditions.filter((x: { status: string }) => x.status === 'True').map((x: { type: string }) => x.type)).toEqual([
        'SuccessCriteriaMet',
        'Complete',
      ]);
    }
    expect([...run.deleted].sort()).toEqual(['ingress-nginx-admission-create', 'ingress-nginx-admission-patch']);
  });

  it('create: Secret ingress-nginx-admission, type Opaque, keys ca/cert/key holding PEM', () => {
    const s = c.get('secrets', NS, 'ingress-nginx-admission')!;
    expect(s.type).toBe('Opaque');
    expect(Object.keys(s.data).sort()).toEqual(['ca', 'cert', 'key']);
    expect(base64Decode(s.data.ca)).toMatch(
      /^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)+[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/,
    );
    expect(base64Decode(s.data.cert)).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(base64Decode(s.data.key)).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END EC PRIVATE KEY-----\n$/);
    expect(s.metadata.managedFields?.[0]).toMatchObject({ manager: 'kube-webhook-certgen', operation: 'Update' });
  });

  it('patch: every webhook of the ValidatingWebhookConfiguration has the CA bundle and failurePolicy Fail', () => {
    const vwc = c.get('validatingwebhookconfigurations.admissionregistration.k8s.io', '', 'ingress-nginx-admission')!;
    const ca = c.get('secrets', NS, 'ingress-nginx-admission')!.data.ca;
    expect(vwc.webhooks.map((w: KObject) => [w.name, w.clientConfig.caBundle === ca, w.failurePolicy])).toEqual([
      ['validate.nginx.ingress.kubernetes.io', true, 'Fail'],
    ]);
  });

  it("logs: logrus JSON after klog's in-cluster warning", () => {
    const create = run.logs.get('ingress-nginx-admission-create')!.split('\n');
    expect(create[0]).toMatch(
      /^W0101 00:00:\d\d\.\d{6}       1 client_config\.go:659\] Neither --kubeconfig nor --master was specified\.  Using the inClusterConfig\.  This might not work\.$/,
    );
    expect(create.slice(1).map((l) => l.replace(/"time":"[^"]+"/, '"time":T'))).toEqual([
      '{"err":"secrets \\"ingress-nginx-admission\\" not found","level":"info","msg":"no secret found","source":"k8s/k8s.go:229","time":T}',
      '{"level":"info","msg":"creating new secret","source":"cmd/create.go:28","time":T}',
      '',
    ]);
    expect(run.logs.get('ingress-nginx-admission-patch')!.split('\n').slice(1)).toEqual([
      `{"level":"info","msg":"patching webhook configurations 'ingress-nginx-admission' mutating=false, validating=true, failurePolicy=Fail","source":"k8s/k8s.go:118","time":"2026-01-01T00:00:03Z"}`,
      '{"level":"info","msg":"Patched hook(s)","source":"k8s/k8s.go:138","time":"2026-01-01T00:00:03Z"}',
      '',
    ]);
  });

  it('the controller mounts webhook-cert and its Deployment becomes available', () => {
    c.settle(10 * 60_000);
    const d = c.get('deployments.apps', NS, 'ingress-nginx-controller')!;
    expect(d.status).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1 });
    expect(c.kubectl(`get pods -n ${NS}`).output).toMatch(
      /^NAME +READY +STATUS +RESTARTS +AGE\ningress-nginx-controller-\w+-\w+ +1\/1 +Running +0 +\S+\n$/,
    );
  });
});

describe('applied again (the Jobs were deleted, the Secret stays)', () => {
  const first = install();
  const ca = first.c.get('secrets', NS, 'ingress-nginx-admission')!.data.ca;
  const again = install(first.c);

  it('create logs "secret already exists" and keeps the CA; patch writes the same bundle', () => {
    expect(again.logs.get('ingress-nginx-admission-create')!.split('\n').slice(1, 2)).toEqual([
      expect.stringMatching(/^\{"level":"info","msg":"secret already exists","source":"cmd\/create\.go:33","time":"[^"]+"\}$/),
    ]);
    expect(again.c.get('secrets', NS, 'ingress-nginx-admission')!.data.ca).toBe(ca);
    expect(
      again.c.get('validatingwebhookconfigurations.admissionregistration.k8s.io', '', 'ingress-nginx-admission')!.webhooks[0].clientConfig
        .caBundle,
    ).toBe(ca);
    expect(again.jobs.get('ingress-nginx-admission-create')!.status.succeeded).toBe(1);
  });
});

describe('kube-webhook-certgen on its own', () => {
  /** Runs the program to its end against a cluster that has the ingress-nginx namespace (and optionally the VWC). */
  function exec(args: string[], setup: (c: Cluster) => void = () => {}): { code: number; out: string; err: string; c: Cluster } {
    // certgen's own logic, run as its ServiceAccount without the manifest's Role: RBAC off
    const c = new Cluster({ seed: 3, authorizationMode: 'AlwaysAllow' });
    c.apply('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n');
    setup(c);
    const ic: InCluster = {
      namespace: NS,
      podName: 'certgen',
      serviceAccount: 'ingress-nginx-admission',
      seed: 7,
      client: () =>
        c.ctx.client({ name: 'system:serviceaccount:ingress-nginx:ingress-nginx-admission', participant: 'pod/ingress-nginx/certgen' }),
    };
    let out = '';
    let err = '';
    const g = runCertgen(args, ic, () => Date.UTC(2026, 0, 1, 0, 0, 5), {
      out: (s) => {
        out += s;
      },
      err: (s) => {
        err += s;
      },
    });
    let r = g.next();
    while (!r.done) r = g.next();
    return { code: r.value, out: out.replace(/"time":"[^"]+"/g, '"time":T'), err, c };
  }
  const vwc = (c: Cluster) => c.apply(MANIFEST.split('\n---\n').find((d) => d.includes('kind: ValidatingWebhookConfiguration'))!);
  const secret = (c: Cluster) => {
    exec(['create', '--host=x', `--namespace=${NS}`, '--secret-name=s']);
    c.apply(`apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: ${NS}\ndata:\n  ca: ${base64Bytes([65, 66])}\n`);
  };

  it.each([
    { name: 'no subcommand: help, exit 1', args: [], code: 1, out: /^Use this to create a ca/, err: /^$/ },
    {
      name: 'unknown subcommand',
      args: ['rotate'],
      code: 1,
      out: /^$/,
      err: /^Error: unknown command "rotate" for "kube-webhook-certgen"\n/,
    },
    {
      name: 'create without --host',
      args: ['create', '--namespace=ingress-nginx', '--secret-name=s'],
      code: 1,
      out: /^$/,
      err: /^Error: required flag\(s\) "host" not set\n$/,
    },
    {
      name: 'patch before the Secret exists: fatal, exit 1',
      args: ['patch', '--webhook-name=ingress-nginx-admission', `--namespace=${NS}`, '--secret-name=s'],
      code: 1,
      out: /^\{"err":"secrets \\"s\\" not found","level":"info","msg":"no secret found","source":"k8s\/k8s.go:229","time":T\}\n\{"level":"fatal","msg":"no secret with 's' in 'ingress-nginx'","source":"cmd\/patch.go:47","time":T\}\n$/,
      err: /Using the inClusterConfig/,
    },
    {
      name: 'patch with no webhook configuration: fatal, exit 1',
      setup: secret,
      args: ['patch', '--webhook-name=nope', `--namespace=${NS}`, '--secret-name=s', '--patch-mutating=false'],
      code: 1,
      out: /\n\{"err":"validatingwebhookconfigurations.admissionregistration.k8s.io \\"nope\\" not found","level":"fatal","msg":"failed getting validating webhook","source":"cmd\/patch.go:64","time":T\}\n$/,
      err: /./,
    },
    {
      name: 'patch with neither kind',
      args: ['patch', '--webhook-name=w', `--namespace=${NS}`, '--secret-name=s', '--patch-mutating=false', '--patch-validating=false'],
      code: 1,
      out: /"level":"fatal","msg":"patch-validating=false, patch-mutating=false\. You must patch at least one kind of webhook, otherwise this command is a no-op","source":"cmd\/patch.go:24"/,
      err: /./,
    },
  ])('$name', ({ args, code, out, err, setup }) => {
    const r = exec(args, setup);
    expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code, out: expect.stringMatching(out), err: expect.stringMatching(err) });
  });

  it('--patch-failure-policy=Ignore writes no failure policy (upstream\'s empty `case "Ignore":`)', () => {
    const r = exec(
      [
        'patch',
        '--webhook-name=ingress-nginx-admission',
        `--namespace=${NS}`,
        '--secret-name=s',
        '--patch-mutating=false',
        '--patch-failure-policy=Ignore',
      ],
      (c) => {
        secret(c);
        vwc(c);
      },
    );
    expect(r.code).toBe(0);
    const hook = r.c.get('validatingwebhookconfigurations.admissionregistration.k8s.io', '', 'ingress-nginx-admission')!.webhooks[0];
    expect([hook.clientConfig.caBundle, hook.failurePolicy]).toEqual([base64Bytes([65, 66]), 'Fail']); // Fail: the apiserver's default, untouched
  });

  it('the certificates are deterministic per seed and sized like certs.go output', () => {
    const a = generateCerts('ingress-nginx-controller-admission,ingress-nginx-controller-admission.ingress-nginx.svc', 1);
    expect(a).toEqual(generateCerts('ingress-nginx-controller-admission,ingress-nginx-controller-admission.ingress-nginx.svc', 1));
    expect(a.ca).not.toBe(generateCerts('x', 2).ca);
    expect(a.key.split('\n')).toHaveLength(6); // 121 bytes → 164 base64 chars → 3 lines
  });
});
