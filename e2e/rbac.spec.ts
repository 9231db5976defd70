/**
 * RBAC in the UI (issue 18, item 3): the "Acting as" switcher makes the learner's requests as
 * another user or a ServiceAccount (the admin impersonating it); kubectl's Forbidden is printed
 * exactly, the Apply is denied per object, a Role + RoleBinding lets jane in, and the inspector
 * shows the binding's subjects and the role's rules. The failover in the graph is
 * leader-election.spec.ts's (the HA control plane); together they cover issue 18's "switching
 * user, being denied, and a failover in the graph".
 */
import type { Page } from '@playwright/test';
import { test, expect, openApp, pasteIntoEditor } from './fixtures';

const LIST_DENIED =
  'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"';
const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: demo
`;
const APPLY_DENIED =
  'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\nName: "settings", Namespace: "default"\nfrom server for: "STDIN": configmaps "settings" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"';
const POD_READER = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: default
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: default
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
`;

async function kubectl(page: Page, line: string): Promise<void> {
  const bar = page.getByTestId('kubectl-input');
  await bar.fill(line);
  await bar.press('Enter');
}

async function actAsUser(page: Page, user: string, groups = ''): Promise<void> {
  await page.getByTestId('acting-as-select').selectOption('__user__');
  await page.getByTestId('acting-as-user').fill(user);
  await page.getByTestId('acting-as-groups').fill(groups);
  await page.getByTestId('acting-as-apply').click();
  await expect(page.getByTestId('acting-as-chip')).toHaveAttribute('data-user', user);
  await expect(page.getByTestId('acting-as')).toHaveAttribute('data-user', user);
}

/** Nothing in `sel` is cut off: its content fits its box and the box lies inside the window. */
async function expectWhole(page: Page, sel: string): Promise<void> {
  const box = await page.locator(sel).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { sw: el.scrollWidth, cw: el.clientWidth, right: r.right, left: r.left, vw: window.innerWidth };
  });
  expect(box.sw, `${sel} content fits`).toBeLessThanOrEqual(box.cw + 1);
  expect(box.left).toBeGreaterThanOrEqual(0);
  expect(box.right, `${sel} inside the window`).toBeLessThanOrEqual(box.vw);
}

test('act as jane: denied in the kubectl bar and in Apply; a RoleBinding lets her list Pods; the inspector shows it', async ({ page }) => {
  test.setTimeout(150_000);
  await openApp(page);
  // as the admin: the default manifest applies
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=apply-result][data-action=created]').first()).toBeVisible();
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/peekcart-"]')).toHaveCount(3, { timeout: 30_000 });

  await page.getByTestId('tab-kubectl').click();
  await expect(page.getByTestId('acting-as')).toHaveAttribute('data-user', 'kubernetes-admin');
  await expect(page.getByTestId('acting-as-chip')).toHaveCount(0);
  await actAsUser(page, 'jane');
  await expectWhole(page, '[data-testid=acting-as-chip]');
  await expectWhole(page, '[data-testid=acting-as]');

  await kubectl(page, 'get pods');
  const out = page.getByTestId('kubectl-output');
  await expect(out).toHaveAttribute('data-exit-code', '1');
  expect(await out.textContent()).toBe(`${LIST_DENIED}\n`);
  // the relay: jane's list answered 403 with the same reason (batches reach the store a frame later: poll)
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { __kubeRelay: { relay: { kind: string; summary: string }[] } }).__kubeRelay.relay
          .filter((h) => h.kind === 'response' && h.summary.includes('User "jane"'))
          .map((h) => h.summary),
      ),
    )
    .toContain(`403 Forbidden: ${LIST_DENIED.replace('Error from server (Forbidden): ', '')}`);
  await page.screenshot({ path: 'test-results/rbac-1-denied-kubectl.png' });

  // the editor's Apply is made as jane too: kubectl apply's Forbidden for the object
  await pasteIntoEditor(page, CONFIGMAP);
  await page.getByTestId('apply').click();
  const result = page.locator('[data-testid=apply-result][data-action=error]');
  await expect(result).toHaveCount(1);
  expect(await result.textContent()).toBe(APPLY_DENIED);
  await page.screenshot({ path: 'test-results/rbac-2-denied-apply.png' });

  // one click back to the admin; it creates the Role and the RoleBinding
  await page.getByTestId('acting-as-reset').click();
  await expect(page.getByTestId('acting-as-chip')).toHaveCount(0);
  await expect(page.getByTestId('acting-as')).toHaveAttribute('data-user', 'kubernetes-admin');
  await pasteIntoEditor(page, POD_READER);
  await page.getByTestId('apply').click();
  await expect(page.locator('[data-testid=apply-result]')).toHaveText([
    'role.rbac.authorization.k8s.io/pod-reader created',
    'rolebinding.rbac.authorization.k8s.io/read-pods created',
  ]);

  // jane again: get pods works now
  await actAsUser(page, 'jane');
  await kubectl(page, 'get pods');
  await expect(out).toHaveAttribute('data-exit-code', '0');
  await expect(out).toContainText(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
  await expect(out).toContainText('peekcart-');
  await kubectl(page, 'auth whoami');
  await expect(out).toContainText(/Username\s+jane/);

  // the RoleBinding in the inspector: subjects → roleRef → the role's rules
  await page.getByTestId('tab-resources').click();
  await page.getByTestId('all-kinds').check();
  await page.locator('[data-testid=resource-row][data-kind=RoleBinding][data-name=read-pods]').click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-key', 'RoleBinding/default/read-pods');
  await inspector.getByTestId('inspector-tab-rbac').click();
  const rbac = inspector.getByTestId('inspector-rbac');
  await expect(rbac).toHaveAttribute('data-kind', 'binding');
  await expect(rbac.getByTestId('rbac-subject')).toHaveCount(1);
  await expect(rbac.getByTestId('rbac-subject')).toHaveAttribute('data-name', 'jane');
  await expect(rbac.getByTestId('rbac-subject')).toHaveAttribute('data-kind', 'User');
  await expect(rbac.getByTestId('rbac-roleref')).toHaveText('role/pod-reader');
  await expect(rbac.getByTestId('rbac-rule')).toHaveCount(1);
  await expect(rbac.getByTestId('rbac-rule')).toHaveAttribute('data-verbs', 'get,list,watch');
  await expect(rbac.getByTestId('rbac-rule')).toHaveAttribute('data-resources', 'pods');
  await expectWhole(page, '[data-testid=inspector-rbac]');
  await page.screenshot({ path: 'test-results/rbac-3-binding-inspector.png' });

  // the Role: its rules and who it is granted to
  await rbac.getByTestId('rbac-roleref').click();
  await expect(inspector).toHaveAttribute('data-key', 'Role/default/pod-reader');
  await inspector.getByTestId('inspector-tab-rbac').click();
  await expect(inspector.getByTestId('rbac-binding')).toHaveAttribute('data-key', 'RoleBinding/default/read-pods');
  await expect(inspector.getByTestId('rbac-subject')).toHaveAttribute('data-name', 'jane');
  await page.screenshot({ path: 'test-results/rbac-4-role-inspector.png' });
});

test('1920×1080: act as a ServiceAccount picked from the live list; the chip fits; a reload keeps it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openApp(page);
  // kube-relay runs no ServiceAccount controller (no `default` account): the admin creates one, and the list follows live
  await pasteIntoEditor(page, 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: builder\n');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText('serviceaccount/builder created');
  await page.getByTestId('tab-kubectl').click();
  const sa = 'system:serviceaccount:default:builder';
  await expect(page.locator(`[data-testid=acting-as-select] option[value="${sa}"]`)).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('acting-as-select').selectOption(sa);
  await expect(page.getByTestId('acting-as-chip')).toHaveAttribute('data-user', sa);
  await expectWhole(page, '[data-testid=acting-as-chip]');
  await kubectl(page, 'get deployments');
  await expect(page.getByTestId('kubectl-output')).toHaveText(
    `Error from server (Forbidden): deployments.apps is forbidden: User "${sa}" cannot list resource "deployments" in API group "apps" in the namespace "default"`,
  );
  await page.screenshot({ path: 'test-results/rbac-5-serviceaccount-1920.png' });
  // the session log holds the choice: after a reload the worker acts as the ServiceAccount again
  await page.waitForTimeout(3000); // the session log is saved to IndexedDB every 1.5 s (persistence/session.ts CLUSTER_SAVE_MS)
  await page.reload();
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4, { timeout: 60_000 });
  await expect(page.getByTestId('acting-as-chip')).toHaveAttribute('data-user', sa);
});
