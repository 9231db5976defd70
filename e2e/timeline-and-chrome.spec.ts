/** Issue 6 §3–5: replay with the timeline, the Korean UI, the dark theme and the keyboard shortcuts. */
import { test, expect, openApp } from './fixtures';

test('drag the timeline back to before the apply, then return to live', async ({ page }) => {
  await openApp(page);
  const timeline = page.getByTestId('timeline');
  // let some simulated time pass before applying, so "before" is a moment of its own
  await expect
    .poll(async () => Number(await timeline.getAttribute('max')) - Number(await timeline.getAttribute('min')))
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId('apply').click();
  const pods = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]');
  await expect(pods.and(page.locator('[data-status=Running]'))).toHaveCount(3, { timeout: 30_000 });
  const liveMs = Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));

  // back to the first recorded moment: the cluster before the apply
  await timeline.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('timeline-live')).toBeVisible();
  await expect(pods).toHaveCount(0);
  await expect(page.locator('[data-testid=resource-row][data-kind=Deployment][data-namespace=default]')).toHaveCount(0);
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  expect(Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'))).toBeLessThan(liveMs);
  await page.screenshot({ path: 'test-results/15-timeline-replay.png' });

  // step forward with the arrow key: still a past moment; then "live" returns
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('timeline-live')).toBeVisible();
  await page.getByTestId('timeline-live').click();
  await expect(page.getByTestId('timeline-live')).toHaveCount(0);
  await expect(pods).toHaveCount(3);
  expect(Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'))).toBeGreaterThanOrEqual(liveMs);
});

test('switch the UI to Korean; Kubernetes names and kubectl output stay as Kubernetes prints them', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('language').selectOption('ko');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(page.getByTestId('tab-resources')).toHaveText('리소스');
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('일시정지');
  await expect(page.getByRole('region', { name: '릴레이' })).toContainText('제어 평면을 지나는 모든 홉');
  await expect(page.getByTestId('reset')).toContainText('초기화');
  // Kubernetes words stay: kubectl caption, node names, kubectl output
  await expect(page.locator('.kubectl-table caption').first()).toContainText('kubectl get nodes');
  await page.locator('[data-testid=resource-row][data-kind=Node][data-name=node-1]').click();
  await expect(page.getByTestId('inspector-yaml')).toContainText('spec — 원하는 상태');
  await expect(page.getByTestId('inspector-yaml')).toContainText('status — 현재 상태');
  await page.keyboard.press('Escape');
  await page.getByTestId('tab-kubectl').click();
  await page.getByTestId('kubectl-input').fill('get deployments');
  await page.getByTestId('kubectl-input').press('Enter');
  await expect(page.getByTestId('kubectl-output')).toHaveText('No resources found in default namespace.\n', { useInnerText: true });
  await page.screenshot({ path: 'test-results/16-korean.png' });
  // the choice survives a reload
  await page.reload();
  await expect(page.getByTestId('tab-resources')).toHaveText('리소스');
  await page.getByTestId('language').selectOption('en');
  await expect(page.getByTestId('tab-resources')).toHaveText('resources');
});

test('dark theme toggles, keyboard shortcuts play/pause, step and open the help', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  const toggle = page.getByTestId('theme-toggle');
  await expect(toggle).toHaveAccessibleName('Dark theme');
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(html).toHaveCSS('background-color', 'rgb(18, 22, 29)');
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 30_000,
  });
  await page.waitForTimeout(600);
  await page.screenshot({ path: 'test-results/17-dark.png' });

  // space pauses, `.` steps, space plays again (focus on the page, not an input)
  await page.locator('.brand').click();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Play');
  const simTime = page.getByTestId('sim-time');
  const before = Number(await simTime.getAttribute('data-sim-ms'));
  await page.keyboard.press('.');
  await expect.poll(async () => Number(await simTime.getAttribute('data-sim-ms'))).toBeGreaterThan(before);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Pause');
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await expect(page.getByTestId('help')).toContainText('Space');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help')).toHaveCount(0);

  // typing in the kubectl bar is not a shortcut
  await page.getByTestId('tab-kubectl').click();
  await page.getByTestId('kubectl-input').fill('get pods ');
  await page.getByTestId('kubectl-input').press(' ');
  await expect(page.getByTestId('play-pause')).toHaveAccessibleName('Pause');

  // every button, select and input has an accessible name
  const unnamed = await page
    .locator('button:visible, select:visible, input:visible')
    .evaluateAll((els) =>
      els
        .filter(
          (e) =>
            !(
              e.getAttribute('aria-label') ||
              e.textContent?.trim() ||
              e.closest('label') ||
              (e.id && document.querySelector(`label[for="${e.id}"]`))
            ),
        )
        .map((e) => e.outerHTML.slice(0, 80)),
    );
  expect(unnamed).toEqual([]);
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test('a wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openApp(page);
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 30_000,
  });
  await page.waitForTimeout(600);
  await page.screenshot({ path: 'test-results/18-wide.png' });
});
