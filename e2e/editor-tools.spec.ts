/**
 * The editor's tools: schema completion and validation (monaco-yaml + the generated
 * Kubernetes schema), apiserver dry-run markers, tabs, kubectl diff, dry run, bad input.
 */
import { test, expect, openApp, SELECTOR_MISMATCH } from './fixtures';
import type { Page } from '@playwright/test';

const editor = (page: Page) => page.getByTestId('editor');
const markers = (page: Page) => page.evaluate(() => window.__kubeRelay!.editorMarkers);

test('Ctrl+Space after `kind: ` lists the kinds; an unknown field is a warning marker', async ({ page }) => {
  await openApp(page);
  await page.evaluate(() => window.__kubeRelay!.setEditorText('apiVersion: apps/v1\nkind: '));
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('Control+Space');
  const suggest = page.locator('.suggest-widget');
  await expect(suggest).toBeVisible();
  await expect(suggest).toContainText('Deployment');
  await expect(suggest).toContainText('StatefulSet');
  await page.screenshot({ path: 'test-results/20-completion.png' });
  await page.keyboard.press('Escape');

  await page.evaluate(() =>
    window.__kubeRelay!.setEditorText(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  foo: 1\n  containers:\n    - name: web\n      image: nginx\n',
    ),
  );
  await expect
    .poll(async () => (await markers(page)).filter((m) => m.owner === 'yaml').map((m) => `${m.line} ${m.message}`))
    .toContainEqual(expect.stringMatching(/^6 Property foo is not allowed/));
  await expect(editor(page).locator('.squiggly-warning, .squiggly-error').first()).toBeAttached();
  // and the apiserver's strict field validation says the same on the same line
  await expect.poll(async () => (await markers(page)).filter((m) => m.owner === 'apiserver').map((m) => m.line)).toEqual([6]);
});

test('apiserver dry-run errors become markers on the offending line, without changing the cluster', async ({ page }) => {
  await openApp(page);
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), SELECTOR_MISMATCH);
  await expect
    .poll(async () => (await markers(page)).filter((m) => m.owner === 'apiserver'))
    .toEqual([
      {
        owner: 'apiserver',
        severity: 8,
        line: 12, // `labels:` under template.metadata
        message:
          'The Deployment "peekcart" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"peekcart-typo"}: `selector` does not match template `labels`',
      },
    ]);
  await expect(editor(page).locator('.squiggly-error')).toBeAttached();
  await page.screenshot({ path: 'test-results/21-apiserver-marker.png' });
  // a dry run stores nothing, and is not recorded in the relay
  const objects = await page.evaluate(() =>
    window.__kubeRelay!.objects.filter((o) => o.kind === 'Deployment' && o.metadata.name === 'peekcart'),
  );
  expect(objects).toEqual([]);

  // the Dry run button prints kubectl's answer
  await page.getByTestId('dry-run').click();
  await expect(page.getByTestId('dry-run-output')).toContainText('`selector` does not match template `labels`');

  // a real Apply marks the same line
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveClass(/error/);
  await expect.poll(async () => (await markers(page)).filter((m) => m.owner === 'apiserver').map((m) => m.line)).toEqual([12]);
});

test('tabs: new, rename, switch, close; each tab keeps its own text', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('new-tab').click();
  await expect(page.getByTestId('editor-tab')).toHaveCount(2);
  await page.evaluate(() => window.__kubeRelay!.setEditorText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: second\n'));
  await page.locator('[data-testid=editor-tab][data-tab="untitled.yaml"] .tab-name').dblclick();
  await page.getByTestId('tab-rename').fill('config.k8s.yaml');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid=editor-tab][data-tab="config.k8s.yaml"]')).toBeVisible();
  await page.locator('[data-testid=editor-tab][data-tab="manifest.yaml"] .tab-name').click();
  await expect(editor(page).locator('.view-lines')).toContainText('kind: Deployment');
  await page.locator('[data-testid=editor-tab][data-tab="config.k8s.yaml"] .tab-name').click();
  await expect(editor(page).locator('.view-lines')).toContainText('name: second');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['configmap/second created']);
  await page.locator('[data-testid=editor-tab][data-tab="config.k8s.yaml"] [data-testid=close-tab]').click();
  await expect(page.getByTestId('editor-tab')).toHaveCount(1);
  await expect(editor(page).locator('.view-lines')).toContainText('kind: Deployment');
});

test('kubectl diff of the current tab against the cluster', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['deployment.apps/peekcart created', 'service/peekcart created']);
  const text = await page.evaluate(() => window.__kubeRelay!.editorText);
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t.replace(/replicas: \d+/, 'replicas: 5')), text);
  await page.getByTestId('diff').click();
  const out = page.getByTestId('diff-output');
  await expect(out).toContainText(
    /diff -u -N \/tmp\/LIVE-\d+\/apps\.v1\.Deployment\.default\.peekcart \/tmp\/MERGED-\d+\/apps\.v1\.Deployment\.default\.peekcart/,
  );
  await expect(out).toContainText('+  replicas: 5');
  await expect(out).not.toContainText('v1.Service.default.peekcart');
  await page.screenshot({ path: 'test-results/22-diff.png' });
});

test('markup in labels, annotations and commands is shown as text, never injected', async ({ page }) => {
  await openApp(page);
  const evil = `apiVersion: v1
kind: Pod
metadata:
  name: xss
  annotations:
    note: "<img src=x onerror=\\"window.__pwned=1\\"><script>window.__pwned=2</script>"
  labels:
    app: "<b>bold</b>"
spec:
  containers:
    - name: c
      image: nginx
      command: ["sh", "-c", "<script>window.__pwned=3</script>"]
`;
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), evil);
  await page.getByTestId('apply').click();
  // the label value is invalid: the apiserver's message quotes it, as text
  await expect(page.getByTestId('apply-result')).toContainText('<b>bold</b>');
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t.replace('"<b>bold</b>"', 'xss')), evil);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['pod/xss created']);
  await page.locator('[data-testid=pod-card][data-pod="default/xss"]').click();
  await expect(page.getByTestId('inspector')).toContainText('<script>window.__pwned=3</script>');
  await expect(page.getByTestId('sequence-diagram').locator('svg')).toBeAttached();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img[src=x], b:text("bold")').count()).toBe(0);
});

test('a 5 MB paste: the page stays responsive and the worker refuses it clearly', async ({ page }) => {
  await openApp(page);
  const big = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${'  key: value-value-value-value\n'.repeat(170_000)}`;
  expect(big.length).toBeGreaterThan(5_000_000);
  // longest main-thread stall while the text goes in and the worker answers
  const stall = await page.evaluate(async (text) => {
    let worst = 0;
    let last = performance.now();
    let on = true;
    const tickLoop = () => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
      if (on) setTimeout(tickLoop, 10);
    };
    tickLoop();
    const t0 = performance.now();
    window.__kubeRelay!.setEditorText(text);
    const setMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 3_000));
    on = false;
    return { worst, setMs };
  }, big);
  console.log(`5 MB paste: setValue ${stall.setMs.toFixed(0)} ms, longest main-thread stall ${stall.worst.toFixed(0)} ms`);
  expect(stall.worst).toBeLessThan(2_000);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toContainText('manifest too large');
  // still interactive
  await page.getByTestId('new-tab').click();
  await expect(page.getByTestId('editor-tab')).toHaveCount(2);
});
