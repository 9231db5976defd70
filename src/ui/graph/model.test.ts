import { describe, expect, it } from 'vitest';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { KObject, StoredObject } from '../store/types';
import { computeTopology, emptyTopology, touchesTopology } from '../store/topology';
import { buildModel, groupId, GROUP_THRESHOLD, podRows } from './model';
import { DEFAULT_VIEW, type GraphView, type Layer } from './view-store';
import { fromElk, rowPlacement, toElkGraph } from './elk-layout';
import { layoutGraph } from './layout';
import type { GraphTopology } from '../store/types';

function obj(kind: string, name: string, extra: Record<string, unknown> = {}, ns: string | null = 'default'): KObject {
  const { metadata, ...rest } = extra as { metadata?: Record<string, unknown> };
  return { apiVersion: 'v1', kind, ...rest, metadata: { name, ...(ns ? { namespace: ns } : {}), ...metadata } } as KObject;
}
function key(o: KObject): string {
  return o.metadata.namespace ? `${o.kind}/${o.metadata.namespace}/${o.metadata.name}` : `${o.kind}/${o.metadata.name}`;
}
function stored(...objs: KObject[]): Map<string, StoredObject> {
  return new Map(objs.map((o) => [key(o), { key: key(o), resource: o.kind.toLowerCase(), object: o, row: null }]));
}
const owned = (kind: string, name: string) => ({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid: name, controller: true }] } });

/** The demo: Deployment web (3 Pods, one mounting a PVC) behind Service web and Ingress web, an HPA, storage. */
function demo(): GraphTopology {
  return computeTopology(
    stored(
      obj('Node', 'control-plane', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, null),
      obj('Node', 'node-1', {}, null),
      obj('Node', 'node-2', {}, null),
      obj('Deployment', 'web'),
      obj('ReplicaSet', 'web-7c9f', owned('Deployment', 'web')),
      obj('Pod', 'web-7c9f-a', { ...owned('ReplicaSet', 'web-7c9f'), spec: { nodeName: 'node-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } }),
      obj('Pod', 'web-7c9f-b', { ...owned('ReplicaSet', 'web-7c9f'), spec: { nodeName: 'node-2' } }),
      obj('Pod', 'web-7c9f-c', { ...owned('ReplicaSet', 'web-7c9f'), spec: {} }),
      obj('Service', 'web', { spec: { selector: { app: 'web' } } }),
      obj('EndpointSlice', 'web-abcde', { metadata: { labels: { 'kubernetes.io/service-name': 'web' } }, endpoints: [{ targetRef: { kind: 'Pod', name: 'web-7c9f-b', namespace: 'default' } }, { targetRef: { kind: 'Pod', name: 'web-7c9f-a', namespace: 'default' } }] }),
      obj('Ingress', 'web', { spec: { rules: [{ host: 'shop.example', http: { paths: [{ path: '/', backend: { service: { name: 'web' } } }] } }, { host: 'empty' }] } }),
      obj('Ingress', 'bare', { spec: {} }),
      obj('HorizontalPodAutoscaler', 'web', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' } } }),
      obj('PersistentVolumeClaim', 'data', { spec: { volumeName: 'pvc-1', storageClassName: 'standard' } }),
      obj('PersistentVolumeClaim', 'waiting', { spec: { storageClassName: 'standard' } }),
      obj('PersistentVolume', 'pvc-1', { spec: { storageClassName: 'standard' } }, null),
      obj('StorageClass', 'standard', {}, null),
    ),
  );
}

function view(off: Layer[] = [], expanded: string[] = []): GraphView {
  const layers = { ...DEFAULT_VIEW.layers };
  for (const l of off) layers[l] = false;
  return { layers, expanded: new Set(expanded) };
}

describe('computeTopology', () => {
  const t = demo();
  it.each([
    ['slice → its Service and target Pods (sorted)', t.endpointSlices, [{ key: 'EndpointSlice/default/web-abcde', service: 'Service/default/web', pods: ['Pod/default/web-7c9f-a', 'Pod/default/web-7c9f-b'] }]],
    ['Ingress backends; rules without http and Ingresses without rules are handled', t.ingresses, [{ key: 'Ingress/default/bare', services: [] }, { key: 'Ingress/default/web', services: ['Service/default/web'] }]],
    ['HPA scaleTargetRef', t.hpas, [{ key: 'HorizontalPodAutoscaler/default/web', target: 'Deployment/default/web' }]],
    ['PVC volumeName and class', t.pvcs, [{ key: 'PersistentVolumeClaim/default/data', volume: 'PersistentVolume/pvc-1', storageClass: 'StorageClass/standard' }, { key: 'PersistentVolumeClaim/default/waiting', volume: null, storageClass: 'StorageClass/standard' }]],
    ['a Pod mounting a PVC', t.pods[0], { key: 'Pod/default/web-7c9f-a', node: 'node-1', owner: 'ReplicaSet/default/web-7c9f', claims: ['PersistentVolumeClaim/default/data'] }],
  ])('%s', (_name, got, want) => {
    expect(got).toEqual(want);
  });
});

describe('touchesTopology', () => {
  const prevSlice = obj('EndpointSlice', 's', { metadata: { labels: { 'kubernetes.io/service-name': 'web' } }, endpoints: [{ targetRef: { kind: 'Pod', name: 'a' } }] });
  const svc = obj('Service', 'web', { spec: { clusterIP: '10.96.0.20' } });
  const pvc = obj('PersistentVolumeClaim', 'data', { spec: { storageClassName: 'standard' }, status: { phase: 'Pending' } });
  it.each([
    ['an endpoint added to a slice', prevSlice, { ...prevSlice, endpoints: [{ targetRef: { kind: 'Pod', name: 'a' } }, { targetRef: { kind: 'Pod', name: 'b' } }] }, true],
    ['an endpoint turning not ready', prevSlice, { ...prevSlice, endpoints: [{ targetRef: { kind: 'Pod', name: 'a' }, conditions: { ready: false } }] }, false],
    ['a Service status change', svc, { ...svc, status: { loadBalancer: {} } }, false],
    ['a PVC binding to a PV', pvc, { ...pvc, spec: { ...pvc.spec, volumeName: 'pvc-9' } }, true],
    ['a PVC phase change only', pvc, { ...pvc, status: { phase: 'Bound' } }, false],
    ['a ConfigMap', obj('ConfigMap', 'x'), obj('ConfigMap', 'x', { data: { a: '1' } }), false],
  ])('%s → %s', (_name, a, b, want) => {
    const prev = stored(a as KObject).values().next().value;
    expect(touchesTopology({ type: 'MODIFIED', resource: 'x', key: key(b as KObject), object: b as KObject, row: null }, prev)).toBe(want);
  });
});

describe('buildModel', () => {
  const t = demo();
  const edgeIds = (v: GraphView) => buildModel(t, v).edges.filter((e) => e.type === 'owner').map((e) => e.id).sort();

  it('draws every relation of the demo', () => {
    expect(edgeIds(view())).toEqual(
      [
        'bind:PersistentVolumeClaim/default/data>PersistentVolume/pvc-1',
        'claim:Pod/default/web-7c9f-a>PersistentVolumeClaim/default/data',
        'class:PersistentVolume/pvc-1>StorageClass/standard',
        'class:PersistentVolumeClaim/default/waiting>StorageClass/standard',
        'endpoint:EndpointSlice/default/web-abcde>Pod/default/web-7c9f-a',
        'endpoint:EndpointSlice/default/web-abcde>Pod/default/web-7c9f-b',
        'own:Pod/default/web-7c9f-a',
        'own:Pod/default/web-7c9f-b',
        'own:Pod/default/web-7c9f-c',
        'own:ReplicaSet/default/web-7c9f',
        'route:Ingress/default/web>Service/default/web',
        'scale:HorizontalPodAutoscaler/default/web>Deployment/default/web',
        'select:Service/default/web>EndpointSlice/default/web-abcde',
      ].sort(),
    );
  });

  it.each<[string, Layer[], string[], string[]]>([
    ['networking off', ['networking'], ['Service/default/web', 'EndpointSlice/default/web-abcde', 'Ingress/default/web'], ['endpoint:', 'route:', 'select:']],
    ['storage off', ['storage'], ['PersistentVolumeClaim/default/data', 'PersistentVolume/pvc-1', 'StorageClass/standard'], ['claim:', 'bind:', 'class:']],
    ['autoscaling off', ['autoscaling'], ['HorizontalPodAutoscaler/default/web'], ['scale:']],
    ['workloads off (the HPA loses its target card)', ['workloads'], ['Deployment/default/web', 'ReplicaSet/default/web-7c9f'], ['own:', 'scale:']],
  ])('%s hides its cards and edges', (_name, off, cards, prefixes) => {
    const m = buildModel(t, view(off));
    const ids = new Set(m.nodes.map((n) => n.id));
    for (const c of cards) expect(ids.has(c), c).toBe(false);
    for (const id of edgeIds(view(off))) expect(prefixes.some((p) => id.startsWith(p)), id).toBe(false);
    // Pods and nodes stay
    expect(ids.has('Pod/default/web-7c9f-a') && ids.has('Node/node-1')).toBe(true);
  });

  it('puts Pods in their node, Pending ones in the unscheduled area, with kubelet and kube-proxy per node', () => {
    const m = buildModel(t, view());
    const parent = (id: string) => m.nodes.find((n) => n.id === id)?.parentId;
    expect([parent('Pod/default/web-7c9f-a'), parent('Pod/default/web-7c9f-b'), parent('Pod/default/web-7c9f-c')]).toEqual(['Node/node-1', 'Node/node-2', 'area:unscheduled']);
    expect([parent('kubelet/node-1'), parent('kube-proxy/node-1'), parent('kube-proxy/control-plane'), parent('cp:coredns')]).toEqual(['Node/node-1', 'Node/node-1', 'Node/control-plane', 'Node/control-plane']);
    expect(m.edges.filter((e) => e.type === 'relay').map((e) => e.id)).toContain('link:kube-proxy/node-2');
  });
});

describe('Pod groups', () => {
  function crowd(n: number): GraphTopology {
    const t = emptyTopology();
    t.nodes = [{ key: 'Node/node-1', name: 'node-1', controlPlane: false }];
    t.replicaSets = [{ key: 'ReplicaSet/default/web-1', owner: null }];
    t.endpointSlices = [{ key: 'EndpointSlice/default/web-x', service: null, pods: [] }];
    for (let i = 0; i < n; i++) t.pods.push({ key: `Pod/default/web-1-${String(i).padStart(3, '0')}`, node: 'node-1', owner: 'ReplicaSet/default/web-1' });
    t.pods.push({ key: 'Pod/default/solo', node: 'node-1', owner: null });
    t.endpointSlices[0].pods = t.pods.map((p) => p.key);
    return t;
  }
  const gid = groupId('node-1', 'ReplicaSet/default/web-1');

  it.each([
    [`${GROUP_THRESHOLD} Pods of one owner stay single`, GROUP_THRESHOLD, [], GROUP_THRESHOLD + 1],
    [`${GROUP_THRESHOLD + 1} collapse into one chip`, GROUP_THRESHOLD + 1, [], 2],
    ['200 collapse into one chip', 200, [], 2],
    ['an expanded group shows its chip and every Pod', 24, [gid], 26],
  ])('%s', (_name, n, expanded, rows) => {
    expect(podRows(crowd(n).pods, 'node-1', new Set(expanded))).toHaveLength(rows);
  });

  it('edges to collapsed Pods go to the chip, once', () => {
    const m = buildModel(crowd(24), view());
    expect(m.shownAs.get('Pod/default/web-1-007')).toBe(gid);
    expect(m.edges.filter((e) => e.target === gid).map((e) => e.id).sort()).toEqual([`endpoint:EndpointSlice/default/web-x>${gid}`, `own:${gid}`]);
    expect(m.nodes.find((n) => n.id === 'Node/node-1')?.height).toBe(82 + 2 * 40 + 4);
  });
});

describe('layout', () => {
  it('keeps identity of unchanged nodes and edges', () => {
    const m = buildModel(demo(), view());
    const p = rowPlacement(m);
    const a = layoutGraph(m, p);
    const b = layoutGraph(buildModel(demo(), view()), p, a);
    expect(b.nodes.every((n, i) => n === a.nodes[i])).toBe(true);
    expect(b.edges.every((e, i) => e === a.edges[i])).toBe(true);
  });

  it('elk puts rows top to bottom and keeps the order of existing cards when one is added', async () => {
    const elk = new ELK();
    const t = demo();
    const m1 = buildModel(t, view());
    const p1 = fromElk(await elk.layout(toElkGraph(m1)));
    const y = (id: string) => p1.get(id)?.y ?? NaN;
    expect(y('HorizontalPodAutoscaler/default/web')).toBeLessThan(y('Deployment/default/web'));
    expect(y('Deployment/default/web')).toBeLessThan(y('ReplicaSet/default/web-7c9f'));
    expect(y('ReplicaSet/default/web-7c9f')).toBeLessThan(y('Node/node-1'));
    expect(y('Node/node-1')).toBeLessThan(y('PersistentVolumeClaim/default/data'));
    expect(y('PersistentVolumeClaim/default/data')).toBeLessThan(y('PersistentVolume/pvc-1'));
    expect(y('PersistentVolume/pvc-1')).toBeLessThan(y('StorageClass/standard'));
    const t2 = { ...t, services: [{ key: 'Service/default/aaa' }, ...t.services] };
    const p2 = fromElk(await elk.layout(toElkGraph(buildModel(t2, view()), p1)));
    const order = (p: Map<string, { x: number }>, ids: string[]) => [...ids].sort((a, b) => (p.get(a)?.x ?? 0) - (p.get(b)?.x ?? 0));
    const row1 = ['Node/control-plane', 'Deployment/default/web', 'Service/default/web'];
    expect(order(p2, row1)).toEqual(order(p1, row1));
    expect(p2.get('Service/default/aaa')?.y).toBe(p2.get('Service/default/web')?.y);
  });
});
