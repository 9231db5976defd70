/**
 * Issue 14 §1 in the browser: a kubectl bar patch through `__proto__` is refused (422) and
 * harms nothing — not now, not after a reload replays the session log with it, not after Reset.
 */
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

const POLLUTE = `patch cm pc --type=json -p '[{"op":"add","path":"/__proto__/deletionTimestamp","value":"2026-01-01T00:00:00Z"}]'`;

async function run(page: Page, line: string): Promise<string> {
  const input = page.getByTestId('kubectl-input');
  await input.fill(line);
  await input.press('Enter');
  await expect(input).toHaveValue('');
  return page.getByTestId('kubectl-output').innerText();
}

test('a __proto__ patch from the kubectl bar is refused and survives neither reload nor Reset', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('apply').click();
  const running = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]');
  await expect(running).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('tab-kubectl').click();
  await run(page, 'create configmap pc --from-literal=__proto__=x --from-literal=constructor=y');
  await expect(page.getByTestId('kubectl-output')).toHaveText('configmap/pc created\n', { useInnerText: true });
  await run(page, POLLUTE);
  await expect(page.getByTestId('kubectl-output')).toHaveText(
    'The request is invalid: the server rejected our request due to an error in our request\n',
    { useInnerText: true },
  );
  await expect(page.getByTestId('kubectl-output')).toHaveAttribute('data-exit-code', '1');

  const intact = async () => {
    await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
    await expect(running).toHaveCount(3, { timeout: 30_000 });
    await expect(page.locator('[data-testid=pod-card][data-status=Terminating]')).toHaveCount(0);
    await run(page, "get cm pc -o jsonpath='{.data}'");
    await expect(page.getByTestId('kubectl-output')).toHaveText('{"__proto__":"x","constructor":"y"}', { useInnerText: true });
  };
  await intact();
  await page.waitForTimeout(2_000); // a periodic save: the hostile line is in the session log
  await page.reload();
  await page.getByTestId('tab-kubectl').click();
  await intact();
  await run(page, 'create configmap after-reload --from-literal=k=v');
  await expect(page.getByTestId('kubectl-output')).toHaveText('configmap/after-reload created\n', { useInnerText: true });

  await page.getByTestId('reset').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/"]')).toHaveCount(0);
  await run(page, 'create configmap after-reset --from-literal=k=v');
  await expect(page.getByTestId('kubectl-output')).toHaveText('configmap/after-reset created\n', { useInnerText: true });
  await page.getByTestId('apply').click();
  await expect(running).toHaveCount(3, { timeout: 60_000 });
  await expect(page.locator('[data-testid=pod-card][data-status=Terminating]')).toHaveCount(0);
});
