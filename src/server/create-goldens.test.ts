/**
 * Replays testdata/create.txt and testdata/create-protobuf.json (recorded with the real kubectl
 * v1.32 by src/cli/apiserver-record-create.ts) without kubectl:
 * - each protobuf body kubectl's typed `create` sent decodes (protobuf.ts) to the object
 *   `kubectl create … --dry-run=client -o json` printed for the same arguments (less the
 *   empty values encoding/json prints for unset structs: `creationTimestamp: null`, `status: {}`);
 * - POSTed as kubectl sent it to a fresh server, each is created (201), and the object answered
 *   names the resource kubectl printed (`deployment.apps/web created`);
 * - `get storageclass` / `get ingressclass` as a Table print what kubectl printed, with the
 *   " (default)" suffix of printers.go.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';
import { decodeKubernetesProtobuf } from './protobuf';
import { cells, normalise, parseTranscript } from './golden';

/** The servers here take this bearer token (auth.ts); every request carries it. */
const TOKEN = 'goldens-test-token';
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });

interface Captured {
  args: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
  dryRun: unknown;
}

const captured = JSON.parse(readFileSync(new URL('testdata/create-protobuf.json', import.meta.url), 'utf8')) as Captured[];
const blocks = parseTranscript(readFileSync(new URL('testdata/create.txt', import.meta.url), 'utf8'));

/** Drops what encoding/json prints for unset non-pointer structs and nil maps/slices. */
function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutEmpty);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = withoutEmpty(x);
      if (y === null || (typeof y === 'object' && !Array.isArray(y) && !Object.keys(y as object).length)) continue;
      out[k] = y;
    }
    return out;
  }
  return v;
}

describe('kubectl create: protobuf request bodies (testdata/create-protobuf.json)', () => {
  it('recorded every create command of create.txt, each as protobuf, each succeeding', () => {
    const creates = blocks.filter((b) => b.args.startsWith('create '));
    expect(captured.map((c) => c.args)).toEqual(creates.map((b) => b.args));
    expect(captured.length).toBe(24);
    expect(new Set(captured.map((c) => c.contentType))).toEqual(new Set(['application/vnd.kubernetes.protobuf']));
    expect(creates.filter((b) => b.exitCode !== 0)).toEqual([]);
  });

  /**
   * Zero values encoding/json prints for non-pointer fields without omitempty, which protobuf
   * carries as zeros the decoder drops (Go cannot tell them from unset): top-level keys to ignore.
   */
  const GO_ZEROS: Record<string, string[]> = { 'create poddisruptionbudget web-pdb --selector=app=web --min-available=1': ['status'] };

  it.each(captured.map((c) => [c.args, c] as const))('decodes `kubectl %s` to the object kubectl built', (args, c) => {
    const want = { ...(c.dryRun as Record<string, unknown>) };
    for (const k of GO_ZEROS[args] ?? []) delete want[k];
    const got = decodeKubernetesProtobuf(Buffer.from(c.body, 'base64'));
    expect(withoutEmpty(got)).toEqual(withoutEmpty(want));
    expect(Object.keys(got).slice(0, 2)).toEqual(['apiVersion', 'kind']);
  });

  it.each([
    ['create deployment idle --image=nginx:1.27 --replicas=0', 'spec.replicas', 0],
    ['create job tick-now --from=cronjob/tick', 'spec.template.spec.securityContext', {}],
    ['create job tick-now --from=cronjob/tick', 'metadata.annotations', { 'cronjob.kubernetes.io/instantiate': 'manual' }],
    ['create service clusterip web --tcp=80:8080', 'spec.ports', [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }]],
    ['create poddisruptionbudget web-pdb --selector=app=web --min-available=1', 'spec.minAvailable', 1],
    ['create quota q --hard=cpu=2,memory=1Gi,pods=10', 'spec.hard', { cpu: '2', memory: '1Gi', pods: '10' }],
    ['create secret generic s --from-literal=password=s3cr3t', 'data', { password: 'czNjcjN0' }],
    [
      'create ingress web --rule=web.example.com/=web:80 --class=nginx',
      'spec.rules',
      [
        {
          host: 'web.example.com',
          http: { paths: [{ path: '/', pathType: 'Exact', backend: { service: { name: 'web', port: { number: 80 } } } }] },
        },
      ],
    ],
  ])('`kubectl %s`: %s is %j (pointer zeros kept, inline structs inlined)', (args, path, want) => {
    const c = captured.find((x) => x.args === args)!;
    const got = path.split('.').reduce<any>((o, k) => o?.[k], decodeKubernetesProtobuf(Buffer.from(c.body, 'base64')));
    expect(got).toEqual(want);
  });
});

describe('kubectl create against the server (testdata/create.txt)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer(new Cluster(), { port: 0, speed: 1, token: TOKEN });
  });
  afterAll(async () => srv.close());

  it('creates each object from the protobuf body kubectl sent, and answers what kubectl printed', async () => {
    const printed: string[] = [];
    for (const c of captured) {
      const r = await fetch(srv.url + c.path, {
        method: c.method,
        headers: { 'Content-Type': c.contentType, Accept: 'application/vnd.kubernetes.protobuf,application/json' },
        body: Buffer.from(c.body, 'base64'),
      });
      const o = (await r.json()) as { apiVersion: string; kind: string; metadata: { name: string } };
      expect({ args: c.args, status: r.status, type: r.headers.get('content-type') }).toEqual({
        args: c.args,
        status: 201,
        type: 'application/json',
      });
      const group = o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : '';
      printed.push(`${o.kind.toLowerCase()}${group}/${o.metadata.name} created\n`);
    }
    expect(printed).toEqual(blocks.filter((b) => b.args.startsWith('create ')).map((b) => b.output));
  });

  it.each([
    ['get storageclass', '/apis/storage.k8s.io/v1/storageclasses', 'standard (default)'],
    ['get ingressclass', '/apis/networking.k8s.io/v1/ingressclasses', 'nginx (default)'],
  ])('%s: the Table names the default class as printers.go does', async (args, path, name) => {
    const r = await fetch(srv.url + path, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    const t = (await r.json()) as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] };
    const header = t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name.toUpperCase());
    const rows = t.rows.map((row) =>
      row.cells
        .slice(0, header.length)
        .map((x, i) => (header[i] === 'AGE' ? '<age>' : String(x)))
        .join(' | '),
    );
    const golden = normalise(blocks.find((b) => b.args === args)!.output)
      .split('\n')
      .filter(Boolean)
      .map(cells);
    expect({ header, rows }).toEqual({ header: golden[0], rows: golden.slice(1).map((c) => c.join(' | ')) });
    expect(t.rows[0].cells[0]).toBe(name);
  });
});
