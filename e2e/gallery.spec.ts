/**
 * The examples gallery (issue 7 §4) and kustomize from the browser (§3): open the peekcart
 * app from the gallery, apply it, 3 peekcart Pods Running; open the kustomize example (one
 * tab per file, named by its path), preview `kubectl kustomize overlays/prod`, Apply -k it,
 * and the prefixed, hashed names appear in the resource table. Real manifests name their source.
 */
import { test, expect, openApp } from './fixtures';

test('the gallery lists peekcart and every real manifest with its source', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('examples').click();
  const gallery = page.getByTestId('gallery');
  await expect(gallery).toBeVisible();
  await expect(gallery.locator('[data-testid=example]')).toHaveCount(2 + 2 + 32);
  const guestbook = gallery.locator('[data-testid=example][data-example=guestbook-all-in-one]');
  await expect(guestbook.getByTestId('example-source')).toContainText('kubernetes/examples @ 279e8e4fe314');
  await expect(guestbook.getByTestId('example-source')).toContainText('web/guestbook/all-in-one/guestbook-all-in-one.yaml');
  await expect(guestbook.getByTestId('example-source')).toContainText('Apache-2.0');
  await expect(guestbook.getByRole('link')).toHaveAttribute('href', 'https://github.com/kubernetes/examples');
  await page.screenshot({ path: 'test-results/gallery.png' });
  // filter, then open a real one: its own tab, verbatim with the source header, nothing applied
  await gallery.getByRole('searchbox').fill('pi-job');
  await expect(gallery.locator('[data-testid=example]')).toHaveCount(1);
  await gallery.locator('[data-testid=example][data-example=pi-job]').click();
  await expect(gallery).toBeHidden();
  await expect(page.locator('[data-testid=editor-tab][data-tab="pi-job.yaml"]')).toHaveAttribute('aria-selected', 'true');
  await expect
    .poll(() => page.evaluate(() => window.__kubeRelay!.editorText))
    .toMatch(/^# Source: github\.com\/kubernetes\/kubectl @ dee3483a3d6a\n[\s\S]*kind: Job\n/);
  await expect(page.getByTestId('apply-result')).toHaveCount(0);
  // Esc closes the gallery
  await page.getByTestId('examples').click();
  await page.keyboard.press('Escape');
  await expect(gallery).toBeHidden();
});

test('open the peekcart app, apply it: 3 peekcart Pods Running, mysql-0 with its claim', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await page.getByTestId('examples').click();
  await page.locator('[data-testid=example][data-example=peekcart]').click();
  await expect(page.locator('[data-testid=editor-tab][data-tab="peekcart.yaml"]')).toHaveAttribute('aria-selected', 'true');
  // the example's opening comment is on screen (its manifests follow below it in a 1280-wide window)
  await expect(page.getByTestId('editor').locator('.monaco-editor .view-lines')).toContainText("# peekcart, kube-relay's");
  await expect
    .poll(() => page.evaluate(() => window.__kubeRelay!.editorText))
    .toMatch(/kind: StatefulSet[\s\S]*kind: HorizontalPodAutoscaler/);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    'deployment.apps/peekcart created',
    'service/peekcart created',
    'service/mysql created',
    'statefulset.apps/mysql created',
    'horizontalpodautoscaler.autoscaling/peekcart created',
  ]);
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 60_000,
  });
  await expect(page.locator('[data-testid=pod-card][data-pod="default/mysql-0"][data-status=Running]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('all-kinds').check();
  await expect(page.locator('[data-testid=resource-row][data-kind=PersistentVolumeClaim][data-name=data-mysql-0]')).toHaveAttribute(
    'data-status',
    'Bound',
  );
});

test('the kustomize example: tabs by path, kustomize build, Apply -k overlays/prod', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await page.getByTestId('examples').click();
  await page.locator('[data-testid=example][data-example=peekcart-kustomize]').click();
  const tabs = page.getByTestId('editor-tab');
  await expect(tabs).toHaveText([
    /manifest\.yaml/,
    /base\/kustomization\.yaml/,
    /base\/deployment\.yaml/,
    /base\/service\.yaml/,
    /overlays\/dev\/kustomization\.yaml/,
    /overlays\/prod\/kustomization\.yaml/,
    /overlays\/prod\/namespace\.yaml/,
    /overlays\/prod\/resources\.yaml/,
  ]);
  await expect(page.locator('[data-testid=editor-tab][data-tab="overlays/prod/kustomization.yaml"]')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // several kustomizations open: a directory choice, the active tab's by default
  const dir = page.getByTestId('kustomize-dir');
  await expect(dir).toHaveValue('overlays/prod');
  await expect(dir.locator('option')).toHaveText(['base', 'overlays/dev', 'overlays/prod']);
  await expect(page.getByTestId('apply-result')).toHaveCount(0);

  await page.getByTestId('kustomize-build').click();
  const out = page.getByTestId('kustomize-output');
  await expect(out).toContainText('$ kubectl kustomize overlays/prod');
  await expect(out).toContainText('name: prod-peekcart-config-bf75tdm878');
  await expect(out).toContainText('image: ghcr.io/peekcart/peekcart:1.1.0');
  await page.screenshot({ path: 'test-results/kustomize-build.png' });

  await page.getByTestId('apply-kustomize').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    'namespace/shop created',
    'configmap/prod-peekcart-config-bf75tdm878 created',
    'secret/prod-peekcart-db-hkc82gd68h created',
    'service/prod-peekcart created',
    'deployment.apps/prod-peekcart created',
  ]);
  await page.getByTestId('all-kinds').check();
  const row = (kind: string, name: string) =>
    page.locator(`[data-testid=resource-row][data-kind=${kind}][data-namespace=shop][data-name="${name}"]`);
  await expect(row('Deployment', 'prod-peekcart')).toBeVisible();
  await expect(row('Service', 'prod-peekcart')).toBeVisible();
  await expect(row('ConfigMap', 'prod-peekcart-config-bf75tdm878')).toBeAttached();
  await expect(row('Secret', 'prod-peekcart-db-hkc82gd68h')).toBeAttached();
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=resource-row][data-kind=Pod][data-namespace=shop][data-status=Running]')).toHaveCount(5, {
    timeout: 60_000,
  });

  // the choice of directory: dev next to prod
  await dir.selectOption('overlays/dev');
  await page.getByTestId('apply-kustomize').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    'configmap/dev-peekcart-config-47668c6k28 created',
    'service/dev-peekcart created',
    'deployment.apps/dev-peekcart created',
  ]);

  // recorded in the session: a reload brings both back
  await page.reload();
  await expect(page.locator('[data-testid=editor-tab][data-tab="overlays/prod/kustomization.yaml"]')).toBeVisible();
  await page.getByTestId('all-kinds').check();
  await expect(row('Deployment', 'prod-peekcart')).toBeVisible({ timeout: 30_000 });
  await expect(
    page.locator('[data-testid=resource-row][data-kind=Deployment][data-namespace=default][data-name=dev-peekcart]'),
  ).toBeVisible();
});

test('a kustomize error applies nothing and reads as kubectl prints it', async ({ page }) => {
  await openApp(page);
  await page.evaluate(() => window.__kubeRelay!.setEditorText('resources:\n- missing.yaml\n'));
  await page.locator('[data-testid=editor-tab]').first().locator('.tab-name').dblclick();
  await page.getByTestId('tab-rename').fill('app/kustomization.yaml');
  await page.getByTestId('tab-rename').press('Enter');
  await expect(page.locator('[data-testid=editor-tab][data-tab="app/kustomization.yaml"]')).toBeVisible();
  await expect(page.getByTestId('kustomize-dir')).toHaveText('app');
  await page.getByTestId('apply-kustomize').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    "error: accumulating resources: accumulation err='accumulating resources from 'missing.yaml': evalsymlink failure on '/app/missing.yaml' : lstat /app/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/app/missing.yaml' : lstat /app/missing.yaml: no such file or directory",
  ]);
  await expect(page.getByTestId('apply-result')).toHaveAttribute('data-action', 'error');
});
