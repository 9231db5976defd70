import { describe, expect, it } from 'vitest';
import type { KObject, StoredObject } from '../store/types';
import { computeTopology, emptyTopology, touchesTopology } from '../store/topology';
import {
  AREA_EMPTY_W,
  buildModel,
  groupHeight,
  groupId,
  GROUP_THRESHOLD,
  isSystemObject,
  NODE_W,
  podRows,
  UNSCHEDULED_AREA,
} from './model';
import { DEFAULT_VIEW, type GraphView, type Layer } from './view-store';
import { GAP_X, placeBlocks } from './placement';
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
const owned = (kind: string, name: string) => ({
  metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid: name, controller: true }] },
});

/** The demo: Deployment web (3 Pods, one mounting a PVC) behind Service web and Ingress web, an HPA, storage. */
function demo(): GraphTopology {
  return computeTopology(
    stored(
      obj('Node', 'control-plane', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, null),
      obj('Node', 'node-1', {}, null),
      obj('Node', 'node-2', {}, null),
      obj('Deployment', 'web'),
      obj('ReplicaSet', 'web-7c9f', owned('Deployment', 'web')),
      obj('Pod', 'web-7c9f-a', {
        ...owned('ReplicaSet', 'web-7c9f'),
        spec: { nodeName: 'node-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
      }),
      obj('Pod', 'web-7c9f-b', { ...owned('ReplicaSet', 'web-7c9f'), spec: { nodeName: 'node-2' } }),
      obj('Pod', 'web-7c9f-c', { ...owned('ReplicaSet', 'web-7c9f'), spec: {} }),
      obj('Service', 'web', { spec: { selector: { app: 'web' } } }),
      obj('EndpointSlice', 'web-abcde', {
        metadata: { labels: { 'kubernetes.io/service-name': 'web' } },
        endpoints: [
          { targetRef: { kind: 'Pod', name: 'web-7c9f-b', namespace: 'default' } },
          { targetRef: { kind: 'Pod', name: 'web-7c9f-a', namespace: 'default' } },
        ],
      }),
      obj('Ingress', 'web', {
        spec: {
          rules: [{ host: 'shop.example', http: { paths: [{ path: '/', backend: { service: { name: 'web' } } }] } }, { host: 'empty' }],
        },
      }),
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
    [
      'slice → its Service and target Pods (sorted)',
      t.endpointSlices,
      [
        {
          key: 'EndpointSlice/default/web-abcde',
          service: 'Service/default/web',
          pods: ['Pod/default/web-7c9f-a', 'Pod/default/web-7c9f-b'],
        },
      ],
    ],
    [
      'Ingress backends; rules without http and Ingresses without rules are handled',
      t.ingresses,
      [
        { key: 'Ingress/default/bare', services: [] },
        { key: 'Ingress/default/web', services: ['Service/default/web'] },
      ],
    ],
    ['HPA scaleTargetRef', t.hpas, [{ key: 'HorizontalPodAutoscaler/default/web', target: 'Deployment/default/web' }]],
    [
      'PVC volumeName and class',
      t.pvcs,
      [
        { key: 'PersistentVolumeClaim/default/data', volume: 'PersistentVolume/pvc-1', storageClass: 'StorageClass/standard' },
        { key: 'PersistentVolumeClaim/default/waiting', volume: null, storageClass: 'StorageClass/standard' },
      ],
    ],
    [
      'a Pod mounting a PVC',
      t.pods[0],
      {
        key: 'Pod/default/web-7c9f-a',
        node: 'node-1',
        owner: 'ReplicaSet/default/web-7c9f',
        claims: ['PersistentVolumeClaim/default/data'],
      },
    ],
  ])('%s', (_name, got, want) => {
    expect(got).toEqual(want);
  });
});

describe('touchesTopology', () => {
  const prevSlice = obj('EndpointSlice', 's', {
    metadata: { labels: { 'kubernetes.io/service-name': 'web' } },
    endpoints: [{ targetRef: { kind: 'Pod', name: 'a' } }],
  });
  const svc = obj('Service', 'web', { spec: { clusterIP: '10.96.0.20' } });
  const pvc = obj('PersistentVolumeClaim', 'data', { spec: { storageClassName: 'standard' }, status: { phase: 'Pending' } });
  it.each([
    [
      'an endpoint added to a slice',
      prevSlice,
      { ...prevSlice, endpoints: [{ targetRef: { kind: 'Pod', name: 'a' } }, { targetRef: { kind: 'Pod', name: 'b' } }] },
      true,
    ],
    [
      'an endpoint turning not ready',
      prevSlice,
      { ...prevSlice, endpoints: [{ targetRef: { kind: 'Pod', name: 'a' }, conditions: { ready: false } }] },
      false,
    ],
    ['a Service status change', svc, { ...svc, status: { loadBalancer: {} } }, false],
    ['a PVC binding to a PV', pvc, { ...pvc, spec: { ...pvc.spec, volumeName: 'pvc-9' } }, true],
    ['a PVC phase change only', pvc, { ...pvc, status: { phase: 'Bound' } }, false],
    ['a ConfigMap', obj('ConfigMap', 'x'), obj('ConfigMap', 'x', { data: { a: '1' } }), false],
  ])('%s → %s', (_name, a, b, want) => {
    const prev = stored(a as KObject)
      .values()
      .next().value;
    expect(touchesTopology({ type: 'MODIFIED', resource: 'x', key: key(b as KObject), object: b as KObject, row: null }, prev)).toBe(want);
  });
});

describe('buildModel', () => {
  const t = demo();
  const edgeIds = (v: GraphView) =>
    buildModel(t, v)
      .edges.filter((e) => e.type === 'owner')
      .map((e) => e.id)
      .sort();

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
    [
      'networking off',
      ['networking'],
      ['Service/default/web', 'EndpointSlice/default/web-abcde', 'Ingress/default/web'],
      ['endpoint:', 'route:', 'select:'],
    ],
    [
      'storage off',
      ['storage'],
      ['PersistentVolumeClaim/default/data', 'PersistentVolume/pvc-1', 'StorageClass/standard'],
      ['claim:', 'bind:', 'class:'],
    ],
    ['autoscaling off', ['autoscaling'], ['HorizontalPodAutoscaler/default/web'], ['scale:']],
    [
      'workloads off (the HPA loses its target card)',
      ['workloads'],
      ['Deployment/default/web', 'ReplicaSet/default/web-7c9f'],
      ['own:', 'scale:'],
    ],
  ])('%s hides its cards and edges', (_name, off, cards, prefixes) => {
    const m = buildModel(t, view(off));
    const ids = new Set(m.nodes.map((n) => n.id));
    for (const c of cards) expect(ids.has(c), c).toBe(false);
    for (const id of edgeIds(view(off)))
      expect(
        prefixes.some((p) => id.startsWith(p)),
        id,
      ).toBe(false);
    // Pods and nodes stay
    expect(ids.has('Pod/default/web-7c9f-a') && ids.has('Node/node-1')).toBe(true);
  });

  it('puts Pods in their node, Pending ones in the unscheduled area, with kubelet and kube-proxy per node', () => {
    const m = buildModel(t, view());
    const parent = (id: string) => m.nodes.find((n) => n.id === id)?.parentId;
    expect([parent('Pod/default/web-7c9f-a'), parent('Pod/default/web-7c9f-b'), parent('Pod/default/web-7c9f-c')]).toEqual([
      'Node/node-1',
      'Node/node-2',
      'area:unscheduled',
    ]);
    expect([parent('kubelet/node-1'), parent('kube-proxy/node-1'), parent('kube-proxy/control-plane'), parent('cp:coredns')]).toEqual([
      'Node/node-1',
      'Node/node-1',
      'Node/control-plane',
      'Node/control-plane',
    ]);
    expect(m.edges.filter((e) => e.type === 'relay').map((e) => e.id)).toContain('link:kube-proxy/node-2');
  });
});

describe('Pod groups', () => {
  function crowd(n: number): GraphTopology {
    const t = emptyTopology();
    t.nodes = [{ key: 'Node/node-1', name: 'node-1', controlPlane: false }];
    t.replicaSets = [{ key: 'ReplicaSet/default/web-1', owner: null }];
    t.endpointSlices = [{ key: 'EndpointSlice/default/web-x', service: null, pods: [] }];
    for (let i = 0; i < n; i++)
      t.pods.push({ key: `Pod/default/web-1-${String(i).padStart(3, '0')}`, node: 'node-1', owner: 'ReplicaSet/default/web-1' });
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
    expect(
      m.edges
        .filter((e) => e.target === gid)
        .map((e) => e.id)
        .sort(),
    ).toEqual([`endpoint:EndpointSlice/default/web-x>${gid}`, `own:${gid}`]);
    expect(m.nodes.find((n) => n.id === 'Node/node-1')?.height).toBe(groupHeight(2));
  });
});

describe('system layer', () => {
  /** A booted cluster: coredns in kube-system, the kubernetes Service, the default StorageClass; plus the seed. */
  function booted(): GraphTopology {
    const rs = (name: string, ns: string) => obj('ReplicaSet', name, owned('Deployment', name.replace(/-[^-]+$/, '')), ns);
    const pod = (name: string, rsName: string, node: string, ns: string) =>
      obj('Pod', name, { ...owned('ReplicaSet', rsName), spec: { nodeName: node } }, ns);
    const slice = (name: string, svc: string, ns: string, pods: string[]) =>
      obj(
        'EndpointSlice',
        name,
        {
          metadata: { labels: { 'kubernetes.io/service-name': svc } },
          endpoints: pods.map((p) => ({ targetRef: { kind: 'Pod', name: p, namespace: ns } })),
        },
        ns,
      );
    return computeTopology(
      stored(
        obj('Node', 'control-plane', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, null),
        obj('Node', 'node-1', {}, null),
        obj('Node', 'node-2', {}, null),
        obj('Deployment', 'coredns', {}, 'kube-system'),
        rs('coredns-8b64', 'kube-system'),
        pod('coredns-8b64-aaaaa', 'coredns-8b64', 'node-1', 'kube-system'),
        obj('Service', 'kube-dns', { spec: { selector: { 'k8s-app': 'kube-dns' } } }, 'kube-system'),
        slice('kube-dns-x', 'kube-dns', 'kube-system', ['coredns-8b64-aaaaa']),
        obj('Service', 'kubernetes'),
        slice('kubernetes', 'kubernetes', 'default', []),
        obj('StorageClass', 'standard', {}, null),
        obj('Deployment', 'peekcart'),
        rs('peekcart-7d9f', 'default'),
        pod('peekcart-7d9f-bbbbb', 'peekcart-7d9f', 'node-2', 'default'),
        obj('Service', 'peekcart', { spec: { selector: { app: 'peekcart' } } }),
        slice('peekcart-y', 'peekcart', 'default', ['peekcart-7d9f-bbbbb']),
      ),
    );
  }
  const system = [
    'Deployment/kube-system/coredns',
    'ReplicaSet/kube-system/coredns-8b64',
    'Service/kube-system/kube-dns',
    'EndpointSlice/kube-system/kube-dns-x',
    'Service/default/kubernetes',
    'EndpointSlice/default/kubernetes',
    'StorageClass/standard',
  ];
  const user = [
    'Deployment/default/peekcart',
    'ReplicaSet/default/peekcart-7d9f',
    'Service/default/peekcart',
    'EndpointSlice/default/peekcart-y',
  ];

  it.each<[string, boolean, string[], string[]]>([
    ["off by default: only the user's objects get cards", false, user, system],
    ["on: the cluster's own objects too", true, [...user, ...system], []],
  ])('%s', (_name, on, present, absent) => {
    const v = view();
    const m = buildModel(booted(), { ...v, layers: { ...v.layers, system: on } });
    const ids = new Set(m.nodes.map((n) => n.id));
    for (const id of present) expect(ids.has(id), id).toBe(true);
    for (const id of absent) expect(ids.has(id), id).toBe(false);
    // kube-system Pods stay on their nodes; edges only between drawn cards
    expect(m.nodes.find((n) => n.id === 'Pod/kube-system/coredns-8b64-aaaaa')?.parentId).toBe('Node/node-1');
    for (const e of m.edges) expect(ids.has(e.source) && ids.has(e.target), e.id).toBe(true);
  });

  it.each([
    ['a kube-system Deployment', 'Deployment/kube-system/coredns', true],
    ['the kubernetes Service', 'Service/default/kubernetes', true],
    ['a kube-node-lease Lease', 'Lease/kube-node-lease/node-1', true],
    ["a user's Service", 'Service/default/peekcart', false],
    ['a cluster-scoped Node', 'Node/node-1', false],
  ])('isSystemObject: %s → %s', (_name, key, want) => {
    expect(isSystemObject(key as string)).toBe(want);
  });
});

describe('placement', () => {
  function cluster(workers: string[], pods: [name: string, node: string | null][] = []): GraphTopology {
    const t = emptyTopology();
    t.nodes = [
      { key: 'Node/control-plane', name: 'control-plane', controlPlane: true },
      ...workers.map((n) => ({ key: `Node/${n}`, name: n, controlPlane: false })),
    ];
    t.deployments = [{ key: 'Deployment/default/web' }];
    t.replicaSets = [{ key: 'ReplicaSet/default/web-1', owner: 'Deployment/default/web' }];
    t.pods = pods.map(([name, node]) => ({ key: `Pod/default/${name}`, node, owner: 'ReplicaSet/default/web-1' }));
    return t;
  }
  const xOf = (p: Map<string, { x: number }>, id: string) => p.get(id)?.x ?? NaN;

  it('puts the nodes in name order left to right, the unscheduled area last, in one row', () => {
    const m = buildModel(cluster(['node-1', 'node-2', 'node-3', 'node-10']), view());
    const p = placeBlocks(m);
    const row = ['Node/node-1', 'Node/node-2', 'Node/node-3', 'Node/node-10', UNSCHEDULED_AREA];
    expect(row.map((id) => p.get(id)?.y)).toEqual(row.map(() => p.get('Node/node-1')?.y));
    const nodeW = m.blocks.find((b) => b.id === 'Node/node-1')!.width;
    expect(nodeW).toBeGreaterThanOrEqual(NODE_W);
    expect(row.map((id) => xOf(p, id))).toEqual([0, 1, 2, 3, 4].map((i) => i * (nodeW + GAP_X)));
    expect(m.nodes.find((n) => n.id === UNSCHEDULED_AREA)?.width).toBeGreaterThanOrEqual(AREA_EMPTY_W);
  });

  it('rows go top to bottom: strip, Ingress, HPA beside the Deployment, owned, nodes, PVC with its PV and StorageClass', () => {
    const m = buildModel(demo(), view());
    const p = placeBlocks(m);
    const order = [
      'Node/control-plane',
      'Ingress/default/web',
      'Deployment/default/web',
      'ReplicaSet/default/web-7c9f',
      'Node/node-1',
      'PersistentVolumeClaim/default/data',
    ];
    const ys = order.map((id) => p.get(id)?.y ?? NaN);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(new Set(ys).size).toBe(order.length);
    const y = (id: string) => p.get(id)?.y;
    const right = (id: string) => xOf(p, id) + (m.blocks.find((b) => b.id === id)?.width ?? 0);
    // the HPA just left of what it scales; the PV right of its claim, the class right of the PV
    expect(y('HorizontalPodAutoscaler/default/web')).toBe(y('Deployment/default/web'));
    expect(xOf(p, 'Deployment/default/web')).toBe(right('HorizontalPodAutoscaler/default/web') + GAP_X);
    expect([y('PersistentVolume/pvc-1'), y('StorageClass/standard')]).toEqual([
      y('PersistentVolumeClaim/default/data'),
      y('PersistentVolumeClaim/default/data'),
    ]);
    expect(xOf(p, 'PersistentVolume/pvc-1')).toBeGreaterThanOrEqual(right('PersistentVolumeClaim/default/data') + GAP_X);
    expect(xOf(p, 'StorageClass/standard')).toBeGreaterThanOrEqual(right('PersistentVolume/pvc-1') + GAP_X);
    // same-row links run side to side, links into Pods enter from the left
    const edge = (id: string) => m.edges.find((e) => e.id === id)!;
    expect([
      edge('bind:PersistentVolumeClaim/default/data>PersistentVolume/pvc-1').sourceHandle,
      edge('bind:PersistentVolumeClaim/default/data>PersistentVolume/pvc-1').targetHandle,
    ]).toEqual(['r', 'l']);
    expect(edge('own:Pod/default/web-7c9f-a').targetHandle).toBe('l');
  });

  it.each([['a Pod name with its hash', 'Pod/default/peekcart-57f6cd6664-2qlwk', 'peekcart-57f6cd6664-2qlwk']])(
    'cards are as wide as their text: %s',
    (_name, key, text) => {
      const t = cluster(['node-1'], [[key.split('/')[2], 'node-1']]);
      const measure = (s: string) => s.length * 9;
      const m = buildModel(t, view(), { measure });
      const pod = m.nodes.find((n) => n.id === key)!;
      expect(pod.width).toBeGreaterThanOrEqual(text.length * 9 + 17);
      expect(m.blocks.find((b) => b.id === 'Node/node-1')!.width).toBeGreaterThanOrEqual((pod.width ?? 0) + 16);
      // the strip's chips hold their names
      const kcm = m.nodes.find((n) => n.id === 'cp:kube-controller-manager')!;
      expect(kcm.width).toBeGreaterThanOrEqual('kube-controller-manager'.length * 9 + 16);
    },
  );

  it('places an owner above the node holding its Pods (short edges)', () => {
    const m = buildModel(cluster(['node-1', 'node-2', 'node-3'], [['web-1-a', 'node-3']]), view());
    const p = placeBlocks(m);
    const centre = (id: string) => xOf(p, id) + (m.blocks.find((b) => b.id === id)?.width ?? 0) / 2;
    expect(Math.abs(centre('ReplicaSet/default/web-1') - centre('Node/node-3'))).toBeLessThan(NODE_W / 2);
    expect(Math.abs(centre('Deployment/default/web') - centre('ReplicaSet/default/web-1'))).toBeLessThan(1);
  });

  it('cards of one row never overlap', () => {
    const t = cluster(['node-1', 'node-2'], [['web-1-a', 'node-1']]);
    t.services = ['a', 'b', 'c', 'd'].map((n) => ({ key: `Service/default/${n}` }));
    t.endpointSlices = ['a', 'b', 'c', 'd'].map((n) => ({
      key: `EndpointSlice/default/${n}-x`,
      service: `Service/default/${n}`,
      pods: ['Pod/default/web-1-a'],
    }));
    const m = buildModel(t, view());
    const p = placeBlocks(m);
    for (const row of [2, 3]) {
      const bs = m.blocks.filter((b) => b.row === row).sort((a, b) => xOf(p, a.id) - xOf(p, b.id));
      expect(bs.length).toBeGreaterThan(1);
      for (let i = 1; i < bs.length; i++) expect(xOf(p, bs[i].id)).toBeGreaterThanOrEqual(xOf(p, bs[i - 1].id) + bs[i - 1].width + GAP_X);
    }
  });

  it('keeps nodes and Pods where they were when an unrelated card is added', () => {
    const t = cluster(
      ['node-1', 'node-2'],
      [
        ['web-1-a', 'node-1'],
        ['web-1-b', 'node-2'],
      ],
    );
    const p1 = placeBlocks(buildModel(t, view()));
    const p2 = placeBlocks(buildModel({ ...t, services: [{ key: 'Service/default/aaa' }] }, view()));
    for (const id of ['Node/node-1', 'Node/node-2', 'Node/control-plane', 'ReplicaSet/default/web-1'])
      expect(p2.get(id)?.x, id).toBe(p1.get(id)?.x);
  });

  it.each([
    ['a wide pane keeps 8 nodes in one row', { width: 4000, height: 600 }, 1],
    ['a 520×380 pane wraps 8 nodes', { width: 520, height: 380 }, 2],
    ['no pane size: one row', undefined, 1],
  ])('%s', (_name, pane, lines) => {
    const m = buildModel(cluster(Array.from({ length: 8 }, (_, i) => `node-${i + 1}`)), view());
    const p = placeBlocks(m, pane);
    expect(new Set(m.blocks.filter((b) => b.row === 4).map((b) => p.get(b.id)?.y)).size).toBe(lines);
    // the unscheduled area shares its line with nodes
    const areaY = p.get(UNSCHEDULED_AREA)?.y;
    expect(m.blocks.filter((b) => b.row === 4 && b.id !== UNSCHEDULED_AREA && p.get(b.id)?.y === areaY).length).toBeGreaterThan(0);
  });
});

describe('layout', () => {
  it('keeps identity of unchanged nodes and edges', () => {
    const m = buildModel(demo(), view());
    const p = placeBlocks(m);
    const a = layoutGraph(m, p);
    const b = layoutGraph(buildModel(demo(), view()), p, a);
    expect(b.nodes.every((n, i) => n === a.nodes[i])).toBe(true);
    expect(b.edges.every((e, i) => e === a.edges[i])).toBe(true);
  });
});
