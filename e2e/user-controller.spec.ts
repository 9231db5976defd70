/**
 * Write your own controller (issue 19, docs/user-controllers.md): open the Website example,
 * apply its CRD, start the controller from its tab, apply a Website: the Deployment's Pods
 * appear, the controller is a card in the control plane and a participant of the relay; a
 * reload restores the controller and its effects. The sandbox cannot reach the DOM, the
 * network or the engine; a looping controller is stopped and reported.
 */
import { test, expect, diagramParticipants } from './fixtures';
import type { Page } from '@playwright/test';

const tab = (page: Page, name: string) => page.locator(`[data-testid=editor-tab][data-tab="${name}"]`);
const siteStatus = (page: Page, name: string) =>
  page.evaluate(
    (n) =>
      window.__kubeRelay!.objects.find((o) => o.kind === 'Website' && o.metadata.name === n)?.status as
        { readyReplicas?: number } | undefined,
    name,
  );

/** openApp, with room for a loaded machine (the engine and Monaco's TypeScript worker start slowly there). */
async function openWebsiteExample(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('editor').locator('.monaco-editor .view-lines')).toContainText('kind: Deployment', { timeout: 60_000 });
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4, { timeout: 60_000 });
  await page.getByTestId('examples').click();
  await page.locator('[data-testid=example][data-example=website-operator]').click();
  await expect(tab(page, 'website-crd.yaml')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    'customresourcedefinition.apiextensions.k8s.io/websites.demo.kube-relay.dev created',
  ]);
}

test("the Website example: start the controller, its Deployment's Pods appear, it joins the relay; a reload restores it", async ({
  page,
}) => {
  test.setTimeout(360_000);
  await openWebsiteExample(page);
  await tab(page, 'website.controller.ts').click();
  await expect(page.getByTestId('apply')).toHaveCount(0); // a controller tab is not a manifest
  await page.getByTestId('controller-start').click();
  const status = page.getByTestId('controller-status');
  await expect(status).toHaveAttribute('data-state', 'running', { timeout: 60_000 });
  await expect(status).toHaveAttribute('data-name', 'website-controller');
  const card = page.locator('[data-testid=component-card][data-user-controller=website-controller]');
  await expect(card).toBeVisible();

  await tab(page, 'website.yaml').click();
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['website.demo.kube-relay.dev/blog created']);
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/blog-"][data-status=Running]')).toHaveCount(2, { timeout: 60_000 });
  await expect.poll(() => siteStatus(page, 'blog').then((s) => s?.readyReplicas), { timeout: 30_000 }).toBe(2);
  const owner = await page.evaluate(
    () => window.__kubeRelay!.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'blog')?.metadata.ownerReferences,
  );
  expect(owner).toMatchObject([{ kind: 'Website', name: 'blog', controller: true, blockOwnerDeletion: true }]);
  // in the relay under its name: watch deliveries to it, its decisions, its requests through the apiserver
  const hops = await page.evaluate(() =>
    window
      .__kubeRelay!.relay.filter((h) => h.from === 'website-controller' || h.to === 'website-controller')
      .map((h) => `${h.kind} ${h.from}>${h.to} ${h.verb ?? ''} ${h.resource ?? ''}`),
  );
  expect(hops).toContain('watch kube-apiserver>website-controller ADDED websites');
  expect(hops).toContain('request website-controller>kube-apiserver create deployments');
  expect(hops).toContain('request website-controller>kube-apiserver create services');
  expect(hops.some((h) => h.startsWith('decision website-controller>website-controller'))).toBe(true);
  await expect.poll(() => diagramParticipants(page.getByTestId('sequence-diagram')), { timeout: 15_000 }).toContain('website-controller');
  await expect(card).toHaveAttribute('data-errors', '0');
  await card.click();
  await expect(page.getByTestId('user-controller-inspector')).toContainText('websites.demo.kube-relay.dev');
  await expect(page.getByTestId('user-controller-last-error')).toHaveText('none');
  await page.screenshot({ path: 'test-results/user-controller.png' });

  await page.waitForTimeout(2_000); // a periodic save
  const uid = await page.evaluate(
    () => window.__kubeRelay!.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'blog')?.metadata.uid,
  );
  await page.reload();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4, { timeout: 60_000 });
  await expect(page.locator('[data-testid=component-card][data-user-controller=website-controller]')).toBeVisible({ timeout: 60_000 });
  expect(
    await page.evaluate(() => window.__kubeRelay!.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'blog')?.metadata.uid),
  ).toBe(uid);
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/blog-"][data-status=Running]')).toHaveCount(2);
  // the restored controller keeps reconciling: a second Website gets its Deployment
  await tab(page, 'website.yaml').click();
  await page.evaluate(() => window.__kubeRelay!.setEditorText(window.__kubeRelay!.editorText.replace('name: blog', 'name: shop')));
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/shop-"][data-status=Running]')).toHaveCount(2, { timeout: 60_000 });
});

const PROBE = `// +kube-relay:for=websites.demo.kube-relay.dev
export async function reconcile(request, client) {
  const probe = {};
  for (const name of ['document', 'window', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches', 'Worker', 'BroadcastChannel', 'navigator', '__kubeRelay']) {
    probe[name] = typeof self[name];
  }
  try { probe.importFrom = typeof (await import('http://localhost:9/evil.js')); } catch (e) { probe.importFrom = 'blocked'; }
  try { probe.functionFetch = new Function('return typeof fetch')(); } catch (e) { probe.functionFetch = 'blocked'; }
  probe.engine = typeof Cluster + ' ' + typeof ClusterHost;
  const site = await client.get({ apiVersion: 'demo.kube-relay.dev/v1', kind: 'Website', namespace: request.namespace, name: request.name });
  if (site.metadata.annotations?.probe) return {};
  site.metadata.annotations = { probe: JSON.stringify(probe) };
  await client.update(site);
  return {};
}
`;

test('the sandbox: no DOM, no network, no engine; a looping controller is stopped at the CPU limit and reported', async ({ page }) => {
  test.setTimeout(180_000);
  await openWebsiteExample(page);
  await page.getByTestId('new-tab').click();
  await tab(page, 'untitled.yaml').locator('.tab-name').dblclick();
  await page.getByTestId('tab-rename').fill('probe.controller.js');
  await page.getByTestId('tab-rename').press('Enter');
  await expect(tab(page, 'probe.controller.js')).toHaveAttribute('aria-selected', 'true');
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), PROBE);
  await page.getByTestId('controller-start').click();
  await expect(page.getByTestId('controller-status')).toHaveAttribute('data-state', 'running', { timeout: 60_000 });
  await tab(page, 'website.yaml').click();
  await page.getByTestId('apply').click();
  const probe = await expect
    .poll(() => page.evaluate(() => window.__kubeRelay!.objects.find((o) => o.kind === 'Website')?.metadata.annotations?.probe), {
      timeout: 30_000,
    })
    .toBeTruthy()
    .then(() =>
      page.evaluate(() => JSON.parse(window.__kubeRelay!.objects.find((o) => o.kind === 'Website')!.metadata.annotations!.probe)),
    );
  expect(probe).toEqual({
    document: 'undefined',
    window: 'undefined',
    fetch: 'undefined',
    XMLHttpRequest: 'undefined',
    WebSocket: 'undefined',
    EventSource: 'undefined',
    importScripts: 'undefined',
    indexedDB: 'undefined',
    caches: 'undefined',
    Worker: 'undefined',
    BroadcastChannel: 'undefined',
    navigator: 'undefined',
    __kubeRelay: 'undefined',
    importFrom: 'blocked',
    functionFetch: 'undefined',
    engine: 'undefined undefined',
  });

  // a controller that loops forever: stopped after 1 s of wall time, reported, the cluster goes on
  await tab(page, 'probe.controller.js').click();
  await page.evaluate(() =>
    window.__kubeRelay!.setEditorText('// +kube-relay:for=websites.demo.kube-relay.dev\nexport function reconcile() { for (;;) {} }\n'),
  );
  await page.getByTestId('controller-start').click();
  await expect(page.getByTestId('controller-error')).toContainText(
    'default/blog: Reconciler error: reconcile did not finish within the 1000 ms CPU limit: the sandbox was stopped and restarted',
    { timeout: 15_000 },
  );
  await page.getByTestId('tab-events').click();
  await expect(page.locator('[data-testid=event-row][data-reason=ReconcileError][data-type=Warning]').first()).toContainText(
    'Reconciler error: reconcile did not finish within the 1000 ms CPU limit',
  );
  await expect(page.locator('[data-testid=component-card][data-user-controller=probe-controller]')).not.toHaveAttribute('data-errors', '0');
  const t0 = await page.evaluate(() => window.__kubeRelay!.simMs);
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.simMs), { timeout: 10_000 }).toBeGreaterThan(t0 + 1000);
});

test('type help: the controller tab knows the client API', async ({ page }) => {
  test.setTimeout(120_000);
  await openWebsiteExample(page);
  await tab(page, 'website.controller.ts').click();
  await page.evaluate(() =>
    window.__kubeRelay!.setEditorText(
      "import type { Deployment } from 'kubernetes-types/apps/v1';\nexport async function reconcile(request: ReconcileRequest, client: Client) {\n  await client.updateStatuss({} as KubeObject);\n  const d = await client.get<Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', name: request.name });\n  d.spec.replicass = 1;\n  return { requeueAfter: 10 };\n}\n",
    ),
  );
  const messages = () => page.evaluate(() => window.__kubeRelay!.editorMarkers.map((m) => m.message));
  // the client API (controller-api.d.ts) and the kinds' fields (kubernetes-types)
  await expect
    .poll(messages, { timeout: 60_000 })
    .toContainEqual(expect.stringContaining("Property 'updateStatuss' does not exist on type 'Client'. Did you mean 'updateStatus'?"));
  await expect
    .poll(messages, { timeout: 60_000 })
    .toContainEqual(expect.stringContaining("Property 'replicass' does not exist on type 'DeploymentSpec'. Did you mean 'replicas'?"));
});
