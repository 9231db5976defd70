/**
 * Issue 7 coverage beyond editor.spec/editor-tools.spec/session.spec: a 5 MB paste through the
 * system clipboard (the page answers a click within seconds, the editor says why it does not
 * check the file, Apply refuses it clearly), and markup in an object's name shown as text.
 */
import { test, expect, openApp, pasteIntoEditor } from './fixtures';

test('a 5 MB clipboard paste: a click still answers within seconds; the editor and Apply say why', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const big = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${'  key: value-value-value-value\n'.repeat(170_000)}`;
  expect(big.length).toBeGreaterThan(5_000_000);
  await pasteIntoEditor(page, big);
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.editorText.length), { timeout: 30_000 }).toBe(big.length);

  const t0 = Date.now();
  await page.getByTestId('new-tab').click();
  await expect(page.getByTestId('editor-tab')).toHaveCount(2, { timeout: 5_000 });
  const clickMs = Date.now() - t0;
  console.log(`5 MB clipboard paste: new-tab click answered in ${clickMs} ms`);
  expect(clickMs).toBeLessThan(3_000);

  // back to the big file: a warning on line 1 says it is not dry-run while typing
  await page.getByTestId('editor-tab').first().locator('.tab-name').click();
  await expect
    .poll(
      () =>
        page.evaluate(() => window.__kubeRelay!.editorMarkers.filter((m) => m.owner === 'apiserver').map((m) => `${m.line}: ${m.message}`)),
      { timeout: 10_000 },
    )
    .toEqual([
      `1: Large file (5.0 MB, ${big.length} characters): not dry-run while you type. kubectl here refuses manifests over 3 MiB ("manifest too large"); Apply shows the apiserver's answer.`,
    ]);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText([
    `error: error parsing STDIN: yaml: manifest too large (${big.length} characters; at most 3145728)`,
  ]);
  await expect
    .poll(() =>
      page.evaluate(() => window.__kubeRelay!.editorMarkers.filter((m) => m.owner === 'apiserver' && m.severity === 8).map((m) => m.line)),
    )
    .toEqual([1]);
  expect(await page.evaluate(() => window.__kubeRelay!.objects.some((o) => o.metadata.name === 'big'))).toBe(false);
});

test('markup in a name is rejected by the apiserver and shown as text, never injected', async ({ page }) => {
  await openApp(page);
  const evil = '<img src=x onerror=window.__pwned=1>';
  await page.evaluate((n) => window.__kubeRelay!.setEditorText(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: '${n}'\n`), evil);
  await page.getByTestId('apply').click();
  const result = page.getByTestId('apply-result');
  await expect(result).toHaveText([
    /^The ConfigMap "<img src=x onerror=window\.__pwned=1>" is invalid: metadata\.name: Invalid value: "<img src=x onerror=window\.__pwned=1>": a lowercase RFC 1123 subdomain/,
  ]);
  await expect
    .poll(() => page.evaluate(() => window.__kubeRelay!.editorMarkers.filter((m) => m.owner === 'apiserver').map((m) => m.line)))
    .toEqual([4]);
  expect(await page.locator('img[src=x]').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});
