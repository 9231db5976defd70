/**
 * Guided tours (issue 6 §7) and the declarative-vs-imperative demo (§6), as a person uses them:
 * the toolbar's Tours button, the list, Next through the narrations on the live cluster.
 */
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

// a shared 2-core machine: the tours wait on the simulated clock
test.describe.configure({ timeout: 120_000 });

const TOURS = [
  'declarative-vs-imperative',
  'relay',
  'self-healing',
  'rolling-update',
  'services-dns',
  'storage',
  'probes-hpa',
  'website-operator',
  'backup-operator',
];

async function startTour(page: Page, id: string): Promise<void> {
  await page.getByTestId('tours').click();
  await expect(page.getByTestId('tour-list')).toBeVisible();
  await page.locator(`[data-testid=tour][data-tour=${id}]`).click();
  await expect(page.getByTestId('tour-list')).toHaveCount(0);
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-tour', id);
}

/** Presses Next and waits for the next narration (fast-forwarding waits longer than a few seconds). */
async function next(page: Page, step: number): Promise<void> {
  await page.getByTestId('tour-next').click();
  const panel = page.getByTestId('tour-panel');
  const ff = page.getByTestId('tour-fast-forward');
  // a short wait ends by itself: fast-forward only a long one (a click racing the end of the
  // wait would land on the button that replaces fast-forward, the last narration's Exit)
  if (
    await panel.getAttribute('data-step').then(
      async (s) =>
        s === String(step) ||
        (await expect(panel)
          .toHaveAttribute('data-step', String(step), { timeout: 3_000 })
          .then(
            () => true,
            () => false,
          )),
    )
  )
    return;
  await expect(async () => {
    if ((await panel.getAttribute('data-step')) !== String(step) && (await ff.isVisible()))
      await ff.click({ timeout: 1_000 }).catch(() => {}); // the wait may end first
    await expect(panel).toHaveAttribute('data-step', String(step), { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
}

const runningPeekcart = (page: Page) => page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]');

test('the tour list offers the seven tours of the seed and the two of your own controller', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tours').click();
  const tours = page.locator('[data-testid=tour-list] [data-testid=tour]');
  await expect(tours).toHaveCount(TOURS.length);
  expect(await tours.evaluateAll((els) => els.map((e) => e.getAttribute('data-tour')))).toEqual(TOURS);
  await expect(page.locator('[data-tour=self-healing]')).toHaveText('3. Self-healing: kill a node');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour-list')).toHaveCount(0);
});

test('the self-healing tour plays to the end in English: NotReady, eviction, 3 Pods on the other nodes', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('speed').selectOption('100');
  await startTour(page, 'self-healing');
  const note = page.getByTestId('tour-note');
  await expect(note).toContainText('Next powers off the node of the first Pod');
  await expect(runningPeekcart(page)).toHaveCount(3);
  await next(page, 1);
  await expect(note).toContainText('node.kubernetes.io/unreachable');
  const dead = await page.locator('[data-testid=node-card][data-ready=unknown]').getAttribute('data-node');
  expect(dead).toMatch(/^node-\d$/);
  await next(page, 2);
  await expect(note).toContainText('Self-healing is just the loops never stopping');
  // "After 300 s the taint eviction deleted the Pod…": it has happened, and the clock waits
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.events.some((e) => e.reason === 'TaintManagerEviction'))).toBe(true);
  await expect(page.locator('[data-testid=countdown][data-reason=eviction]')).toHaveCount(0);
  const paused = await page.getByTestId('sim-time').getAttribute('data-sim-ms');
  await page.waitForTimeout(1_500);
  expect(await page.getByTestId('sim-time').getAttribute('data-sim-ms')).toBe(paused);
  await expect(page.getByTestId('tour-done')).toBeVisible();
  await expect(page.getByTestId('tour-next')).toHaveCount(0);
  await expect(runningPeekcart(page)).toHaveCount(3);
  await expect(page.locator(`[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running][data-node=${dead}]`)).toHaveCount(
    0,
  );
  await expect(
    page.locator(`[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Terminating][data-node=${dead}]`),
  ).toHaveCount(1);
  await page.getByTestId('tour-exit').click();
  await expect(page.getByTestId('tour-panel')).toHaveCount(0);
});

test('in Korean, declarative vs imperative: the docker container is lost with node-1 while the Deployment heals', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('language').selectOption('ko');
  await page.getByTestId('speed').selectOption('100');
  await page.getByTestId('tours').click();
  await expect(page.locator('[data-tour=declarative-vs-imperative]')).toHaveText('1. 선언형 vs 명령형: docker run과 Deployment');
  await page.locator('[data-tour=declarative-vs-imperative]').click();
  const note = page.getByTestId('tour-note');
  await expect(note).toContainText('앱을 계속 띄워 두는 두 가지 방법');
  await next(page, 1);
  // the narration names the button as it reads in Korean
  await expect(note).toContainText('‘다음’을 누르면 node-1의 전원이 꺼진다');
  await expect(page.getByTestId('tour-next')).toHaveText(/다음/);
  const docker = page.locator('[data-testid=standalone-container][data-node=node-1]');
  await expect(docker).toHaveAttribute('data-state', 'running');
  await expect(runningPeekcart(page)).toHaveCount(3);
  await next(page, 2);
  await expect(note).toContainText('docker 컨테이너는 사라졌다');
  await expect(docker).toHaveAttribute('data-state', 'lost');
  await expect(runningPeekcart(page)).toHaveCount(3);
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running][data-node=node-1]')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/tour-ko-lost.png' });
  await next(page, 3);
  await expect(docker).toHaveAttribute('data-state', 'running');
  await expect(page.getByTestId('tour-done')).toHaveText('투어가 끝났다.');
});

test('the kubectl bar runs docker against a machine: docker -H ssh://node-2 run', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-kubectl').click();
  const input = page.getByTestId('kubectl-input');
  await input.fill('docker -H ssh://node-2 run -d --restart=always --name web nginx');
  await input.press('Enter');
  await expect(page.getByTestId('kubectl-output')).toHaveText(/^[0-9a-f]{64}\s*$/);
  await expect(page.locator('[data-testid=standalone-container][data-node=node-2][data-name=web]')).toHaveAttribute(
    'data-state',
    'running',
  );
  await page.locator('[data-testid=kill-node][data-node=node-2]').click();
  await expect(page.locator('[data-testid=standalone-container][data-node=node-2][data-name=web]')).toHaveAttribute('data-state', 'lost');
});

const simMs = async (page: Page) => Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));

/** Issue 15 §5: a narration waits for the reader, and the screen shows what it says. */
for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`tours wait for the reader and start from their own screen at ${size.width}×${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await openApp(page);
    // a previous user's screen: a relay filter, an apply's results, kubectl output
    await page.getByTestId('sequence-window').selectOption('last');
    await page.getByTestId('sequence-filter-object').fill('default/nothing');
    await page.getByTestId('apply').click();
    await expect(page.getByTestId('apply-result').first()).toBeVisible();
    await page.getByTestId('tab-kubectl').click();
    await page.getByTestId('kubectl-input').fill('get nodes');
    await page.getByTestId('kubectl-input').press('Enter');
    await expect(page.getByTestId('kubectl-output')).toContainText('control-plane');

    await page.getByTestId('speed').selectOption('10');
    await startTour(page, 'relay');
    // the tour's own screen: default relay view, no filter, no results, no kubectl output, its manifest
    await expect(page.getByTestId('sequence-window')).toHaveValue('action');
    await expect(page.getByTestId('sequence-filter-object')).toHaveValue('');
    await expect(page.getByTestId('apply-result')).toHaveCount(0);
    await expect(page.getByTestId('kubectl-output')).toHaveText('');
    await expect.poll(() => page.evaluate(() => window.__kubeRelay!.editorText)).toContain('image: peekcart:latest');

    // the first narration: the clock stands still while the reader reads
    await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');
    const t0 = await simMs(page);
    await page.waitForTimeout(1_500);
    expect(await simMs(page)).toBe(t0);

    // "kubectl is done, yet no Pod runs … 3 Pods with no node": so it is, and stays so while shown
    await next(page, 1);
    await expect(page.getByTestId('tour-note')).toContainText('kubectl is done, yet no Pod runs');
    const pods = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]');
    const unscheduled = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Pending]');
    await expect(unscheduled).toHaveCount(3);
    const t1 = await simMs(page);
    await page.waitForTimeout(2_000);
    expect(await simMs(page)).toBe(t1);
    await expect(pods.and(page.locator('[data-status=Running]'))).toHaveCount(0);
    expect(
      await page.evaluate(
        () =>
          window.__kubeRelay!.objects.filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('peekcart-') && o.spec?.nodeName).length,
      ),
    ).toBe(0);
    // the relay tells the step's story: the apply's first hop is there
    const first = await page.evaluate(
      () => window.__kubeRelay!.relay.find((h) => h.from === 'kubectl' && h.summary === 'create Deployment default/peekcart')!.seq,
    );
    await expect(page.locator(`[data-testid=sequence-diagram] text.messageText[data-seq="${first}"]`).first()).toBeVisible();
    await page.screenshot({ path: `test-results/tour-relay-paused-${size.width}.png` });

    await next(page, 2);
    await expect(runningPeekcart(page)).toHaveCount(3);
    await page.getByTestId('tour-exit').click();
  });
}
