/**
 * `kubectl run` and `kubectl expose` against testdata/golden/run-expose.json: stdout, stderr
 * and exit code of the real kubectl v1.32.4 client, captured against `npm run apiserver` with
 * testdata/expose-objects.yaml applied (see testdata/golden/README.md). The cases run in file
 * order on one cluster, as they were captured (run-create comes before run-exists).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

interface Golden {
  name: string;
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

const goldens = JSON.parse(readFileSync(new URL('../testdata/golden/run-expose.json', import.meta.url), 'utf8')) as Golden[];
const objects = readFileSync(new URL('../testdata/expose-objects.yaml', import.meta.url), 'utf8');

describe('kubectl run / expose equal the real kubectl byte for byte', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(objects);
  c.settle(30_000);
  it.each(goldens.map((g) => [g.name, g] as const))('%s', (_n, g) => {
    const r = c.kubectl(g.command);
    expect({ stdout: r.output, stderr: r.error ?? '', exitCode: r.exitCode }).toEqual({
      stdout: g.stdout,
      stderr: g.stderr,
      exitCode: g.exitCode,
    });
  });
});

describe('what run and expose leave in the cluster', () => {
  it('run creates the Pod BasicPod builds, and it gets scheduled', () => {
    const c = new Cluster({ seed: 1 });
    expect(c.kubectl('run web --image=nginx --port=80 --env=A=1 -- --verbose').output).toBe('pod/web created\n');
    const pod = c.get('pods', 'default', 'web')!;
    expect(pod.metadata.labels).toEqual({ run: 'web' });
    const spec = pod.spec as { containers: Record<string, unknown>[]; restartPolicy: string; dnsPolicy: string };
    expect(spec.containers.map((x) => [x.name, x.image, x.args, x.ports, x.env])).toEqual([
      ['web', 'nginx', ['--verbose'], [{ containerPort: 80, protocol: 'TCP' }], [{ name: 'A', value: '1' }]],
    ]);
    expect([spec.restartPolicy, spec.dnsPolicy]).toEqual(['Always', 'ClusterFirst']);
    c.settle(60_000);
    expect((c.get('pods', 'default', 'web')!.spec as { nodeName?: string }).nodeName).toMatch(/^node-/);
  });

  it.each<[string, string, string | null]>([
    ['dry-run client stores nothing', 'run web --image=nginx --dry-run=client', null],
    ['dry-run server stores nothing', 'run web --image=nginx --dry-run=server', null],
    ['a real run stores the Pod', 'run web --image=nginx', 'web'],
  ])('%s', (_n, line, want) => {
    const c = new Cluster({ seed: 1 });
    expect(c.kubectl(line).exitCode).toBe(0);
    expect(c.list('pods', 'default').map((p) => p.metadata.name)).toEqual(want ? [want] : []);
  });

  it("expose creates a Service whose endpoints are the Deployment's Pods", () => {
    const c = new Cluster({ seed: 1 });
    c.apply(objects);
    c.settle(60_000);
    expect(c.kubectl('expose deployment peekcart --name=pc --port=80 --target-port=8080 --type=NodePort').output).toBe(
      'service/pc exposed\n',
    );
    const svc = c.get('services', 'default', 'pc')!;
    const spec = svc.spec as {
      type: string;
      selector: Record<string, string>;
      ports: { port: number; targetPort: number; nodePort?: number }[];
      clusterIP?: string;
    };
    expect([spec.type, spec.selector, spec.ports[0].port, spec.ports[0].targetPort]).toEqual(['NodePort', { app: 'peekcart' }, 80, 8080]);
    expect(spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|111)\./); // 10.96.0.0/12
    c.settle(30_000);
    const out = c.kubectl('get endpoints pc').output;
    expect(out).toMatch(/^NAME\s+ENDPOINTS\s+AGE\npc\s+\S+:8080\s/);
  });

  it('-n sets the namespace of the created Service', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(objects);
    expect(c.kubectl('expose pod p -n shop --port=80').output).toBe('service/p exposed\n');
    expect(c.get('services', 'shop', 'p')?.metadata.namespace).toBe('shop');
  });
});
