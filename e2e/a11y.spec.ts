/**
 * Looks and habits (issue 6 §8): every control has an accessible name (in both languages),
 * the help lists the shortcuts, the layout fits 1280×800, 1920×1080 and 2560×1440 without
 * horizontal overflow, in the light and the dark theme.
 */
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

/** Buttons, selects, inputs and textareas that are visible and have no accessible name. */
async function unnamedControls(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const role of [
    'button',
    'combobox',
    'listbox',
    'textbox',
    'slider',
    'checkbox',
    'radio',
    'spinbutton',
    'searchbox',
    'tab',
    'link',
  ] as const) {
    for (const el of await page.getByRole(role).all()) {
      if (!(await el.isVisible())) continue;
      // Monaco's hidden input textarea is named by Monaco itself ("Editor content…")
      const snapshot = await el.ariaSnapshot().catch(() => '');
      const named = /^- '?\w+ "[^"]+"/.test(snapshot.trim()) || /^- \w+ \/.+\/$/m.test(snapshot.trim());
      if (!named) out.push(`${role}: ${await el.evaluate((e) => e.outerHTML.slice(0, 160))}`);
    }
  }
  return out;
}

for (const lang of ['en', 'ko'] as const) {
  test(`every visible control has an accessible name (${lang}), also with the tour list and a tour open`, async ({ page }) => {
    await openApp(page);
    await page.getByTestId('language').selectOption(lang);
    expect(await unnamedControls(page)).toEqual([]);
    await page.getByTestId('tours').click();
    await expect(page.locator('[data-testid=tour]')).toHaveCount(9);
    expect(await unnamedControls(page)).toEqual([]);
    await page.locator('[data-tour=relay]').click();
    await expect(page.getByTestId('tour-next')).toBeVisible();
    expect(await unnamedControls(page)).toEqual([]);
    await page.keyboard.press('?');
    await expect(page.getByTestId('help')).toBeVisible();
    expect(await unnamedControls(page)).toEqual([]);
  });
}

test('the help lists the keyboard shortcuts, and t / n / Escape work', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('?');
  const help = page.getByTestId('help');
  await expect(help.locator('kbd')).toHaveText(['Space', '.', '?', 't', 'n', 'Ctrl/⌘ + Enter', 'Esc', '↑ ↓']);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.keyboard.press('t');
  await expect(page.getByTestId('tour-list')).toBeVisible();
  await page.locator('[data-tour=relay]').click();
  await expect(page.getByTestId('tour-next')).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 400 } });
  await page.keyboard.press('n');
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-step', '1', { timeout: 30_000 });
});

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
];
for (const size of SIZES) {
  for (const theme of ['light', 'dark'] as const) {
    test(`layout at ${size.width}×${size.height}, ${theme}: nothing overflows sideways, panes do not overlap`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.addInitScript((t) => localStorage.setItem('kube-relay.theme', t), theme);
      await openApp(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.getByTestId('apply').click();
      await expect(page.locator('[data-testid=pod-card][data-status=Running]')).toHaveCount(5, { timeout: 30_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // the toolbar's controls stay inside the window
      for (const id of ['play-pause', 'speed', 'tours', 'language', 'reset']) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box.x + box.width, id).toBeLessThanOrEqual(size.width);
        expect(box.y + box.height, id).toBeLessThanOrEqual(size.height);
      }
      const boxes = await page
        .locator('main.layout > *')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          const overlapX = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          const overlapY = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
          expect(overlapX > 1 && overlapY > 1, `panes ${i} and ${j} overlap`).toBe(false);
        }
      await page.screenshot({ path: `test-results/layout-${size.width}x${size.height}-${theme}.png` });
    });
  }
}
