/**
 * The UI benchmarks' workload (ui.bench.ts measures it, ui-profile.bench.ts profiles it): a
 * 300-replica Deployment applied through the editor at ×10, then rolled to a new image.
 */
import type { Page } from '@playwright/test';

type Hook = {
  setEditorText(t: string): void;
  objects: { kind: string; status?: { phase?: string }; spec?: { containers?: { image: string }[] } }[];
};

/** The Deployment, at `image`. */
export const deployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 300
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: ${image}
        resources: {requests: {cpu: 10m, memory: 16Mi}}
`;

/** Puts the Deployment at `image` in the editor and presses Apply. */
export async function applyDeployment(page: Page, image: string): Promise<void> {
  await page.evaluate((t) => (window as unknown as { __kubeRelay: Hook }).__kubeRelay.setEditorText(t), deployment(image));
  await page.getByTestId('apply').click();
}

/** Applies the Deployment at nginx:1.27 at ×10 and waits until its 300 Pods run. */
export async function applyAndWaitRunning(page: Page): Promise<void> {
  await page.getByTestId('speed').selectOption('10');
  await applyDeployment(page, 'nginx:1.27');
  await page.waitForFunction(
    () =>
      (window as unknown as { __kubeRelay: Hook }).__kubeRelay.objects.filter(
        (o) => o.kind === 'Pod' && o.status?.phase === 'Running' && o.spec?.containers?.[0].image === 'nginx:1.27',
      ).length >= 300,
    null,
    { timeout: 180_000, polling: 1000 },
  );
}

/** Starts the rollout to nginx:1.28 (the measured part). */
export const startRollout = (page: Page) => applyDeployment(page, 'nginx:1.28');

/** Starts recording requestAnimationFrame deltas in the page (ms); read them with {@link frameDeltas}. */
export async function startFrameRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[] };
    w.__frames = [];
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The rAF deltas recorded since {@link startFrameRecording} (the first, partial one dropped), ms. */
export async function frameDeltas(page: Page): Promise<number[]> {
  return (await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames)).slice(1);
}
