/** Nothing lost: persistence across reload, worker-crash recovery, share links, exports. */
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: keep
spec:
  containers:
    - name: c
      image: nginx:1.27
`;

function b64url(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64url');
}

const podKeep = (page: Page) => page.locator('[data-testid=pod-card][data-pod="default/keep"]');
const uidOf = (page: Page) =>
  page.evaluate(() => window.__kubeRelay!.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'keep')?.metadata.uid);

test('tabs, cluster and time survive a reload (IndexedDB replay)', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('new-tab').click();
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), POD);
  await page.getByTestId('apply').click();
  await expect(podKeep(page)).toHaveAttribute('data-status', 'Running', { timeout: 30_000 });
  await page.waitForTimeout(2_000); // a periodic save
  const before = { uid: await uidOf(page), simMs: await page.evaluate(() => window.__kubeRelay!.simMs) };
  await page.reload();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  await expect(podKeep(page)).toHaveAttribute('data-status', 'Running');
  expect(await uidOf(page)).toBe(before.uid);
  expect(await page.evaluate(() => window.__kubeRelay!.simMs)).toBeGreaterThanOrEqual(before.simMs - 2_000);
  await expect(page.getByTestId('editor-tab')).toHaveCount(2);
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.editorText)).toBe(POD);
  await page.screenshot({ path: 'test-results/23-restored.png' });
});

test('a worker crash is reported and the cluster restored from the saved log', async ({ page }) => {
  await openApp(page);
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), POD);
  await page.getByTestId('apply').click();
  await expect(podKeep(page)).toHaveAttribute('data-status', 'Running', { timeout: 30_000 });
  const uid = await uidOf(page);
  await page.evaluate(() => window.__kubeRelay!.crashWorker());
  await expect(page.getByText('The cluster worker crashed; the cluster was restored from the saved session.')).toBeVisible();
  await expect(podKeep(page)).toHaveAttribute('data-status', 'Running');
  expect(await uidOf(page)).toBe(uid);
});

test('/#manifest= opens the YAML in a tab; &apply=1 applies it once agreed; ?scenario= without apply does not', async ({ page }) => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n  a: "1"\n';
  await page.goto(`/#manifest=${b64url(cm)}&apply=1`);
  await expect(page.locator('[data-testid=editor-tab][data-tab="shared.yaml"]')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.editorText)).toBe(cm);
  // a link applies nothing before the person agrees (share-links.spec.ts)
  await page.getByTestId('share-apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['configmap/shared created']);

  const page2 = await page.context().newPage();
  await page2.goto(`/?scenario=${b64url(cm.replace('shared', 'other'))}`);
  await expect(page2.locator('[data-testid=editor-tab][data-tab="scenario.yaml"]')).toBeVisible();
  await expect.poll(() => page2.evaluate(() => window.__kubeRelay!.editorText)).toContain('name: other');
  await page2.waitForTimeout(1_000);
  await expect(page2.getByTestId('apply-result')).toHaveCount(0);
  await page2.close();
});

test('share copies the link of the current tab; exports download files', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('sequence-diagram').locator('svg')).toBeAttached();
  await page.getByTestId('session-menu').click();
  await page.getByTestId('share').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#manifest=[A-Za-z0-9_-]+$/);
  const text = await page.evaluate(() => window.__kubeRelay!.editorText);
  expect(Buffer.from(link.split('#manifest=')[1], 'base64url').toString('utf8')).toBe(text);

  const expectDownload = async (id: string, name: RegExp) => {
    await page
      .locator('details.session-menu[open]')
      .count()
      .then(async (n) => n || (await page.getByTestId('session-menu').click()));
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
    expect(d.suggestedFilename()).toMatch(name);
    const p = await d.path();
    return (await import('node:fs')).readFileSync(p!);
  };
  expect((await expectDownload('export-diagram-svg', /\.svg$/)).toString()).toContain('<svg');
  expect((await expectDownload('export-diagram-png', /\.png$/)).subarray(1, 4).toString()).toBe('PNG');
  expect((await expectDownload('export-diagram-mermaid', /\.mmd$/)).toString()).toMatch(/^sequenceDiagram/);
  expect((await expectDownload('export-graph-png', /\.png$/)).subarray(1, 4).toString()).toBe('PNG');
  const session = JSON.parse((await expectDownload('export-session', /\.json$/)).toString());
  expect(session.format).toBe('kube-relay-session-file');
  expect(session.cluster.steps.map((e: { step: { kind: string } }) => e.step.kind)).toEqual(['apply']);
});
