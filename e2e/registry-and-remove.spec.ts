/** The simulated registry (mark an image missing → ErrImagePull / ImagePullBackOff) and removing a node for good. */
import { test, expect, openApp, pasteIntoEditor } from './fixtures';

test('mark an image missing in the registry: its Pod cannot pull (ErrImagePull, then ImagePullBackOff)', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await page.getByTestId('tab-registry').click();
  await page.getByTestId('registry-input').fill('nginx:1.161');
  await page.getByTestId('registry-mark').click();
  await expect(page.locator('[data-testid=registry-image][data-image="docker.io/library/nginx:1.161"]')).toHaveAttribute(
    'data-missing',
    'true',
  );
  await pasteIntoEditor(
    page,
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\nspec:\n  containers:\n  - name: web\n    image: nginx:1.161\n',
  );
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toContainText('pod/broken created');
  await expect(page.locator('[data-testid=pod-card][data-pod="default/broken"]')).toHaveAttribute(
    'data-status',
    /^(ErrImagePull|ImagePullBackOff)$/,
    { timeout: 30_000 },
  );
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod="default/broken"]')).toHaveAttribute('data-status', 'ImagePullBackOff', {
    timeout: 30_000,
  });
  // the image in use is listed as missing; unmark it and the kubelet's next retry pulls it
  await expect(page.locator('[data-testid=registry-image][data-image="nginx:1.161"]')).toHaveAttribute('data-missing', 'true');
  await page.locator('[data-testid=registry-image][data-image="nginx:1.161"] input[type=checkbox]').uncheck();
  await page.getByTestId('speed').selectOption('100');
  await expect(page.locator('[data-testid=pod-card][data-pod="default/broken"]')).toHaveAttribute('data-status', 'Running', {
    timeout: 30_000,
  });
});

test('remove a node: the Node is deleted, its Pods are garbage-collected and replaced on the others', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await page.getByTestId('apply').click();
  const running = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]');
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  const node = (await running.first().getAttribute('data-node'))!;
  await page.locator(`[data-testid=remove-node][data-node=${node}]`).click();
  await expect(page.locator(`[data-testid=node-card][data-node=${node}]`)).toHaveCount(0, { timeout: 15_000 });
  await page.getByTestId('speed').selectOption('100');
  // the pod garbage collector force-deletes the orphan after its 40 s quarantine
  await expect(page.locator(`[data-testid=pod-card][data-node=${node}]`)).toHaveCount(0, { timeout: 45_000 });
  await expect(
    page.locator(`[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]:not([data-node=${node}])`),
  ).toHaveCount(3, { timeout: 45_000 });
});
