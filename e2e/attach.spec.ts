/**
 * The browser attached to a kube-relay apiserver (issue 9 §4), run by playwright.attach.config.ts:
 * `npm run apiserver` at ×20 behind the preview server's /k8s proxy. The page attaches through
 * the toolbar's engine select, the seed's Deployment and Service are created over the REST API
 * (as kubectl would), and the views follow the server's watch streams: 3 Pods Running in the
 * graph and the table, the relay the server recorded, streamed into the sequence diagram; the
 * kill button powers the Machine off through the API.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { test, expect } from './fixtures';

const apiPort = Number(process.env.E2E_API_PORT ?? 16443);
const api = `http://127.0.0.1:${apiPort}`;
/** The apiserver's per-start bearer token, from the kubeconfig it wrote (playwright.attach.config.ts). */
const auth = () => ({
  Authorization: `Bearer ${/^\s+token:\s*(\S+)/m.exec(readFileSync(process.env.KUBE_RELAY_ATTACH_KUBECONFIG ?? '', 'utf8'))?.[1] ?? ''}`,
});

test.skip(!process.env.KUBE_RELAY_ATTACH_E2E, 'runs under playwright.attach.config.ts (it starts the apiserver)');

test('attach to a kube-relay apiserver, create the seed Deployment over the API, watch it run', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await expect(page.getByTestId('engine-badge')).toHaveText('in-browser engine');

  // choose the API server through the app's proxy: the page reloads attached
  await page.getByTestId('engine-select').selectOption('proxy');
  await expect(page.getByTestId('engine-badge')).toContainText(`kube-relay apiserver ${api}`);
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  await expect(page.locator('[data-testid=node-card][data-ready=true]')).toHaveCount(4);

  // kubectl apply's work, over the REST API
  const docs = parseAllDocuments(readFileSync('src/scenarios/peekcart.yaml', 'utf8')).map((d) => d.toJSON());
  for (const d of docs) {
    const path = d.kind === 'Deployment' ? '/apis/apps/v1/namespaces/default/deployments' : '/api/v1/namespaces/default/services';
    const res = await page.request.post(`${api}${path}?fieldManager=kubectl-client-side-apply`, {
      data: d,
      headers: { 'Content-Type': 'application/json', ...auth() },
    });
    expect(res.status(), `${d.kind} created`).toBe(201);
  }

  const running = page.locator('[data-testid=pod-card][data-status=Running][data-pod^="default/peekcart-"]');
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  for (const card of await running.all()) await expect(card).toHaveAttribute('data-pod', /^default\/peekcart-[a-z0-9]+-[a-z0-9]{5}$/);
  await expect(page.locator('[data-testid=resource-row][data-kind=Deployment][data-name=peekcart]')).toHaveAttribute('data-ready', '3/3');

  // the relay the server recorded, streamed (GET /kube-relay/v1/relay): it has the etcd writes,
  // which a relay inferred from watch streams never shows
  const diagram = page.getByTestId('sequence-diagram');
  await expect(diagram.locator('svg')).toBeVisible();
  await expect(diagram.locator('svg')).toContainText('kube-scheduler');
  await expect(page.getByTestId('engine-badge')).not.toContainText('inferred relay');
  await page.getByTestId('sequence-filter-object').fill('default/peekcart');
  await expect(diagram.locator('svg')).toContainText('put /registry/deployments/default/peekcart');
  await expect(diagram.locator('svg')).not.toContainText('(inferred)');
  await page.getByTestId('sequence-filter-object').fill('');

  // worker-only controls say so; kill powers the Machine off through the API
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('notice')).toContainText('needs the in-browser engine');
  const node = await running.first().getAttribute('data-node');
  await page.locator(`[data-testid=kill-node][data-node=${node}]`).click();
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`${api}/apis/sim.kube-relay.dev/v1alpha1/machines/${node}`, { headers: auth() })).json()).spec.power,
    )
    .toBe('Off');

  await page.screenshot({ path: test.info().outputPath('attached.png') });
});
