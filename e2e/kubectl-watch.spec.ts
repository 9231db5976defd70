/** Issue 6 §5: `kubectl get pods -w` in the bar — live rows as the Deployment's Pods start; Esc is ^C. */
import { test, expect, openApp } from './fixtures';

test('get pods -w appends a row per change until Esc stops it', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-kubectl').click();
  const input = page.getByTestId('kubectl-input');
  const output = page.getByTestId('kubectl-output');

  // no Pods yet: the watch prints nothing, then the header with the first event
  await input.fill('get pods -w');
  await input.press('Enter');
  await expect(output).toHaveAttribute('data-watching', 'true');
  await expect(output).toHaveText('', { useInnerText: true });

  await page.getByTestId('apply').click();
  await expect(output).toContainText(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
  await expect(output).toContainText(/^peekcart-\w+-\w+\s+0\/1\s+Pending\s+0\s+0s$/m);
  await expect(output).toContainText(/^peekcart-\w+-\w+\s+0\/1\s+ContainerCreating\s+0\s+\d+s$/m);
  await expect(output).toContainText(/^peekcart-\w+-\w+\s+1\/1\s+Running\s+0\s+\d+s$/m);
  // the header is printed once
  expect(((await output.innerText()).match(/^NAME/gm) ?? []).length).toBe(1);
  await page.screenshot({ path: 'test-results/kubectl-watch.png' });

  // a new command ends the previous watch; `get nodes -w` sees the node the graph's button adds
  await input.fill('get nodes -w');
  await input.press('Enter');
  await expect(output).toContainText(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
  await expect(output).not.toContainText('peekcart');
  await page.getByTestId('add-node').click();
  await expect(output).toContainText(/^node-4\s+\S+\s+<none>\s+\d+s\s+v1\.33\.\d+$/m);

  // Esc is ^C: the watch ends and nothing more is printed
  await input.press('Escape');
  await expect(output).not.toHaveAttribute('data-watching', 'true');
  const stopped = await output.innerText();
  await page.getByTestId('add-node').click();
  await page.waitForTimeout(1_500);
  expect(await output.innerText()).toBe(stopped);
  expect(stopped).not.toContain('node-5');
});
