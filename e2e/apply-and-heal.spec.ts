/**
 * The walking skeleton's user story: apply the seed's peekcart Deployment, watch the relay
 * reach the kubelets, then power off the node of the first Pod and watch the cluster heal.
 */
import { test, expect, openApp, diagramParticipants } from './fixtures';

test('apply the seed manifest, watch the relay, kill a node and watch the cluster heal', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await expect(page.getByTestId('graph')).toBeVisible();
  await expect(page.locator('[data-testid=kill-node]')).toHaveCount(3); // every worker node, not the control plane

  // the editor holds the seed manifest
  const text = await page.evaluate(() => window.__kubeRelay!.editorText);
  expect(text).toContain('kind: Deployment');
  expect(text).toMatch(/name: peekcart[\s\S]*replicas: 3[\s\S]*containerPort: 8080[\s\S]*kind: Service[\s\S]*targetPort: 8080/);

  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['deployment.apps/peekcart created', 'service/peekcart created']);

  // hops travel the graph's links (a dot runs along component ↔ kube-apiserver edges)
  await expect(page.getByTestId('graph').locator('.relay-dot').first()).toBeAttached();

  // the relay, in the seed's order
  const diagram = page.getByTestId('sequence-diagram');
  await expect(diagram.locator('svg')).toBeVisible();
  await expect
    .poll(
      async () => {
        const names = await diagramParticipants(diagram);
        const order = ['kube-apiserver', 'etcd', 'deployment-controller', 'replicaset-controller', 'kube-scheduler'].map((n) =>
          names.indexOf(n),
        );
        const kubelet = names.findIndex((n) => n.startsWith('kubelet/'));
        return [...order, kubelet].every((i, k, all) => i >= 0 && (k === 0 || i > all[k - 1]));
      },
      {
        message: 'participants kube-apiserver, etcd, deployment-controller, replicaset-controller, kube-scheduler, kubelet/… left to right',
      },
    )
    .toBe(true);
  await page.screenshot({ path: 'test-results/01-applied.png' });

  // three Pods Running on worker nodes
  // CoreDNS runs in kube-system too: look at peekcart's Pods
  const peekcart = '[data-testid=pod-card][data-pod^="default/peekcart-"]';
  const running = page.locator(`${peekcart}[data-status=Running]:not([data-node=""])`);
  await expect(running).toHaveCount(3, { timeout: 60_000 });
  const runningNodes = await running.evaluateAll((els) => els.map((e) => e.getAttribute('data-node')));
  expect(runningNodes.every((n) => n && n !== 'control-plane')).toBe(true);
  await expect(page.locator('[data-testid=resource-row][data-kind=Deployment][data-name=peekcart]')).toHaveAttribute('data-ready', '3/3');
  const podRows = page.locator('[data-testid=resource-row][data-kind=Pod][data-namespace=default][data-status=Running][data-ready="1/1"]');
  await expect(podRows).toHaveCount(3);
  expect((await podRows.evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).sort()).toEqual([...runningNodes].sort());
  // the whole relay from the top: kubectl's create first
  await page.getByTestId('seq-pin').check();
  await page.locator('.sequence-scroll').evaluate((el) => el.scrollTo(0, 0));
  await expect(diagram.locator('svg')).toContainText('create Deployment default/peekcart');
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/02-running.png' });

  // power off the node that hosts the first Pod
  const first = page.locator(peekcart).first();
  const victim = (await first.getAttribute('data-node'))!;
  const onVictim = await page.locator(`${peekcart}[data-node="${victim}"]`).count();
  expect(onVictim).toBeGreaterThan(0);
  await page.locator(`[data-testid=kill-node][data-node="${victim}"]`).click();
  await expect(page.locator(`[data-testid=restore-node][data-node="${victim}"]`)).toBeVisible();
  await page.getByTestId('speed').selectOption('100');

  const victimCard = page.locator(`[data-testid=node-card][data-node="${victim}"]`);
  await expect(victimCard).toHaveAttribute('data-ready', 'unknown', { timeout: 60_000 });
  await expect(page.getByTestId('countdown').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/03-node-unknown.png' });

  // replacements Running elsewhere; the old Pods stay Terminating on the unreachable node
  const healthy = page.locator(`${peekcart}[data-status=Running]:not([data-node="${victim}"]):not([data-node=""])`);
  await expect(healthy).toHaveCount(3, { timeout: 90_000 });
  await expect(page.locator(`${peekcart}[data-node="${victim}"][data-status=Terminating]`)).toHaveCount(onVictim);
  const simMs = Number(await page.getByTestId('sim-time').getAttribute('data-sim-ms'));
  expect(simMs).toBeGreaterThan(300_000); // grace period + the 300 s toleration went by
  await page.screenshot({ path: 'test-results/04-healed.png' });
});
