/**
 * The UI benchmarks' workload (ui.bench.ts measures it, ui-profile.bench.ts profiles it): a
 * Deployment of 300 replicas (or `replicas`) applied through the editor at ×10, then rolled to a
 * new image. With 1,000 replicas the rollout's surge takes the cluster beyond the graph's
 * 1,000-Pod threshold, so the page switches to the summarized graph while it rolls.
 */
import type { Page } from '@playwright/test';

type Hook = {
  setEditorText(t: string): void;
  objects: { kind: string; status?: { phase?: string }; spec?: { containers?: { image: string }[] } }[];
};

/** The Deployment of `replicas` Pods, at `image`. */
export const deployment = (image: string, replicas = 300) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ${replicas}
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
export async function applyDeployment(page: Page, image: string, replicas = 300): Promise<void> {
  await page.evaluate((t) => (window as unknown as { __kubeRelay: Hook }).__kubeRelay.setEditorText(t), deployment(image, replicas));
  await page.getByTestId('apply').click();
}

/** Applies the Deployment at nginx:1.27 at ×10 and waits until its `replicas` Pods run (at most 1,000: the page then still holds every Pod). */
export async function applyAndWaitRunning(page: Page, replicas = 300): Promise<void> {
  await page.getByTestId('speed').selectOption('10');
  await applyDeployment(page, 'nginx:1.27', replicas);
  await page.waitForFunction(
    (n) =>
      (window as unknown as { __kubeRelay: Hook }).__kubeRelay.objects.filter(
        (o) => o.kind === 'Pod' && o.status?.phase === 'Running' && o.spec?.containers?.[0].image === 'nginx:1.27',
      ).length >= n,
    replicas,
    { timeout: 180_000, polling: 1000 },
  );
}

/** Starts the rollout to nginx:1.28 (the measured part). */
export const startRollout = (page: Page, replicas = 300) => applyDeployment(page, 'nginx:1.28', replicas);

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
