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
  await expect
    .poll(async () => Number(await timeline.getAttribute('max')) - Number(await timeline.getAttribute('min')))
    .toBeGreaterThanOrEqual(2);
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
  expect(Number(await timeline.getAttribute('min'))).toBe(30); // the fresh cluster: 30 s after its boot (the clock counts from the boot)
  // the session is saved every CLUSTER_SAVE_MS (1.5 s wall = 7.5 s simulated at ×5): the restored
  // time is at most one save period behind the moment read before the reload
  await expect.poll(async () => Number(await timeline.getAttribute('max'))).toBeGreaterThanOrEqual(savedSec - 8);

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
  const min = Number(await timeline.getAttribute('min')); // the slider starts at the fresh cluster
  for (let i = 0; i < target - min; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay-badge')).toBeVisible();
  await expect(grace).toBeVisible();
  const replayedSec = (await simMs(page)) / 1000;
  expect(replayedSec).toBeLessThan(target + 2); // a frame holds the latest state of its 1 s slice
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

const START_MS = Date.UTC(2026, 0, 1);
const at = (sec: number) => START_MS + sec * 1000;

/** A session file of 20 actions over 30 simulated minutes (the ⋯ menu's export format). */
function longSession(manifest: string) {
  const kubectl = (sec: number, line: string) => ({ at: at(sec), op: 'kubectl', line });
  const actions = [
    { at: at(20), op: 'apply', text: manifest },
    kubectl(40, 'get pods'),
    kubectl(60, 'scale deployment peekcart --replicas=4'),
    { at: at(80), op: 'image', image: 'nginx:1.161', missing: true },
    { at: at(100), op: 'kill', node: 'node-2' },
    kubectl(130, 'label node node-1 tier=front'),
    { at: at(140), op: 'deletePod', namespace: 'default', name: 'nope' },
    { at: at(500), op: 'restore', node: 'node-2' },
    { at: at(520), op: 'addNode', node: 'node-4' },
    kubectl(540, 'cordon node-3'),
    kubectl(560, 'uncordon node-3'),
    { at: at(580), op: 'step' },
    kubectl(600, 'scale deployment peekcart --replicas=2'),
    { at: at(620), op: 'fastForward', until: at(900) },
    kubectl(920, 'annotate deployment peekcart note=hi'),
    { at: at(940), op: 'dnsLookup', name: 'peekcart', namespace: 'default' },
    { at: at(960), op: 'image', image: 'nginx:1.161', missing: false },
    kubectl(1000, 'scale deployment peekcart --replicas=3'),
    kubectl(1020, 'rollout status deployment/peekcart'),
    kubectl(1040, 'get nodes'),
  ];
  return {
    format: 'kube-relay-session-file',
    version: 1,
    savedAt: '2026-01-01T00:00:00.000Z',
    editor: { tabs: [{ id: 't1', name: 'manifest.yaml', text: manifest }], active: 't1' },
    cluster: { format: 'kube-relay-session', version: 1, cluster: { seed: 1, nodes: 3 }, actions, now: at(1_800), running: true, speed: 1 },
  };
}

test('a 30-minute session of 20 actions reloads in a few seconds, its whole timeline reachable', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const manifest = await page.evaluate(() => window.__kubeRelay!.editorText);
  const file = longSession(manifest);
  expect(file.cluster.actions).toHaveLength(20);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
  const running = peekcartPods(page).and(page.locator('[data-status=Running]'));
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  expect(await simMs(page)).toBeGreaterThanOrEqual(1_800_000);
  await page.waitForTimeout(2_000); // a periodic save

  const t0 = Date.now();
  await page.reload();
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  const reloadMs = Date.now() - t0;
  console.log(`reload of a 30-minute, 20-action session to 3 Running: ${reloadMs} ms`);
  expect(reloadMs).toBeLessThan(10_000);
  const timeline = page.getByTestId('timeline');
  expect(Number(await timeline.getAttribute('min'))).toBe(30); // the fresh cluster: 30 s after its boot (the clock counts from the boot)
  expect(Number(await timeline.getAttribute('max'))).toBeGreaterThanOrEqual(1_800);

  await dragToStart(page, timeline);
  await expect(page.getByTestId('timeline-live')).toBeVisible();
  await expect(peekcartPods(page)).toHaveCount(0);
  // 60 simulated seconds in: the apply at 20 s has made its Pods
  await timeline.focus();
  for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowRight');
  await expect(peekcartPods(page)).not.toHaveCount(0);
  await page.getByTestId('timeline-live').click();
  await expect(running).toHaveCount(3);
});
