/**
 * Replays the golden transcripts of real kubectl (src/server/testdata/*.txt, recorded by
 * `npm run goldens:kubectl`) against a fresh in-process server, without kubectl: each
 * changing command is re-run (the engine's kubectl for the client-side logic, a raw HTTP merge
 * patch for `kubectl patch machine`) and the cluster settled in simulated time; each
 * `kubectl get` that prints a table is re-asked over HTTP as kubectl asks it
 * (Accept: as=Table) and the server's columns and rows — printed the way kubectl's table
 * printer does — must equal what real kubectl printed (after the normalisation of golden.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { kustomizeDir } from '../cli/kustomize';
import { startServer, type RunningServer } from './server';
import { cells, normalise, parseTranscript, type GoldenBlock } from './golden';

/** The servers here take this bearer token (auth.ts); every request carries it. */
const TOKEN = 'goldens-test-token';
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });

const ROOT = new URL('../../', import.meta.url).pathname;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** Resource types the transcripts `get`: API path (namespace default) and kubectl's kind prefix for multi-type gets. */
const TYPES: Record<string, { path: (all: boolean) => string; prefix: string }> = {
  pods: { path: (a) => (a ? '/api/v1/pods' : '/api/v1/namespaces/default/pods'), prefix: 'pod' },
  deployments: {
    path: (a) => (a ? '/apis/apps/v1/deployments' : '/apis/apps/v1/namespaces/default/deployments'),
    prefix: 'deployment.apps',
  },
  replicasets: { path: () => '/apis/apps/v1/namespaces/default/replicasets', prefix: 'replicaset.apps' },
  services: { path: () => '/api/v1/namespaces/default/services', prefix: 'service' },
  nodes: { path: () => '/api/v1/nodes', prefix: 'node' },
  machines: { path: () => '/apis/sim.kube-relay.dev/v1alpha1/machines', prefix: 'machine.sim.kube-relay.dev' },
};
const SINGULAR: Record<string, string> = {
  pod: 'pods',
  deployment: 'deployments',
  replicaset: 'replicasets',
  service: 'services',
  node: 'nodes',
  machine: 'machines',
};

/** kubectl's table printer (printers/tableprinter.go): upper-cased headers, cells padded, 3 spaces apart. */
function printTable(headers: string[], rows: string[][]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
  return `${all
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? String(c) : String(c).padEnd(widths[i] + 3)))
        .join('')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** What the server answers for a `get` block, printed as kubectl would; undefined when the block is not a table get. */
async function serverTable(url: string, args: string): Promise<string | undefined> {
  const m = /^get (\S+)( [^\s-]\S*)?( -o wide| -A)?$/.exec(args);
  if (!m) return undefined;
  const kinds = m[1].split(',').map((k) => SINGULAR[k] ?? k);
  const name = m[2]?.trim();
  const wide = m[3] === ' -o wide';
  const all = m[3] === ' -A';
  if (!kinds.every((k) => TYPES[k])) return undefined;
  const parts: string[] = [];
  for (const k of kinds) {
    const r = await fetch(`${url}${TYPES[k].path(all)}${name ? `/${name}` : ''}`, { headers: { Accept: TABLE } });
    expect({ args, status: r.status }).toEqual({ args, status: 200 });
    const t = (await r.json()) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[]; object: { metadata: { namespace?: string } } }[];
    };
    const keep = t.columnDefinitions.map((c) => wide || c.priority === 0);
    const headers = [...(all ? ['NAMESPACE'] : []), ...t.columnDefinitions.filter((_, i) => keep[i]).map((c) => c.name.toUpperCase())];
    const rows = t.rows.map((row) => {
      const cs = row.cells.filter((_, i) => keep[i]).map(String);
      if (kinds.length > 1) cs[0] = `${TYPES[k].prefix}/${cs[0]}`;
      return [...(all ? [row.object.metadata.namespace ?? ''] : []), ...cs];
    });
    parts.push(printTable(headers, rows));
  }
  return parts.join('\n');
}

/** A table as comparable data: header cells and the sorted row cells (normalised). */
function tableCells(text: string): { header: string[]; rows: string[] } {
  const lines = normalise(text)
    .split('\n')
    .filter((l) => l.trim());
  return {
    header: cells(lines[0]),
    rows: lines
      .slice(1)
      .filter((l) => !/^NAME\s/.test(l))
      .map((l) => cells(l).join(' | '))
      .sort(),
  };
}

/** Re-runs a changing command; returns false for read-only ones. */
async function replay(cluster: Cluster, url: string, b: GoldenBlock): Promise<void> {
  const a = b.args.replace(/\s+# stopped after .*$/, '');
  const file = /^apply (--server-side )?-f (\S+)$/.exec(a);
  if (file) {
    cluster.kubectl(`apply ${file[1] ?? ''}-f -`, readFileSync(ROOT + file[2], 'utf8'));
  } else if (a.startsWith('apply -k ')) {
    cluster.kubectl('apply -f -', kustomizeDir(ROOT + a.slice('apply -k '.length)));
  } else if (a.startsWith('patch machine ')) {
    const m = /^patch machine (\S+) --type=merge -p '(.*)'$/.exec(a)!;
    const r = await fetch(`${url}/apis/sim.kube-relay.dev/v1alpha1/machines/${m[1]}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: m[2],
    });
    expect(r.status).toBe(200);
  } else if (a.startsWith('run ')) {
    // the Pod `kubectl run NAME --image=I --restart=Never -- ARGS` creates (cmd/run/run.go: label run=NAME, ARGS as args)
    const m = /^run (\S+) --image=(\S+) --restart=Never -- (\S+) (\S+) '(.*)'$/.exec(a)!;
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: m[1], labels: { run: m[1] } },
      spec: { restartPolicy: 'Never', containers: [{ name: m[1], image: m[2], args: [m[3], m[4], m[5]] }] },
    };
    const r = await fetch(`${url}/api/v1/namespaces/default/pods?fieldManager=kubectl-run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(pod),
    });
    expect(r.status).toBe(201);
  } else if (/^(scale|set image|rollout undo|cordon|uncordon|drain|delete) /.test(a)) {
    const r = cluster.kubectl(a);
    expect({ cmd: a, exit: r.exitCode, error: r.exitCode ? r.error : null }).toEqual({ cmd: a, exit: 0, error: null });
  }
  cluster.settle(600_000);
}

describe.each([
  ['seed-story', 6],
  ['workloads', 4],
])('golden %s.txt (%i table gets)', (name, tables) => {
  const blocks = parseTranscript(readFileSync(new URL(`testdata/${name}.txt`, import.meta.url), 'utf8'));
  let srv: RunningServer;
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = new Cluster();
    srv = await startServer(cluster, { port: 0, speed: 1, token: TOKEN });
  });
  afterAll(async () => srv.close());

  it('was recorded with every command succeeding', () => {
    expect(blocks.filter((b) => b.exitCode !== 0).map((b) => b.args)).toEqual([]);
    expect(blocks.length).toBeGreaterThan(10);
  });

  it('answers each table `get` with the columns and rows kubectl printed', async () => {
    const compared: string[] = [];
    let drained = '';
    for (const b of blocks) {
      const got = await serverTable(srv.url, b.args);
      if (got !== undefined) {
        compared.push(b.args);
        let [want, have] = [tableCells(b.output), tableCells(got)];
        if (drained && b.args === 'get pods -o wide') {
          // where the evicted Pods land depends on when each eviction arrives (wall time): compare
          // their names, states and that none is on the drained node, not which node or IP they got
          const loose = (t: { header: string[]; rows: string[] }) => ({
            header: t.header,
            rows: t.rows
              .map((r) => r.split(' | '))
              .map((c) => `${c.slice(0, 5).join(' | ')} | ${c[6] === drained ? drained : 'elsewhere'}`)
              .sort(),
          });
          [want, have] = [loose(want), loose(have)];
        }
        expect({ cmd: b.args, ...have }).toEqual({ cmd: b.args, ...want });
      }
      drained = /^drain (\S+)/.exec(b.args)?.[1] ?? (b.args.startsWith('uncordon') ? '' : drained);
      await replay(cluster, srv.url, b);
    }
    expect(compared.length).toBe(tables);
  }, 60_000);
});

/**
 * `apply -f` of every real-world manifest, all into one cluster in file order: the files that
 * fail are exactly those a real v1.33 cluster also refuses (testdata/README.md says why each).
 */
describe.each([
  [
    'real-manifests-client-side',
    [
      'crd-example-with-instance',
      'deployment-selector-change-v2',
      'hpa-php-apache-legacy',
      'kwok-requests-and-limits',
      'local-path-pvc-pod',
      'metrics-server-kustomize-base-deployment',
      'mysql-statefulset-e2e',
      'node-exporter-daemonset',
      'online-boutique',
      'vllm-servicemonitor',
    ],
  ],
  [
    'real-manifests-server-side',
    [
      'crd-example-with-instance',
      'deployment-selector-change-v2',
      'hpa-php-apache-legacy',
      'kwok-requests-and-limits',
      'local-path-pvc-pod',
      'metrics-server-kustomize-base-deployment',
      'mysql-statefulset-e2e',
      'node-exporter-daemonset',
      'online-boutique',
      'vllm-servicemonitor',
    ],
  ],
])('golden %s.txt', (name, failing) => {
  const blocks = parseTranscript(readFileSync(new URL(`testdata/${name}.txt`, import.meta.url), 'utf8'));
  it('covers every file and fails only where a real cluster fails', () => {
    expect(blocks.length).toBe(32);
    expect(blocks.filter((b) => b.exitCode !== 0).map((b) => /manifests\/real\/(\S+)\.yaml/.exec(b.args)![1])).toEqual(failing);
  });
  it.each([
    ['hpa-php-apache-legacy', 'no matches for kind "HorizontalPodAutoscaler" in version "extensions/v1beta1"'],
    ['vllm-servicemonitor', 'no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1"'],
    ['mysql-statefulset-e2e', 'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"'],
    ['node-exporter-daemonset', 'namespaces "monitoring" not found'],
  ])('%s: %s', (file, message) => {
    expect(blocks.find((b) => b.args.includes(`/${file}.yaml`))!.output).toContain(message);
  });
});
