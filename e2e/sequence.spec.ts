/**
 * Issue 6 §2–§3: the sequence diagram's windows and filters, picking a hop, step,
 * fast-forward and the pending-timers strip.
 */
import { test, expect, openApp } from './fixtures';

test('sequence diagram windows, filters and hop selection; step, fast-forward and an eviction countdown', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const diagram = page.getByTestId('sequence-diagram');
  const svg = diagram.locator('svg');

  // pause first, apply, then fast-forward: 3 Pods Running without waiting in wall time
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');
  await page.getByTestId('apply').click();
  const peekcart = '[data-testid=pod-card][data-pod^="default/peekcart-"]';

  // step: the clock moves to the next hop, and the relay grows
  const simTime = page.getByTestId('sim-time');
  const before = Number(await simTime.getAttribute('data-sim-ms'));
  const hops = await page.evaluate(() => window.__kubeRelay!.relay.length);
  await page.getByTestId('step').click();
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.relay.length)).toBeGreaterThan(hops);
  expect(Number(await simTime.getAttribute('data-sim-ms'))).toBeGreaterThanOrEqual(before);

  await page.getByTestId('fast-forward').click();
  await expect(page.locator(`${peekcart}[data-status=Running]`)).toHaveCount(3, { timeout: 15_000 });
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');

  // the last N hops (the default view is the story of the last action: legible-relay.spec.ts),
  // from the apply's first: reconciliation notes in tinted blocks
  await page.getByTestId('sequence-window').selectOption('last');
  await page.getByTestId('seq-pin').check();
  await expect(svg).toContainText('desired 3 ≠ current 0 → create 3 Pods');
  await page.screenshot({ path: 'test-results/sequence-01-last.png' });
  // fits the pane's width, but never below 0.8 of its natural size (readable text): it scrolls
  // sideways only when that floor applies
  const scroll = page.locator('.sequence-scroll');
  const fit = await scroll.evaluate((el) => {
    const svg = el.querySelector('svg')!;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return { scale, overflow: el.scrollWidth - el.clientWidth };
  });
  expect(fit.scale).toBeGreaterThanOrEqual(0.79);
  if (fit.scale > 0.81) expect(fit.overflow).toBeLessThanOrEqual(1);

  await page.getByTestId('seq-pin').uncheck();

  // one reconciliation: pick the ReplicaSet's
  await page.getByTestId('sequence-window').selectOption('reconcile');
  const rsOption = page
    .getByTestId('sequence-reconcile')
    .locator('option', { hasText: 'replicaset-controller: desired 3 ≠ current 0 → create 3 Pods' });
  await page.getByTestId('sequence-reconcile').selectOption({ value: (await rsOption.getAttribute('value'))! });
  await expect(svg).toContainText('desired 3 ≠ current 0 → create 3 Pods');
  await expect(svg).not.toContainText('filtered');
  await page.screenshot({ path: 'test-results/sequence-02-reconcile.png' });

  // back to the last hops; component filter: only kube-scheduler
  await page.getByTestId('sequence-window').selectOption('last');
  const filter = page.getByTestId('sequence-filter-component');
  await filter.locator('summary').click();
  await filter.getByRole('button', { name: 'none' }).click();
  await filter.locator('input[data-participant="kube-scheduler"]').check();
  await filter.locator('summary').click();
  await expect
    .poll(async () => (await diagram.locator('svg text.actor').allTextContents()).map((s) => s.trim()).filter(Boolean))
    .toEqual(['kube-scheduler', 'kube-scheduler']);
  await expect(svg).toContainText(/filtered \d\/\d nodes → node-\d/);
  await filter.locator('summary').click();
  await filter.getByRole('button', { name: 'all' }).click();
  await filter.locator('summary').click();

  // object filter: the Deployment's hops only
  await page.getByTestId('sequence-filter-object').fill('deployments default/peekcart');
  await expect(svg).toContainText('create Deployment default/peekcart');
  await expect(svg).not.toContainText('create 3 Pods');
  await page.getByTestId('sequence-filter-object').fill('');

  // click a hop: its object opens in the inspector (a scheduler reconciliation holds the bind)
  await page.getByTestId('sequence-window').selectOption('reconcile');
  const schedOption = page
    .getByTestId('sequence-reconcile')
    .locator('option', { hasText: /^kube-scheduler: filtered/ })
    .first();
  await page.getByTestId('sequence-reconcile').selectOption({ value: (await schedOption.getAttribute('value'))! });
  const bind = diagram.locator('text.messageText', { hasText: /^bind Pod default\/peekcart-/ }).first();
  await expect(bind).toBeVisible();
  const pod = (await bind.textContent())!.match(/default\/(peekcart-[a-z0-9-]+)/)![1];
  await bind.click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-key', `Pod/default/${pod}`);
  await expect(bind).toHaveClass(/hop-selected/);

  // the selected object's story
  await page.getByTestId('sequence-story-selected').click();
  await expect(page.getByTestId('sequence-window')).toHaveValue('story');
  await expect(page.getByTestId('sequence-story')).toHaveText(`pods default/${pod}`);
  await expect(svg).toContainText(`bind Pod default/${pod}`);
  await expect(svg).not.toContainText('create Deployment default/peekcart');
  await page.screenshot({ path: 'test-results/sequence-03-story.png' });
  await page.getByTestId('sequence-window').selectOption('last');

  // kill the node of a Pod: fast-forward past the grace period → an eviction countdown
  const victim = (await page.locator(peekcart).first().getAttribute('data-node'))!;
  await page.locator(`[data-testid=kill-node][data-node="${victim}"]`).click();
  await page.getByTestId('fast-forward').click();
  const eviction = page.locator('[data-testid=countdown][data-reason=eviction]');
  await expect(eviction).toBeVisible({ timeout: 15_000 });
  const secs = Number(await eviction.getAttribute('data-seconds'));
  expect(secs).toBeGreaterThan(200);
  expect(secs).toBeLessThanOrEqual(300);
  await page.getByTestId('sequence-window').selectOption('reconcile');
  const nlc = page.getByTestId('sequence-reconcile').locator('option', {
    hasText: new RegExp(
      `^node-lifecycle-controller: ${victim}: no Lease renewal observed for \\d+ s \\(> node-monitor-grace-period 50 s\\) → NotReady$`,
    ),
  });
  await page.getByTestId('sequence-reconcile').selectOption({ value: (await nlc.getAttribute('value'))! });
  await expect(svg).toContainText(
    new RegExp(`${victim}: no Lease renewal observed for \\d+ s \\(> node-monitor-grace-period 50 s\\) → NotReady`),
  );
  await page.screenshot({ path: 'test-results/sequence-04-eviction.png' });
});
