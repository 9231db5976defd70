/** Issue 6 §2 and §6: the inspector's tabs (Scheduling "why this node", Owners, kube-proxy) and kinds without a controller. */
import { test, expect, openApp, pasteIntoEditor } from './fixtures';

test('click a Pod: the Scheduling tab shows why its node was chosen; owners lead up to the Deployment', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('apply').click();
  const running = page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"][data-status=Running]');
  await expect(running).toHaveCount(3, { timeout: 30_000 });
  const pod = running.first();
  const node = (await pod.getAttribute('data-node'))!;
  await pod.click();

  const inspector = page.getByTestId('inspector');
  await expect(inspector).toBeVisible();
  await expect(inspector.getByTestId('inspector-yaml')).toContainText('spec — desired state');
  await expect(inspector.getByTestId('inspector-yaml')).toContainText('status — current state');
  // peekcart's image is not one kube-relay models: what it serves is assumed, and the inspector says so
  await expect(inspector.getByTestId('inspector-assumed')).toHaveText(
    'Assumed: kube-relay does not model ghcr.io/peekcart/peekcart:1.0.0; container peekcart is taken to listen on 8080 and answer 200 on every path.',
  );
  await inspector.getByTestId('inspector-tab-scheduling').click();
  const rows = inspector.getByTestId('scheduling-row');
  await expect(rows).toHaveCount(4);
  const cp = inspector.locator('[data-testid=scheduling-row][data-node=control-plane]');
  await expect(cp).toHaveAttribute('data-filter', 'TaintToleration');
  await expect(cp).toHaveAttribute('data-feasible', 'false');
  await expect(cp).toContainText('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }');
  const chosen = inspector.locator('[data-testid=scheduling-row][data-chosen=true]');
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toHaveAttribute('data-node', node);
  await expect(rows.first()).toHaveAttribute('data-chosen', 'true');
  await expect(inspector.getByTestId('scheduling-table').locator('th')).toContainText([
    'NODE',
    'FILTER',
    'TaintToleration',
    'NodeResourcesFit',
  ]);
  await page.screenshot({ path: 'test-results/11-scheduling.png' });

  // owners: ReplicaSet then Deployment up the chain; clicking one opens it
  await inspector.getByTestId('inspector-tab-owners').click();
  const links = inspector.getByTestId('owner-link');
  await expect(links.first()).toHaveText(/^replicaset\/peekcart-/);
  await expect(links.nth(1)).toHaveText('deployment/peekcart');
  await links.nth(1).click();
  await expect(inspector).toHaveAttribute('data-key', 'Deployment/default/peekcart');
  await inspector.getByTestId('inspector-tab-owners').click();
  await expect(inspector.locator('.owner-tree [data-testid=owner-link]')).toHaveCount(4); // 1 ReplicaSet + 3 Pods
  await expect(inspector.getByTestId('inspector-owners')).toContainText('deployment-controller');
  await page.screenshot({ path: 'test-results/12-owners.png' });

  // a Node: its kube-proxy rules, with peekcart's Service chain
  await page.keyboard.press('Escape');
  await expect(inspector).toHaveCount(0);
  await page.locator(`[data-testid=node-card][data-node="${node}"] .node-name`).click();
  await expect(inspector).toHaveAttribute('data-key', `Node/${node}`);
  await inspector.getByTestId('inspector-tab-proxy').click();
  await expect(inspector.getByTestId('proxy-rules')).toContainText('*nat');
  await expect(inspector.getByTestId('proxy-rules')).toContainText('default/peekcart');
  await page.screenshot({ path: 'test-results/13-kube-proxy.png' });
  // delete-pod stays offered for Pods
  await page.keyboard.press('Escape');
  await pod.click();
  await expect(page.getByTestId('delete-pod')).toBeVisible();
});

// no NetworkPolicy controller runs here (that is the CNI plugin's job, and none is simulated)
const NETPOL = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: shop
spec:
  podSelector:
    matchLabels:
      app: peekcart
  policyTypes: [Ingress]
`;

test('kinds no controller reconciles are marked "stored only — no controller"', async ({ page }) => {
  await openApp(page);
  await pasteIntoEditor(page, NETPOL);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['networkpolicy.networking.k8s.io/shop created']);
  await page.getByTestId('all-kinds').check();
  const row = page.locator('[data-testid=resource-row][data-kind=NetworkPolicy][data-name=shop]');
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-controller', '');
  await expect(page.locator('[data-testid=no-controller][data-kind=NetworkPolicy]')).toHaveText('stored only — no controller');
  // a reconciled kind carries its controllers and no marker
  await expect(page.locator('[data-testid=resource-row][data-kind=Node]').first()).toHaveAttribute(
    'data-controller',
    /node-lifecycle-controller/,
  );
  await expect(page.locator('[data-testid=no-controller][data-kind=Node]')).toHaveCount(0);
  await row.click();
  await page.getByTestId('inspector-tab-owners').click();
  await expect(page.getByTestId('inspector-owners')).toContainText('stored only — no controller');
  await page.screenshot({ path: 'test-results/14-stored-only.png' });
});
