/**
 * Leader election in the graph (issue 18): the HA button starts over with three control-plane
 * nodes; kube-controller-manager and kube-scheduler name their leader; killing the leaders'
 * node leaves them without a leader until the Lease expires and a standby takes over.
 */
import { test, expect } from './fixtures';

const kcm = '[data-testid=component-card][data-component=kube-controller-manager]';
const scheduler = '[data-testid=component-card][data-component=kube-scheduler]';

test("an HA control plane fails over in the graph when the leaders' node is killed", async ({ page }) => {
  test.setTimeout(120_000);
  // the graph is all this test needs (not the editor, which loads slowly on a busy machine)
  await page.goto('/');
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4, { timeout: 60_000 });
  // one control-plane node: its instances lead, no HA marking
  await expect(page.locator(kcm)).toHaveAttribute('data-instances', 'control-plane:leader');
  await expect(page.getByTestId('ha-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator(`${kcm} [data-testid=leadership]`)).toHaveCount(0);

  await page.getByTestId('ha-toggle').click();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(6);
  await expect(page.getByTestId('ha-toggle')).toHaveAttribute('aria-pressed', 'true');
  for (const card of [kcm, scheduler]) {
    await expect(page.locator(card)).toHaveAttribute(
      'data-instances',
      'control-plane:leader control-plane2:standby control-plane3:standby',
    );
    await expect(page.locator(`${card} [data-testid=leadership]`)).toHaveText('★ control-plane · 2 standby');
  }
  await page.screenshot({ path: 'test-results/leader-election-1-ha.png' });

  // the strip of an HA control plane has a power button; kill the leaders' node
  await page.locator('[data-testid=kill-node][data-node=control-plane]').click();
  await expect(page.locator(kcm)).toHaveAttribute('data-instances', 'control-plane:down control-plane2:standby control-plane3:standby');
  await expect(page.locator(`${kcm} [data-testid=leadership]`)).toHaveAttribute('data-leader', '');
  await expect(page.locator(`${kcm} [data-testid=leadership]`)).toHaveText('no leader · 2 standby');
  const killedAt = Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));
  await page.getByTestId('speed').selectOption('5');

  // within leaseDuration (15 s) + two jittered retries (≤ 4.4 s each) a standby leads
  for (const card of [kcm, scheduler]) {
    await expect(page.locator(`${card} [data-testid=leadership]`)).toHaveAttribute('data-leader', /^control-plane[23]$/, {
      timeout: 60_000,
    });
    await expect(page.locator(`${card} [data-testid=leadership]`)).toHaveText(/^★ control-plane[23] · 1 standby$/);
  }
  const tookOverAt = Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));
  expect(tookOverAt - killedAt).toBeGreaterThanOrEqual(15_000);
  await page.screenshot({ path: 'test-results/leader-election-2-failover.png' });

  // the Lease in the kubectl bar names the new holder
  await page.getByTestId('tab-kubectl').click();
  const bar = page.getByTestId('kubectl-input');
  await bar.fill('get lease kube-controller-manager -n kube-system');
  await bar.press('Enter');
  await expect(page.getByTestId('kubectl-output')).toContainText(/kube-controller-manager\s+control-plane[23]_[0-9a-f-]{36}/);
});
