/**
 * Issue 6 §3: the timeline reaches back before a reload. The worker replays the saved session
 * log and sends the frames the session would have sent live, so after a reload the slider
 * still shows the cluster before the apply; the pending-timer strip counts down from the
 * replayed moment.
 */
import { test, expect, openApp } from './fixtures';
import type { Locator, Page } from '@playwright/test';

const peekcartPods = (page: Page) => page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]');
const simMs = async (page: Page) => Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));

/** Drags the slider's thumb (at the live end) to its left edge, as a person would. */
async function dragToStart(page: Page, timeline: Locator): Promise<void> {
  const box = (await timeline.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 4, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, y, { steps: 5 });
  await page.mouse.move(box.x - 20, y, { steps: 5 });
  await page.mouse.up();
}

test('after a reload, drag the timeline to before the apply; the pending timers are those of the replayed moment', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const timeline = page.getByTestId('timeline');
  await expect.poll(async () => Number(await timeline.getAttribute('max')) - Number(await timeline.getAttribute('min'))).toBeGreaterThanOrEqual(2);
  await page.getByTestId('apply').click();
  const running = peekcartPods(page).and(page.locator('[data-status=Running]'));
  await expect(running).toHaveCount(3, { timeout: 30_000 });

  // an empty node, killed: its node-monitor-grace-period counts down (the peekcart Pods stay put)
  await page.getByTestId('speed').selectOption('5');
  await page.getByTestId('add-node').click();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(5);
  await page.locator('[data-testid=kill-node][data-node="node-4"]').click();
  const grace = page.locator('[data-testid=countdown][data-reason=grace-period]');
  await expect(grace).toBeVisible({ timeout: 30_000 });
  const seenAt = await simMs(page);
  const graceEndsSec = seenAt / 1000 + Number(await grace.getAttribute('data-seconds'));
  await page.waitForTimeout(2_000); // a periodic save
  const savedSec = Math.floor((await simMs(page)) / 1000);

  const t0 = Date.now();
  await page.reload();
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  const reloadMs = Date.now() - t0;
  console.log(`reload to 3 Running: ${reloadMs} ms`);
  expect(reloadMs).toBeLessThan(10_000);

  // the whole session is on the slider again, from the fresh cluster on
  expect(Number(await timeline.getAttribute('min'))).toBe(0);
  expect(Number(await timeline.getAttribute('max'))).toBeGreaterThanOrEqual(savedSec - 2);

  await dragToStart(page, timeline);
  await expect(page.getByTestId('timeline-live')).toBeVisible();
  await expect(page.getByTestId('replay-badge')).toContainText('00:00');
  await expect(peekcartPods(page)).toHaveCount(0);
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  await expect(page.locator('[data-testid=countdown]')).toHaveCount(0);
  // the relay of that moment: nothing about peekcart yet
  const relay = await page.evaluate(() => window.__kubeRelay!.relay);
  expect(relay.filter((h) => h.summary.includes('peekcart'))).toEqual([]);
  await page.waitForTimeout(1_500); // the sequence diagram re-renders
  await expect(page.getByTestId('sequence-diagram')).not.toContainText('peekcart');
  await page.screenshot({ path: 'test-results/timeline-reload-start.png' });

  // a few seconds after the countdown was first seen: it counts down from that moment
  await timeline.focus();
  const target = Math.ceil(seenAt / 1000) + 6;
  for (let i = 0; i < target; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay-badge')).toBeVisible();
  await expect(grace).toBeVisible();
  const replayedSec = (await simMs(page)) / 1000;
  expect(replayedSec).toBeLessThanOrEqual(target + 1);
  expect(replayedSec).toBeGreaterThan(seenAt / 1000);
  const left = Number(await grace.getAttribute('data-seconds'));
  expect(Math.abs(replayedSec + left - graceEndsSec)).toBeLessThanOrEqual(2);
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(5);
  await page.screenshot({ path: 'test-results/timeline-reload-countdown.png' });

  // back to live: the current cluster
  await page.getByTestId('timeline-live').click();
  await expect(page.getByTestId('timeline-live')).toHaveCount(0);
  await expect(running).toHaveCount(3);
  expect(await simMs(page)).toBeGreaterThanOrEqual(savedSec * 1000);
});
