/** Issue 6 §1: the kubectl bar — type a command, press Enter, read kubectl's exact output; ↑/↓ history. */
import { test, expect, openApp } from './fixtures';

test('run kubectl commands from the bar: stdout, stderr in red, history with the arrow keys', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-kubectl').click();
  const input = page.getByTestId('kubectl-input');
  const output = page.getByTestId('kubectl-output');

  await input.fill('get nodes -o name');
  await input.press('Enter');
  await expect(output).toHaveText('node/control-plane\nnode/node-1\nnode/node-2\nnode/node-3\n', { useInnerText: true });
  await expect(input).toHaveValue('');

  // nothing applied yet: kubectl says so on stderr (exit 0), shown in red
  await input.fill('kubectl get deployments');
  await input.press('Enter');
  await expect(output).toHaveText('No resources found in default namespace.\n', { useInnerText: true });
  await expect(output.locator('.stderr')).toHaveCSS('color', /rgb\(209, 54, 47\)|rgb\(255, 115, 105\)/);

  // an unknown command: kubectl's error, exit code 1
  await input.fill('frobnicate');
  await input.press('Enter');
  await expect(output).toContainText('error: unknown command "frobnicate" for "kubectl"');
  await expect(output).toHaveAttribute('data-exit-code', '1');

  // the table after apply: the header and the three replicas
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['deployment.apps/peekcart created', 'service/peekcart created']);
  await input.fill('get deploy peekcart -o name');
  await input.press('Enter');
  await expect(output).toHaveText('deployment.apps/peekcart\n', { useInnerText: true });
  await input.fill('get pods');
  await input.press('Enter');
  await expect(output).toContainText(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
  await expect.poll(async () => ((await output.innerText()).match(/^peekcart-/gm) ?? []).length).toBe(3);

  // history: ↑ walks back, ↓ forward, past the newest gives back the draft
  await input.fill('desc');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('get pods');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('get deploy peekcart -o name');
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('desc');
  await page.screenshot({ path: 'test-results/10-kubectl-bar.png' });
});
