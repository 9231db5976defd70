/**
 * Share links cannot bring content from another origin (issue 14 item 4): `?scenario=` values
 * the URL parser reads as protocol-relative (`\/evil…`, `\\evil…`, `/\evil…`, tabs and newlines
 * inside `//`) are refused before any fetch, and every request the page makes is recorded by
 * route interception. What a link would apply is shown and applied only when the person agrees.
 */
import type { Page, Request } from '@playwright/test';
import { test, expect } from './fixtures';

const CM =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-link\n  namespace: default\ndata:\n  a: "1"\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: linked\nspec:\n  ports:\n    - port: 80\n';

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** Records every request whose origin is not the app's, and answers it with YAML (as an attacker's server would). */
async function recordOffOrigin(page: Page, origin: string): Promise<string[]> {
  const off: string[] = [];
  await page.context().route('**/*', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin !== origin && !url.startsWith('data:') && !url.startsWith('blob:')) {
      off.push(url);
      await route.fulfill({ status: 200, contentType: 'application/yaml', body: CM });
    } else await route.continue();
  });
  page.on('requestfailed', (r: Request) => {
    if (new URL(r.url()).origin !== origin) off.push(`failed: ${r.url()}`);
  });
  return off;
}

const HOSTILE = [
  '\\/evil.example:4625/x.yaml',
  '\\\\evil.example/x.yaml',
  '/\\evil.example/x.yaml',
  '/\t/evil.example/x.yaml',
  '/\n/evil.example/x.yaml',
  '//127.0.0.1:4625/x.yaml',
];

for (const value of HOSTILE) {
  test(`?scenario=${JSON.stringify(value)}&apply=1 fetches nothing off-origin and applies nothing`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const off = await recordOffOrigin(page, origin);
    await page.goto(`/?scenario=${encodeURIComponent(value)}&apply=1`);
    await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
    await expect(page.getByTestId('notice')).toContainText('scenario path not allowed');
    await page.waitForTimeout(1_000);
    expect(off).toEqual([]);
    await expect(page.getByTestId('share-confirm')).toHaveCount(0);
    await expect(page.getByTestId('apply-result')).toHaveCount(0);
    expect(await page.evaluate(() => window.__kubeRelay!.objects.some((o) => o.metadata.name === 'from-link'))).toBe(false);
  });
}

test('&apply=1 asks first, listing the objects; "Do not apply" applies nothing, "Apply" applies', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const off = await recordOffOrigin(page, origin);
  await page.goto(`/#manifest=${b64url(CM)}&apply=1`);
  const dialog = page.getByTestId('share-confirm');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('share-object')).toHaveText(['configmap/from-link -n default', 'service/linked -n default']);
  await page.waitForTimeout(500);
  await expect(page.getByTestId('apply-result')).toHaveCount(0);
  expect(await page.evaluate(() => window.__kubeRelay!.objects.some((o) => o.metadata.name === 'from-link'))).toBe(false);
  await page.getByTestId('share-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('notice')).toHaveText('The link’s manifest is in the editor; nothing was applied.');
  expect(await page.evaluate(() => window.__kubeRelay!.objects.some((o) => o.metadata.name === 'from-link'))).toBe(false);

  const page2 = await page.context().newPage();
  await page2.goto(`/#manifest=${b64url(CM)}&apply=1`);
  await page2.getByTestId('share-apply').click();
  await expect(page2.getByTestId('apply-result')).toHaveText(['configmap/from-link created', 'service/linked created']);
  expect(off).toEqual([]);
  await page2.close();
});

test('a same-origin ?scenario= path is fetched from the app origin and asks before applying', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const off = await recordOffOrigin(page, origin);
  const fetched: string[] = [];
  await page.route(`${origin}/scenarios/linked.yaml`, async (route) => {
    fetched.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'application/yaml', body: CM });
  });
  await page.goto('/?scenario=scenarios/linked.yaml&apply=1');
  const dialog = page.getByTestId('share-confirm');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText(`${origin}/scenarios/linked.yaml`);
  await expect(dialog.getByTestId('share-object')).toHaveCount(2);
  expect(fetched).toEqual([`${origin}/scenarios/linked.yaml`]);
  await page.getByTestId('share-apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['configmap/from-link created', 'service/linked created']);
  expect(off).toEqual([]);
});
