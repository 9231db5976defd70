/**
 * Time controls (issue 6 §3): step delivers one hop the relay view shows per press (never more
 * than one 10 s heartbeat period on an idle cluster), the clock counts from the cluster's boot
 * (nodes AGE 30s at 00:00:30), and fast-forward after a node kill in a cluster older than
 * progressDeadlineSeconds reaches the taint eviction in at most 3 clicks.
 */
import type { Page } from '@playwright/test';
import { test, expect, openApp } from './fixtures';

const simMs = async (page: Page) => Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));
/** Hops in the store: all of them, and those the diagram shows by default (no heartbeats, admission notes, Event writes). */
const hops = (page: Page) =>
  page.evaluate(() => {
    const all = window.__kubeRelay!.relay;
    return { all: all.length, shown: all.filter((h) => !h.category || h.category === 'storage').length };
  });

test('step: ≤ 10 s and ≥ 1 hop on an idle cluster, then one shown hop per press after an apply', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');
  // the clock counts from the cluster's boot: never below the 30 s the nodes are old at time zero
  expect(await simMs(page)).toBeGreaterThanOrEqual(30_000);

  for (let i = 0; i < 3; i++) {
    const t0 = await simMs(page);
    const h0 = await hops(page);
    await page.getByTestId('step').click();
    await expect.poll(() => simMs(page)).toBeGreaterThan(t0);
    expect((await simMs(page)) - t0).toBeLessThanOrEqual(10_000);
    await expect.poll(async () => (await hops(page)).all).toBeGreaterThan(h0.all);
  }

  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result').filter({ hasText: 'deployment.apps/peekcart created' })).toBeVisible();
  await expect.poll(async () => (await hops(page)).shown).toBeGreaterThan(0);
  const t1 = await simMs(page);
  for (let i = 0; i < 6; i++) {
    const before = (await hops(page)).shown;
    await page.getByTestId('step').click();
    await expect.poll(async () => (await hops(page)).shown).toBe(before + 1);
  }
  // six hops of the same millisecond or two, not seconds of engine work
  expect((await simMs(page)) - t1).toBeLessThanOrEqual(1);
  await page.screenshot({ path: '/tmp/pw-time/step.png' });
});

test('fast-forward after a node kill in a cluster older than 10 minutes reaches the eviction within 3 clicks', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await page.getByTestId('apply').click();
  const peekcart = '[data-testid=pod-card][data-pod^="default/peekcart-"]';
  await expect(page.locator(`${peekcart}[data-status=Running]:not([data-node=""])`)).toHaveCount(3, { timeout: 30_000 });
  // age the cluster past progressDeadlineSeconds (600 s) with fast-forward
  for (let i = 0; i < 20 && (await simMs(page)) < 700_000; i++) {
    const t = await simMs(page);
    await page.getByTestId('fast-forward').click();
    await expect.poll(() => simMs(page)).toBeGreaterThan(t);
  }
  expect(await simMs(page)).toBeGreaterThanOrEqual(700_000);

  const victim = (await page.locator(peekcart).first().getAttribute('data-node'))!;
  const onVictim = await page.locator(`${peekcart}[data-node="${victim}"]`).count();
  await page.locator(`[data-testid=kill-node][data-node="${victim}"]`).click();
  await expect(page.locator(`[data-testid=restore-node][data-node="${victim}"]`)).toBeVisible();
  const killedAt = await simMs(page);

  const evicted = page.locator(`${peekcart}[data-node="${victim}"][data-status=Terminating]`);
  let clicks = 0;
  while (clicks < 3 && (await evicted.count()) < onVictim) {
    const t = await simMs(page);
    await page.getByTestId('fast-forward').click();
    clicks++;
    await expect.poll(() => simMs(page)).toBeGreaterThan(t);
    await page.waitForTimeout(300); // the store folds the batch on the next frame
    // no countdown is a deployment retry: the strip shows what will happen
    for (const title of await page.getByTestId('countdown').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '')))
      expect(title).not.toContain('retry');
  }
  await expect(evicted).toHaveCount(onVictim);
  expect(clicks).toBeLessThanOrEqual(3);
  expect((await simMs(page)) - killedAt).toBeGreaterThan(340_000); // 40 s grace + monitor period + 300 s toleration
  await expect(page.locator(`${peekcart}[data-status=Running]:not([data-node="${victim}"]):not([data-node=""])`)).toHaveCount(3);
  await page.screenshot({ path: '/tmp/pw-time/fast-forward.png' });
});
