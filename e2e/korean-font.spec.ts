/**
 * Korean renders on a machine without a CJK font (this one has none): choosing 한국어 loads the
 * app's own Hangul font (i18n/korean-font.ts, two woff2 assets of the build), never before and
 * never from the network; the pane titles' Hangul glyphs are drawn from it, not as tofu.
 */
import type { Page } from '@playwright/test';
import { test, expect, openApp } from './fixtures';

/**
 * Widths of UI text holding Hangul (the graph pane's title, the pause button's label) as drawn,
 * as drawn with only the bundled face, and with the machine's fallback (tofu here).
 */
async function hangulWidths(page: Page, withTofu: boolean) {
  return page.evaluate(async (withTofu) => {
    await document.fonts.ready;
    const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'kube-relay Hangul');
    const texts: Text[] = [];
    for (const el of [document.querySelector('.graph-pane .pane-header h2'), document.querySelector('[data-testid=play-pause]')]) {
      for (const n of el?.childNodes ?? []) if (n.nodeType === Node.TEXT_NODE && /[가-힣]/.test(n.textContent ?? '')) texts.push(n as Text);
    }
    const widths = texts.map((tn) => {
      const range = document.createRange();
      range.selectNodeContents(tn);
      const ui = range.getBoundingClientRect().width;
      const parent = tn.parentElement!;
      const widthWith = (family: string) => {
        const span = document.createElement('span');
        span.textContent = tn.textContent;
        span.style.fontFamily = family;
        parent.append(span);
        const w = span.getBoundingClientRect().width;
        span.remove();
        return w;
      };
      // the fallback the machine has: no CJK font, so Hangul is drawn as tofu boxes
      return {
        text: tn.textContent,
        ui,
        bundled: widthWith('"kube-relay Hangul"'),
        tofu: withTofu ? widthWith('"DejaVu Sans", sans-serif') : NaN,
      };
    });
    return { statuses: faces.map((f) => f.status), check: document.fonts.check('12px "kube-relay Hangul"', '클러스터'), widths };
  }, withTofu);
}

/**
 * The UI's Hangul is drawn with the bundled face's metrics; with `withTofu`, also that these are
 * not the fallback's (measured last: Chromium keeps the tofu shaping of a string it measured
 * in that fallback, so the UI check comes first).
 */
async function expectBundledHangul(page: Page, withTofu: boolean): Promise<void> {
  const r = await hangulWidths(page, withTofu);
  expect(r.statuses).toEqual(['loaded', 'loaded']);
  expect(r.check).toBe(true);
  expect(r.widths.map((w) => w.text?.trim())).toEqual(['클러스터', '일시정지']);
  for (const w of r.widths) {
    // the UI's text has the bundled face's metrics, and they are not the fallback's
    expect(Math.abs(w.ui - w.bundled), JSON.stringify(w)).toBeLessThan(0.5);
    if (withTofu) expect(Math.abs(w.bundled - w.tofu), JSON.stringify(w)).toBeGreaterThan(2);
  }
}

test('choosing Korean loads the bundled Hangul font and the UI draws its glyphs from it', async ({ page, baseURL }) => {
  const fonts: string[] = [];
  page.on('request', (r) => {
    if (/\.woff2?(\?|$)/.test(r.url())) fonts.push(r.url());
  });
  await openApp(page);
  await page.waitForTimeout(500);
  // English: no font file is fetched
  expect(fonts).toEqual([]);
  await expect(page.locator('html')).not.toHaveAttribute('data-hangul-font', /./);

  await page.getByTestId('language').selectOption('ko');
  await expect(page.locator('html')).toHaveAttribute('data-hangul-font', 'loaded');
  const origin = new URL(baseURL!).origin;
  expect(fonts.length).toBeGreaterThan(0);
  for (const f of fonts) expect(f.startsWith(`${origin}/assets/`), f).toBe(true);

  await expect(page.locator('.graph-pane .pane-header h2')).toHaveText('클러스터');
  await expectBundledHangul(page, false);
  await page.screenshot({ path: 'test-results/korean-font.png' });
  // after a reload (Korean remembered) too: the text is drawn once the font is in, never as tofu
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-hangul-font', 'loaded');
  await expect(page.locator('.graph-pane .pane-header h2')).toHaveText('클러스터');
  await page.screenshot({ path: 'test-results/korean-font-reload.png' });
  await expectBundledHangul(page, true);
});
