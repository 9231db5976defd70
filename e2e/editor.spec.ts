/** The editor as a person uses it: paste from the clipboard, apply, read kubectl's answer. */
import { test, expect, openApp, pasteIntoEditor, SELECTOR_MISMATCH } from './fixtures';

const NGINX = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
    - name: nginx
      image: nginx:1.27
      ports:
        - containerPort: 80
`;

test('a manifest pasted with the clipboard applies (Ctrl/Cmd+Enter)', async ({ page }) => {
  await openApp(page);
  await pasteIntoEditor(page, NGINX);
  await expect.poll(() => page.evaluate(() => window.__kubeRelay!.editorText)).toBe(NGINX);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('apply-result')).toHaveText(['pod/web created']);
  await expect(page.locator('[data-testid=pod-card][data-pod="default/web"]')).toBeVisible();
  await expect(page.locator('[data-testid=pod-card][data-pod="default/web"]')).toHaveAttribute('data-status', 'Running', {
    timeout: 30_000,
  });

  // the inspector opens from the card, with the Pod's YAML and its events
  await page.locator('[data-testid=pod-card][data-pod="default/web"]').click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toBeVisible();
  await expect(inspector.getByTestId('inspector-yaml')).toContainText('image: nginx:1.27');
  await inspector.getByTestId('inspector-tab-events').click();
  await expect(inspector.locator('[data-testid=event-row][data-reason=Scheduled]')).toContainText('Successfully assigned default/web to');
  await page.screenshot({ path: 'test-results/05-inspector.png' });
});

test('an invalid manifest shows the apiserver error verbatim, and YAML errors get markers', async ({ page }) => {
  await openApp(page);
  const bad = SELECTOR_MISMATCH;
  await page.evaluate((t) => window.__kubeRelay!.setEditorText(t), bad);
  await page.getByTestId('apply').click();
  const line = page.getByTestId('apply-result');
  await expect(line).toHaveText([
    'The Deployment "peekcart" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"peekcart-typo"}: `selector` does not match template `labels`',
  ]);
  await expect(line).toHaveClass(/error/);
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/"]')).toHaveCount(0);

  // a YAML syntax error is marked in the editor
  await page.evaluate(() => window.__kubeRelay!.setEditorText('apiVersion: v1\nkind: Pod\nmetadata:\n  name: [broken\n'));
  await expect(page.getByTestId('editor').locator('.squiggly-error, .squiggly-warning').first()).toBeAttached();
  await page.screenshot({ path: 'test-results/06-invalid.png' });
});
