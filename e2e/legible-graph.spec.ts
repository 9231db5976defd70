/**
 * Issue 15 §3–4 in Chromium at 1280×800 and 1920×1080: the graph shows every name whole (no card
 * text overflows its box or ends in "…"), no two top-level cards overlap, every card lies inside
 * the graph pane — with the seed applied, scaled to 5, after a rollout, after a node kill, and
 * with the peekcart example; the panes resize by drag and by keyboard; the side panel is wider
 * at 1920 than at 1280; the all-kinds list names kubectl's plurals.
 */
import type { Page } from '@playwright/test';
import { test, expect, openApp } from './fixtures';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

/** Waits until elk's answer is shown, the cards stopped gliding and the fit's animation ended. */
async function settled(page: Page): Promise<void> {
  const graph = page.getByTestId('graph');
  await expect(graph).toHaveAttribute('data-layout', 'elk');
  await expect(graph).not.toHaveClass(/layout-settling/);
  await page.waitForTimeout(700);
  await expect(graph).toHaveAttribute('data-layout', 'elk');
  await expect(graph).not.toHaveClass(/layout-settling/);
}

interface Legibility {
  truncated: string[];
  overlaps: string[];
  outside: string[];
  cards: number;
}

/** What a person would see wrong in the graph pane right now. */
async function legibility(page: Page): Promise<Legibility> {
  return page.evaluate(() => {
    const host = document.querySelector('.graph-host')!.getBoundingClientRect();
    const truncated: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.react-flow__node *')) {
      if (el.closest('svg')) continue;
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!text) continue;
      if (text.endsWith('…')) truncated.push(`ellipsis: ${text}`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        truncated.push(`overflow ${el.scrollWidth}>${el.clientWidth}: ${text}`);
    }
    // React Flow renders every node flat: a child's box lies inside its node's (skipped below)
    const boxes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((el) => ({
      id: el.dataset.id ?? '',
      r: el.getBoundingClientRect(),
    }));
    const controls = document.querySelector('.react-flow__controls')!.getBoundingClientRect();
    const overlaps: string[] = [];
    const outside: string[] = [];
    const inside = (a: DOMRect, b: DOMRect) =>
      a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
    const hit = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const b of boxes) if (hit(b.r, controls)) overlaps.push(`${b.id} × the zoom controls`);
    for (const b of boxes)
      if (!inside(b.r, host))
        outside.push(
          `${b.id} ${Math.round(b.r.left)},${Math.round(b.r.top)}–${Math.round(b.r.right)},${Math.round(b.r.bottom)} pane ${Math.round(host.left)},${Math.round(host.top)}–${Math.round(host.right)},${Math.round(host.bottom)}`,
        );
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        if (inside(a, b) || inside(b, a)) continue; // a child inside its node
        if (hit(a, b)) overlaps.push(`${boxes[i].id} × ${boxes[j].id}`);
      }
    return { truncated, overlaps, outside, cards: boxes.length };
  });
}

async function expectLegible(page: Page, state: string): Promise<void> {
  await settled(page);
  const size = page.viewportSize()!;
  await page.screenshot({ path: `test-results/legible-${state}-${size.width}.png` });
  const l = await legibility(page);
  expect(l.cards, state).toBeGreaterThan(10);
  expect(l.truncated, `${state}: truncated card text`).toEqual([]);
  expect(l.overlaps, `${state}: overlapping cards`).toEqual([]);
  expect(l.outside, `${state}: cards outside the pane`).toEqual([]);
}

async function kubectl(page: Page, line: string): Promise<void> {
  await page.getByTestId('tab-kubectl').click();
  await page.getByTestId('kubectl-input').fill(line);
  await page.getByTestId('kubectl-input').press('Enter');
}

const running = (page: Page, n: number) =>
  expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(n, { timeout: 90_000 });

for (const size of SIZES) {
  test(`${size.width}×${size.height}: the seed, scaled to 5, rolled out, a node killed — every name whole, no overlap, all in the pane`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    await openApp(page);
    await page.getByTestId('apply').click();
    await page.getByTestId('speed').selectOption('25');
    await running(page, 3);
    await expectLegible(page, 'seed');
    // the component names, whole
    for (const name of ['kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'coredns'])
      await expect(page.locator(`[data-testid=component-card][data-component="${name}"] .title`)).toHaveText(name);
    await expect(page.locator('[data-testid=agent-card] .title').first()).toHaveText('kubelet');
    const pod = await page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]').first().getAttribute('data-pod');
    await expect(page.locator(`[data-testid=pod-card][data-pod="${pod}"] .pod-name`)).toHaveText(pod!.split('/')[1]);
    await expect(page.locator('[data-testid=service-card][data-service="default/peekcart"] .subtitle').first()).toHaveText(
      /^ClusterIP \d+\.\d+\.\d+\.\d+ · 80\/TCP$/,
    );

    await kubectl(page, 'scale deployment peekcart --replicas=5');
    await running(page, 5);
    await expectLegible(page, 'scaled');

    await kubectl(page, 'set image deployment/peekcart peekcart=ghcr.io/peekcart/peekcart:1.0.1');
    await expect(page.locator('[data-testid=workload-card][data-kind=ReplicaSet]')).toHaveCount(2, { timeout: 30_000 });
    await page.waitForTimeout(1500);
    await expectLegible(page, 'rollout');
    await expect(page.getByTestId('kubectl-output')).toContainText('deployment.apps/peekcart image updated');

    await page.locator('[data-testid=kill-node][data-node=node-1]').click();
    await expect(page.locator('[data-testid=node-card][data-node=node-1]')).toHaveAttribute('data-ready', /false|unknown/, {
      timeout: 90_000,
    });
    await expectLegible(page, 'node-killed');
  });

  test(`${size.width}×${size.height}: the peekcart example (Deployment, StatefulSet, PVC/PV, HPA, two Services)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(size);
    await openApp(page);
    await page.getByTestId('examples').click();
    await page.locator('[data-testid=example][data-example=peekcart]').click();
    await expect
      .poll(() => page.evaluate(() => window.__kubeRelay!.editorText))
      .toMatch(/kind: StatefulSet[\s\S]*kind: HorizontalPodAutoscaler/);
    await page.getByTestId('apply').click();
    await page.getByTestId('speed').selectOption('10');
    await expect(page.locator('[data-testid=pod-card][data-pod="default/mysql-0"][data-status=Running]')).toHaveCount(1, {
      timeout: 90_000,
    });
    await expect(page.locator('[data-testid=pv-card]')).toHaveCount(1, { timeout: 30_000 });
    await expect(page.locator('[data-testid=storageclass-card]')).toHaveCount(1);
    await expect(page.locator('[data-testid=hpa-card]')).toHaveCount(1);
    await expectLegible(page, 'peekcart');
    const pv = await page.locator('[data-testid=pv-card]').getAttribute('data-pv');
    await expect(page.locator('[data-testid=pv-card] .title')).toHaveText(`pv ${pv}`);
  });
}

test('panes resize by drag and by keyboard (role=separator), the sizes survive a reload; the relay takes the full window', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const width = (sel: string) => page.locator(sel).evaluate((el) => el.getBoundingClientRect().width);
  const height = (sel: string) => page.locator(sel).evaluate((el) => el.getBoundingClientRect().height);
  const editor0 = await width('.editor-pane');
  const side0 = await width('.pane.side');
  const graph0 = await width('.graph-pane');

  // drag the editor's splitter 80 px to the right
  const split = page.getByTestId('splitter-editor');
  await expect(split).toHaveAttribute('role', 'separator');
  await expect(split).toHaveAttribute('aria-orientation', 'vertical');
  const b = (await split.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + 40, b.y + b.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2 + 80, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
  expect(Math.round(await width('.editor-pane'))).toBe(Math.round(editor0 + 80));
  expect(Math.round(await width('.graph-pane'))).toBe(Math.round(graph0 - 80));

  // keyboard: the side panel's splitter, ArrowLeft grows the panel by 16 px, Shift+ArrowRight shrinks it by 64
  const side = page.getByTestId('splitter-side');
  await side.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(Math.round(await width('.pane.side'))).toBe(Math.round(side0 + 32));
  await expect(side).toHaveAttribute('aria-valuenow', String(Math.round(side0 + 32)));
  await page.keyboard.press('Shift+ArrowRight');
  expect(Math.round(await width('.pane.side'))).toBe(Math.round(side0 - 32));
  expect(Number(await side.getAttribute('aria-valuemin'))).toBe(280);
  expect(Number(await side.getAttribute('aria-valuemax'))).toBeGreaterThan(side0);

  // the relay row: ArrowDown grows the top row
  const top0 = await height('.graph-pane');
  const row = page.getByTestId('splitter-top');
  await expect(row).toHaveAttribute('aria-orientation', 'horizontal');
  await row.focus();
  await page.keyboard.press('ArrowUp');
  expect(Math.round(await height('.graph-pane'))).toBe(Math.round(top0 - 16));

  // kept across a reload
  const sizes = [await width('.editor-pane'), await width('.pane.side'), await height('.graph-pane')].map(Math.round);
  await page.reload();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  expect([await width('.editor-pane'), await width('.pane.side'), await height('.graph-pane')].map(Math.round)).toEqual(sizes);

  // the relay pane takes the whole window, and gives it back
  const relay0 = await height('.sequence-pane');
  await page.getByTestId('relay-max').click();
  await expect(page.getByTestId('relay-max')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.graph-pane')).toBeHidden();
  expect(await height('.sequence-pane')).toBeGreaterThan(800 - 44 - 60);
  await page.getByTestId('relay-max').click();
  await expect(page.locator('.graph-pane')).toBeVisible();
  expect(Math.round(await height('.sequence-pane'))).toBe(Math.round(relay0));
});

test('the side panel grows with the window; at 1280 the toolbar chips, the side tabs and the scheduling table headers read whole', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const side1280 = await page.locator('.pane.side').evaluate((el) => el.getBoundingClientRect().width);
  await page.getByTestId('apply').click();
  // the Deployment's progress deadline: time, reason and object, whole
  const chip = page.locator('[data-testid=countdown][data-reason=progress-deadline]');
  await expect(chip).toHaveText(/^\d+:\d\d progress deadline peekcart$/, { timeout: 30_000 });
  const clipped = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.toolbar *, .pane.side > .pane-header *')]
        // visually hidden text (screen readers only) and a select's options are not what a person reads
        .filter((el) => el.tagName !== 'OPTION' && getComputedStyle(el).clipPath === 'none' && el.getBoundingClientRect().width > 2)
        .filter(
          (el) =>
            (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') ||
            (el.tagName !== 'SELECT' && el.textContent?.trim().endsWith('…')),
        )
        .map((el) => `${el.className}: ${el.textContent?.trim()}`),
    );
  expect(await clipped()).toEqual([]);
  // every chip and side tab inside the window
  for (const sel of ['[data-testid=countdown]', '.pane.side > .pane-header button']) {
    for (const r of await page.locator(sel).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))
      expect(r).toBeLessThanOrEqual(1280);
  }
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]')).toHaveCount(3, {
    timeout: 60_000,
  });
  await page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]').first().click();
  await page.getByTestId('inspector').getByTestId('inspector-tab-scheduling').click();
  await expect(page.getByTestId('scheduling-row')).toHaveCount(4);
  // plugin names wrap between words: no header line is a single letter, none is cut inside a word
  const lines = await page.locator('.sched-table th').evaluateAll((els) =>
    els.map((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return {
        text: th.textContent ?? '',
        lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
        words: (th.textContent ?? '').split(/(?=[A-Z][a-z])/).length,
      };
    }),
  );
  for (const l of lines) expect(l.lines, l.text).toBeLessThanOrEqual(l.words);
  // the whole table lies inside the side panel: no sideways scroll, every plugin column on screen
  const fit = await page.getByTestId('scheduling-table').evaluate((table) => {
    const side = table.closest('.pane.side')!.getBoundingClientRect();
    return { right: table.getBoundingClientRect().right, sideRight: side.right };
  });
  expect(fit.right).toBeLessThanOrEqual(fit.sideRight);
  // the inspector's title names the Pod whole (it wraps rather than ending in "…")
  const title = await page.locator('[data-testid=inspector] > .pane-header h2').evaluate((h) => ({
    text: h.textContent ?? '',
    cut: h.scrollWidth > h.clientWidth + 1,
    right: h.getBoundingClientRect().right,
  }));
  expect(title.text).toMatch(/^pod\/peekcart-[0-9a-f]+-[a-z0-9]{5}$/);
  expect(title.cut).toBe(false);
  expect(title.right).toBeLessThanOrEqual(fit.sideRight);
  await page.screenshot({ path: 'test-results/legible-scheduling-1280.png' });

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(300);
  const side1920 = await page.locator('.pane.side').evaluate((el) => el.getBoundingClientRect().width);
  expect(side1920).toBeGreaterThan(side1280 + 200);
  // kubectl get: the pods table's RESTARTS column lies inside the panel
  await page.keyboard.press('Escape');
  await page.getByTestId('tab-resources').click();
  const panel = (await page.locator('.pane.side').boundingBox())!;
  const restarts = page.locator('.kubectl-table th', { hasText: 'RESTARTS' }).first();
  const rb = (await restarts.boundingBox())!;
  expect(rb.x + rb.width).toBeLessThanOrEqual(panel.x + panel.width);
});

test('all kinds: kubectl get captions name each resource by its plural', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('all-kinds').check();
  const captions = await page.locator('.kubectl-table caption').allTextContents();
  expect(captions.join('\n')).toContain('kubectl get storageclasses');
  expect(captions.join('\n')).toContain('kubectl get endpointslices -A');
  for (const c of captions) expect(c).not.toMatch(/classs|endpointss|(?<!e)ss\b/);
});
