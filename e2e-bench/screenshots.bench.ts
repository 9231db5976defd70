/**
 * The README's screenshots (docs/*.png), taken as a person would get them (not part of
 * `npm run bench:ui`: runs only with SCREENSHOTS=1):
 *
 *   SCREENSHOTS=1 E2E_DIST=/tmp/dist-x E2E_PORT=4299 npx playwright test -c playwright.bench.config.ts screenshots
 */
import { test, expect, type Page } from '@playwright/test';

test.skip(!process.env.SCREENSHOTS, 'screenshots only with SCREENSHOTS=1');

async function open(page: Page, width = 1440, height = 900): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto('/');
  await expect(page.getByTestId('editor').locator('.monaco-editor .view-lines')).toContainText('kind: Deployment');
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
}

async function kubectl(page: Page, line: string): Promise<void> {
  await page.getByTestId('tab-kubectl').click();
  await page.getByTestId('kubectl-input').fill(line);
  await page.getByTestId('kubectl-input').press('Enter');
}

async function settledGraph(page: Page): Promise<void> {
  await expect(page.getByTestId('graph')).toHaveAttribute('data-layout', 'elk');
  await expect(page.getByTestId('graph')).not.toHaveClass(/layout-settling/);
  await page.waitForTimeout(400);
}

test('README screenshots', async ({ page, browser }) => {
  test.setTimeout(240_000);
  // 1. the seed applied, at 1280×800: the default view — the relay tells the story of the apply
  await open(page, 1280, 800);
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 60_000,
  });
  await settledGraph(page);
  await expect(page.getByTestId('sequence-diagram').locator('svg')).toContainText('create Deployment');
  await page.waitForTimeout(800);
  await page.screenshot({ path: 'docs/screenshot.png' });
  // the same story with the relay given the whole window
  await page.getByTestId('relay-max').click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: 'docs/screenshot-relay.png' });
  await page.getByTestId('relay-max').click();
  await page.setViewportSize({ width: 1440, height: 900 });
  await settledGraph(page);

  // 2. the inspector's "why this node"
  await page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]').first().click();
  await page.getByTestId('inspector').getByTestId('inspector-tab-scheduling').click();
  await expect(page.getByTestId('scheduling-row')).toHaveCount(4);
  await page.screenshot({ path: 'docs/screenshot-scheduling.png' });
  await page.keyboard.press('Escape');

  // 3. traffic from a Pod to the Service, spread over the endpoints
  await kubectl(page, 'run client --image=busybox:1.36 -- sleep 3600');
  await expect(page.locator('[data-testid=pod-card][data-pod="default/client"][data-status=Running]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('tab-network').click();
  await page.getByTestId('traffic-source').selectOption('default/client');
  await page.getByTestId('traffic-url').fill('http://peekcart');
  await page.getByTestId('traffic-count').fill('12');
  await page.getByTestId('traffic-send').click();
  await expect(page.locator('[data-testid=traffic-result][data-ok=true]')).toHaveCount(12);
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot-network.png' });

  // 4. the graph with the peekcart example (gallery), in a fresh session
  page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
  await open(page, 1600, 1000);
  await page.getByTestId('examples').click();
  await page.locator('[data-testid=example][data-example=peekcart]').click();
  await page.getByTestId('apply').click();
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod="default/mysql-0"][data-status=Running]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('[data-testid=pv-card]')).toHaveCount(1, { timeout: 30_000 });
  await settledGraph(page);
  await page.getByRole('button', { name: 'fit the whole graph in view' }).click();
  await page.waitForTimeout(400);
  await page.locator('.graph-pane').screenshot({ path: 'docs/screenshot-graph.png' });

  // 5. a 1920×1080 window: the seed applied, the Events tab in the wider side panel
  page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
  await open(page, 1920, 1080);
  await page.getByTestId('apply').click();
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 60_000,
  });
  await page.getByTestId('speed').selectOption('1');
  await settledGraph(page);
  await page.getByTestId('tab-events').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshot-1920.png' });

  // 7. RBAC at 1280×800: acting as jane (kubectl bar's "Acting as"), `get pods` is Forbidden
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('tab-kubectl').click();
  await page.getByTestId('acting-as-select').selectOption('__user__');
  await page.getByTestId('acting-as-user').fill('jane');
  await page.getByTestId('acting-as-groups').fill('devs');
  await page.getByTestId('acting-as-apply').click();
  await expect(page.getByTestId('acting-as-chip')).toHaveAttribute('data-user', 'jane');
  await kubectl(page, 'get pods');
  await expect(page.getByTestId('kubectl-output')).toContainText('User "jane" cannot list resource "pods"');
  await page.waitForTimeout(800);
  await page.screenshot({ path: 'docs/screenshot-rbac.png' });
});
