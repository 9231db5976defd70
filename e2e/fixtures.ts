/**
 * Shared fixtures: every test records console errors, page errors and any request that
 * leaves localhost, and fails if there were any (the app is offline by design).
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export interface Problems {
  errors: string[];
  offsite: string[];
}

export const test = base.extend<{ problems: Problems }>({
  problems: [
    async ({ page }, use) => {
      const problems: Problems = { errors: [], offsite: [] };
      page.on('pageerror', (e) => problems.errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.errors.push(`console: ${m.text()}`);
      });
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol))
          problems.offsite.push(r.url());
      });
      await use(problems);
      expect(problems.errors, 'console errors and page errors').toEqual([]);
      expect(problems.offsite, 'requests that left localhost').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Opens the app and waits until Monaco shows the manifest and the cluster's nodes are drawn. */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('editor').locator('.monaco-editor .view-lines')).toContainText('kind: Deployment');
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
}

/** The participant labels of the rendered sequence diagram (a label's lines joined), left to right. */
export async function diagramParticipants(diagram: Locator): Promise<string[]> {
  return diagram.locator('svg text.actor').evaluateAll((els) => {
    const seen = new Map<string, number>();
    // a label broken over lines ("replicaset-" / "controller") is one text element per line in its actor's group
    const groups = new Map<Element, SVGTextElement[]>();
    for (const el of els as SVGTextElement[]) {
      const g = el.parentElement ?? el;
      groups.set(g, [...(groups.get(g) ?? []), el]);
    }
    for (const texts of groups.values()) {
      const name = texts.map((t) => t.textContent?.trim() ?? '').join('');
      if (name && !seen.has(name)) seen.set(name, texts[0].getBBox().x + (texts[0].getCTM()?.e ?? 0));
    }
    return [...seen].sort((a, b) => a[1] - b[1]).map(([n]) => n);
  });
}

/** Pastes `text` into the editor through the system clipboard, as a person would. */
export async function pasteIntoEditor(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.getByTestId('editor').locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

/** The seed's Deployment with a selector that does not match its template's labels (the apiserver rejects it). */
export const SELECTOR_MISMATCH = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: peekcart
spec:
  replicas: 3
  selector:
    matchLabels:
      app: peekcart
  template:
    metadata:
      labels:
        app: peekcart-typo
    spec:
      containers:
        - name: peekcart
          image: ghcr.io/peekcart/peekcart:1.0.0
`;

/** A Deployment named `huge` of `replicas` tiny nginx Pods (1m CPU, 1Mi each): the large-cluster checks' manifest. */
export const hugeDeployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: huge}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: huge}}
  template:
    metadata: {labels: {app: huge}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources: {requests: {cpu: 1m, memory: 1Mi}}
`;
