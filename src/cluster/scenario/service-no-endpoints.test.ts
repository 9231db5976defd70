/**
 * Issue 5: a Service selecting nothing (an EndpointSlice without endpoints, kube-proxy's
 * "has no endpoints" REJECT, curl's connection refused) and a Service whose targetPort nothing
 * listens on (endpoints exist, the connection is refused by the Pod). Played from
 * src/scenarios/service-no-endpoints.scenario.yaml.
 */
import { NGINX_INDEX } from '../userland/images/web-servers';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runStep, type Snapshot, type StepResult } from './runner';
import { Cluster } from '../cluster';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, '../../scenarios/service-no-endpoints.scenario.yaml');

function play() {
  const sc = parseScenario(parse(readFileSync(file, 'utf8')));
  const c = new Cluster({ seed: sc.cluster.seed, nodes: sc.cluster.nodes, images: sc.cluster.images });
  const snapshots: Snapshot[] = [];
  const steps: StepResult[] = sc.steps.map((s, i) => runStep(c, s, i, { readFile: () => '' }, snapshots));
  return { c, steps };
}

describe('a Service selecting nothing; a Service with the wrong targetPort', () => {
  const { c, steps } = play();
  const ip = (n: string) => c.get('services', 'default', n)!.spec.clusterIP as string;

  it('kubectl get endpointslices: <unset> for the typo, the Pods on 8080 for the wrong port', () => {
    expect(steps[2].output).toBe(
      [
        'NAME                   ADDRESSTYPE   PORTS     ENDPOINTS               AGE',
        'kubernetes             IPv4          6443      172.18.0.2              70s',
        'web-kphct              IPv4          80        10.244.1.3,10.244.2.3   40s',
        'web-typo-z42h9         IPv4          <unset>   <unset>                 40s',
        'web-wrong-port-z6ng4   IPv4          8080      10.244.1.3,10.244.2.3   40s',
        '',
      ].join('\n'),
    );
  });

  it('kube-proxy renders the upstream REJECT rule for the Service without endpoints', () => {
    const filter = c.kubeProxies.get('node-2')!.rules().split('\n');
    expect(filter).toContain(
      `-A KUBE-SERVICES -d ${ip('web-typo')}/32 -p tcp -m comment --comment "default/web-typo has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable`,
    );
    expect(filter.some((l) => l.includes('default/web-wrong-port') && l.includes('REJECT'))).toBe(false);
  });

  it.each([
    {
      step: 3,
      service: 'web-typo',
      pods: [null],
      chains: ['PREROUTING', 'KUBE-SERVICES', 'FORWARD', 'KUBE-PROXY-FIREWALL', 'KUBE-FORWARD', 'KUBE-SERVICES'],
    },
    { step: 4, service: 'web-wrong-port', pods: ['web-64c8bdf64c-xqp8k', 'web-64c8bdf64c-vqmlj'], endpoint: ':8080' },
  ])('request to $service: refused as curl 8 says it', ({ step, service, pods, chains, endpoint }) => {
    const rs = steps[step].requests!;
    expect(rs.map((r) => r.message)).toEqual(
      pods.map(() => `curl: (7) Failed to connect to ${ip(service)} port 80 after 0 ms: Couldn't connect to server`),
    );
    expect(rs.map((r) => r.podKey)).toEqual(pods.map((p) => (p ? `Pod/default/${p}` : null)));
    expect(rs.every((r) => !r.ok && r.status === null && r.serviceKey === `Service/default/${service}` && r.viaNode === 'node-3')).toBe(
      true,
    );
    if (chains) expect(rs[0].chains).toEqual(chains);
    if (endpoint) expect(rs.every((r) => r.endpoint!.endsWith(endpoint))).toBe(true);
  });

  it('the correct Service answers 200; the seeded statistic match spreads 12 requests 8 / 4', () => {
    const rs = steps[5].requests!;
    expect(rs.every((r) => r.ok && r.status === 200 && r.body === NGINX_INDEX)).toBe(true);
    expect(rs.map((r) => r.endpoint)).toEqual(['1', '1', '2', '1', '1', '1', '2', '1', '2', '2', '1', '1'].map((n) => `10.244.${n}.3:80`));
    expect(rs[2].podKey).toBe('Pod/default/web-64c8bdf64c-xqp8k');
    expect(rs[0].podKey).toBe('Pod/default/web-64c8bdf64c-vqmlj');
  });

  it('kubectl exec client -- curl -s: silent, exit code 7; nslookup still resolves the ClusterIP', () => {
    expect(steps[6]).toMatchObject({ output: '', error: 'command terminated with exit code 7\n' });
    expect(steps[7].output).toBe(
      `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb-typo.default.svc.cluster.local\nAddress: ${ip('web-typo')}\n\n`,
    );
  });
});
