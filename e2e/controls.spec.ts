/** Playback and cluster controls: pause, step, add a node, delete a Pod by hand, reset. */
import { test, expect, openApp } from './fixtures';

test('pause and step the clock, add a node, delete a Pod and watch it replaced, reset', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await page.getByTestId('apply').click();
  const running = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]');
  await expect(running).toHaveCount(3, { timeout: 30_000 });

  // pause: simulated time stands still; step: it moves to the next hop
  const simTime = page.getByTestId('sim-time');
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');
  const paused = await simTime.getAttribute('data-sim-ms');
  await page.waitForTimeout(700);
  expect(await simTime.getAttribute('data-sim-ms')).toBe(paused);
  const hops = await page.evaluate(() => window.__kubeRelay!.relay.length);
  await page.getByTestId('step').click();
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.relay.length)).toBeGreaterThan(hops);
  expect(Number(await simTime.getAttribute('data-sim-ms'))).toBeGreaterThan(Number(paused));
  await expect(simTime).toHaveText(/^\d\d:\d\d:\d\d$/);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Pause');

  // a fourth worker joins and becomes Ready
  await page.getByTestId('add-node').click();
  await expect(page.locator('[data-testid=node-card][data-node=node-4]')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(page.locator('[data-testid=kill-node][data-node=node-4]')).toBeVisible();

  // delete a Pod by hand: the ReplicaSet replaces it (a new name), three Running again
  const victim = (await running.first().getAttribute('data-pod'))!;
  await running.first().click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await page.getByTestId('delete-pod').click();
  await expect(page.locator(`[data-testid=pod-card][data-pod="${victim}"]`)).toHaveCount(0, { timeout: 30_000 });
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  await expect(page.locator(`[data-testid=resource-row][data-kind=Pod][data-name="${victim.split('/')[1]}"]`)).toHaveCount(0);

  // the events tab lists the ReplicaSet's SuccessfulCreate and the kubelet's Killing
  await page.getByTestId('tab-events').click();
  await expect(page.locator('[data-testid=event-row][data-reason=Killing]').first()).toBeVisible();
  await expect(page.locator('[data-testid=event-row][data-reason=SuccessfulCreate]').first()).toContainText('Created pod: peekcart-');

  // reset: a fresh cluster
  await page.getByTestId('reset').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/"]')).toHaveCount(0);
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  // the clock counts from the cluster's boot: a fresh cluster reads 00:00:30 (nodes AGE 30s)
  await expect.poll(async () => Number(await simTime.getAttribute('data-sim-ms'))).toBeLessThan(35_000);
});
