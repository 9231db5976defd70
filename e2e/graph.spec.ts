/**
 * The graph's object cards (issue 5 §9) and depth (issue 6 §1): apply a Deployment, Service,
 * PVC (mounted by a Pod), HPA and Ingress through the editor; the cards and the edges between
 * them appear; layers toggle; a crowd of Pods collapses into group chips that expand; a request
 * from the Network panel travels the graph as a packet.
 */
import { test, expect, openApp, pasteIntoEditor } from './fixtures';

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 21
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{ containerPort: 80 }]
        resources: { requests: { cpu: 50m } }
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 80 }]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 1Gi } }
---
apiVersion: v1
kind: Pod
metadata:
  name: db
spec:
  containers:
  - name: db
    image: nginx:1.27
    volumeMounts: [{ name: data, mountPath: /data }]
  volumes:
  - name: data
    persistentVolumeClaim: { claimName: data }
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }
  minReplicas: 21
  maxReplicas: 30
  metrics:
  - type: Resource
    resource: { name: cpu, target: { type: Utilization, averageUtilization: 50 } }
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - host: shop.example
    http:
      paths:
      - path: /
        pathType: Prefix
        backend: { service: { name: web, port: { number: 80 } } }
`;

test('object cards, their edges, layer toggles, Pod groups and traffic packets', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  await page.getByTestId('speed').selectOption('10');
  await pasteIntoEditor(page, MANIFEST);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    'deployment.apps/web created',
    'service/web created',
    'persistentvolumeclaim/data created',
    'pod/db created',
    'horizontalpodautoscaler.autoscaling/web created',
    'ingress.networking.k8s.io/web created',
  ]);

  const graph = page.getByTestId('graph');
  // cards
  await expect(graph.locator('[data-testid=service-card][data-service="default/web"]')).toBeVisible();
  await expect(graph.locator('[data-testid=endpointslice-card][data-slice^="default/web-"]')).toHaveCount(1);
  await expect(graph.locator('[data-testid=ingress-card][data-ingress="default/web"]')).toBeVisible();
  await expect(graph.locator('[data-testid=hpa-card][data-hpa="default/web"]')).toBeVisible();
  await expect(graph.locator('[data-testid=pvc-card][data-pvc="default/data"][data-phase=Bound]')).toBeVisible({ timeout: 60_000 });
  await expect(graph.locator('[data-testid=pv-card][data-phase=Bound]')).toHaveCount(1);
  await expect(graph.locator('[data-testid=storageclass-card]')).not.toHaveCount(0);
  // the Service counts the ready endpoints of its slices
  await expect(graph.locator('[data-testid=service-card][data-service="default/web"]')).toHaveAttribute('data-endpoints', '21', {
    timeout: 90_000,
  });

  // edges between what selects, routes, scales and binds what
  for (const rel of ['own', 'select', 'endpoint', 'route', 'scale', 'claim', 'bind', 'class']) {
    await expect(graph.locator(`.react-flow__edge.rel-${rel}`).first(), rel).toBeAttached();
  }

  // 21 Pods on 3 worker nodes: more than 5 of one ReplicaSet on a node collapse into a chip
  const group = graph.locator('[data-testid=pod-group]').first();
  await expect(group).toHaveAttribute('aria-expanded', 'false');
  const count = Number(await group.getAttribute('data-count'));
  expect(count).toBeGreaterThan(5);
  const id = await group.getAttribute('data-group');
  const chip = graph.locator(`[data-testid=pod-group][data-group="${id}"]`);
  const cards = graph.locator('[data-testid=pod-card][data-pod^="default/web-"]');
  const before = await cards.count();
  await chip.click();
  await expect(chip).toHaveAttribute('aria-expanded', 'true');
  await expect(cards).toHaveCount(before + count);
  await page.screenshot({ path: 'test-results/graph-expanded.png' });
  await chip.click();
  await expect(chip).toHaveAttribute('aria-expanded', 'false');
  await expect(cards).toHaveCount(before);

  // layers
  for (const [layer, hook] of [
    ['networking', 'service-card'],
    ['storage', 'pvc-card'],
    ['autoscaling', 'hpa-card'],
  ] as const) {
    const toggle = page.locator(`[data-testid=layer-toggle][data-layer=${layer}]`);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(graph.locator(`[data-testid=${hook}]`)).toHaveCount(0);
    await toggle.click();
    await expect(graph.locator(`[data-testid=${hook}]`).first()).toBeVisible();
  }
  const workloads = page.locator('[data-testid=layer-toggle][data-layer=workloads]');
  await workloads.click();
  await expect(graph.locator('[data-testid=workload-card]')).toHaveCount(0);
  await expect(graph.locator('.react-flow__edge.rel-own')).toHaveCount(0);
  await workloads.click();
  await expect(graph.locator('[data-testid=workload-card][data-name=web]')).toBeVisible();

  // clicking a card opens the inspector
  await graph.locator('[data-testid=service-card][data-service="default/web"]').click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await page.keyboard.press('Escape');

  // a request from a Pod to the Service travels the graph
  await page.getByTestId('tab-network').click();
  const source = page.getByTestId('traffic-source');
  const pod = await source
    .locator('option')
    .evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v.includes('db')) ?? '');
  if (pod) await source.selectOption(pod);
  await page.getByTestId('traffic-url').fill('http://web');
  // continuous mode: one request every 300 ms, so a packet is in flight while we look
  await page.getByTestId('traffic-interval').fill('300');
  await page.getByTestId('traffic-continuous').check();
  const packet = graph.locator('[data-testid=traffic-packet]').first();
  await expect(packet).toBeAttached();
  await expect(packet).toHaveAttribute('data-ok', 'true');
  await page.screenshot({ path: 'test-results/graph-traffic.png' });
  await page.getByTestId('traffic-continuous').uncheck();
});
