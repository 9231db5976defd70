/**
 * Issue 5 §4, §5, §7: the Network tab — look a Service up through cluster DNS, send requests
 * from a Pod (kube-proxy spreads them over the Service's Pods), see them fail once the
 * Deployment has no Pods, and drive an HPA with the load control.
 */
import { test, expect, openApp, pasteIntoEditor } from './fixtures';
import type { Page } from '@playwright/test';

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
        resources:
          requests:
            cpu: 100m
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
---
apiVersion: v1
kind: Pod
metadata:
  name: client
  labels:
    app: client
spec:
  containers:
  - name: client
    image: nginx:1.27
`;

const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`;

async function kubectl(page: Page, line: string): Promise<string> {
  await page.getByTestId('tab-kubectl').click();
  const input = page.getByTestId('kubectl-input');
  await input.fill(line);
  await input.press('Enter');
  await expect(page.locator('.kubectl-echo')).toContainText(line);
  return page.getByTestId('kubectl-output').innerText();
}

test('network tab: DNS lookup, traffic from a Pod spread over the endpoints, refused without endpoints, load drives the HPA', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await openApp(page);
  await pasteIntoEditor(page, MANIFEST);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['deployment.apps/web created', 'service/web created', 'pod/client created']);
  await page.getByTestId('speed').selectOption('10');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/web-"][data-status=Running]')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.locator('[data-testid=pod-card][data-pod="default/client"][data-status=Running]')).toHaveCount(1, { timeout: 30_000 });
  const clusterIP = (await kubectl(page, 'get svc web -o jsonpath={.spec.clusterIP}')).trim();
  expect(clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);

  // DNS: `web` from default answers with the ClusterIP, via the first search domain
  await page.getByTestId('tab-network').click();
  await expect(page.getByTestId('dns-name')).toHaveAttribute('placeholder', 'peekcart');
  await expect(page.locator('#net-dns-names option[value="web.default.svc.cluster.local"]')).toHaveCount(1);
  await page.getByTestId('dns-name').fill('web');
  await page.getByTestId('dns-namespace').selectOption('default');
  await page.getByTestId('dns-lookup').click();
  const dns = page.getByTestId('dns-output');
  await expect(dns).toContainText('Server:\t\t10.96.0.10');
  await expect(dns).toContainText('Name:\tweb.default.svc.cluster.local');
  await expect(dns).toContainText(`Address: ${clusterIP}`);
  await expect(page.getByTestId('dns-queries')).toContainText('web.default.svc.cluster.local');
  await page
    .locator('.net-section')
    .first()
    .screenshot({ path: test.info().outputPath('network-dns.png') });

  // a name that does not exist: NXDOMAIN, verbatim
  await page.getByTestId('dns-name').fill('nope');
  await page.getByTestId('dns-lookup').click();
  await expect(dns).toContainText("** server can't find nope: NXDOMAIN");
  // names are text, never HTML
  await page.getByTestId('dns-name').fill('<img src=x onerror=alert(1)>');
  await page.getByTestId('dns-lookup').click();
  await expect(dns).toContainText('<img src=x onerror=alert(1)>');
  await expect(page.getByTestId('network-panel').locator('img')).toHaveCount(0);

  // traffic: 10 requests from the client Pod, all answered by the Service's Pods
  await expect(page.locator('[data-testid=traffic-source] option[value="default/client"]')).toHaveCount(1);
  await page.getByTestId('traffic-source').selectOption('default/client');
  await expect(page.locator(`#net-traffic-urls option[value="http://${clusterIP}"]`)).toHaveCount(1);
  await page.getByTestId('traffic-url').fill('http://web');
  await page.getByTestId('traffic-count').fill('10');
  await page.getByTestId('traffic-send').click();
  await expect(page.locator('[data-testid=traffic-result][data-ok=true]')).toHaveCount(10);
  await expect(page.locator('[data-testid=traffic-result][data-ok=false]')).toHaveCount(0);
  await expect(page.locator('[data-testid=traffic-result]').first()).toHaveAttribute('data-pod', /^Pod\/default\/web-/);
  await expect(page.locator('[data-testid=traffic-result]').first()).toHaveAttribute('data-node', /^node-\d$/);
  const counts = await page
    .locator('[data-testid=traffic-tally-pod]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
  // many more requests: kube-proxy's probabilities reach all three Pods
  await page.getByTestId('traffic-count').fill('60');
  await page.getByTestId('traffic-send').click();
  await expect(page.locator('[data-testid=traffic-result][data-ok=true]')).toHaveCount(60);
  await expect(page.locator('[data-testid=traffic-tally-pod]')).toHaveCount(3);
  await expect(page.locator('[data-testid=traffic-tally-pod]').first()).toHaveAttribute('data-pod', /^Pod\/default\/web-/);
  // the chains are there, folded
  const first = page.locator('[data-testid=traffic-result]').first();
  await first.locator('summary').click();
  await expect(first.getByTestId('traffic-chains')).toContainText('KUBE-SERVICES');
  await expect(first.getByTestId('traffic-chains')).toContainText(/KUBE-SVC-[A-Z0-9]{16}/);
  await expect(first.getByTestId('traffic-chains')).toContainText(/KUBE-SEP-[A-Z0-9]{16}/);
  await page.getByTestId('network-panel').screenshot({ path: test.info().outputPath('network-traffic.png') });
  // continuous: one more request every 100 wall ms, appended, until switched off
  await page.getByTestId('traffic-interval').fill('100');
  await page.getByTestId('traffic-continuous').check();
  await expect.poll(() => page.locator('[data-testid=traffic-result]').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(63);
  await page.getByTestId('traffic-continuous').uncheck();
  const stopped = await page.locator('[data-testid=traffic-result]').count();
  await page.waitForTimeout(500);
  expect(await page.locator('[data-testid=traffic-result]').count()).toBeLessThanOrEqual(stopped + 1);
  // the labels in Korean; Kubernetes names stay as they are
  await page.getByTestId('language').selectOption('ko');
  await expect(page.getByTestId('tab-network')).toHaveText('네트워크');
  await expect(page.getByTestId('traffic-send')).toHaveText('보내기');
  await page.getByTestId('network-panel').screenshot({ path: test.info().outputPath('network-ko.png') });
  await page.getByTestId('language').selectOption('en');
  await page.screenshot({ path: test.info().outputPath('network-page.png') });

  // no Pods behind the Service: kube-proxy REJECTs, curl's connection-refused message
  await kubectl(page, 'scale deployment web --replicas=0');
  await page.getByTestId('speed').selectOption('100');
  await expect(page.locator('[data-testid=pod-card][data-pod^="default/web-"]')).toHaveCount(0, { timeout: 45_000 });
  await page.getByTestId('tab-network').click();
  await page.getByTestId('traffic-count').fill('3');
  await page.getByTestId('traffic-send').click();
  await expect(page.locator('[data-testid=traffic-result][data-ok=false]')).toHaveCount(3);
  await expect(page.locator('[data-testid=traffic-result]').first()).toContainText(
    `curl: (7) Failed to connect to ${clusterIP} port 80 after 0 ms: Couldn't connect to server`,
  );
  await expect(page.getByTestId('traffic-tally-nopod')).toHaveAttribute('data-count', '3');
  await page.locator('.net-results').screenshot({ path: test.info().outputPath('network-refused.png') });

  // the HPA: back to 3 replicas, apply the HPA, raise the load → it scales up to its max
  await page.getByTestId('speed').selectOption('10');
  await kubectl(page, 'scale deployment web --replicas=3');
  await pasteIntoEditor(page, HPA);
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('apply-result')).toHaveText(['horizontalpodautoscaler.autoscaling/web created']);
  await page.getByTestId('tab-network').click();
  const control = page.locator('[data-testid=load-control][data-workload="default/deployment/web"]');
  await expect(control).toHaveCount(1);
  await expect(control.getByTestId('load-hpa')).toHaveAttribute('data-hpa', 'web');
  await control.getByTestId('load-input').fill('900');
  await expect(control).toHaveAttribute('data-load', '900');
  await page.getByTestId('speed').selectOption('100');
  // 900m over 3 Pods requesting 100m each is 300% of request against a 50% target
  await expect(control.getByTestId('load-hpa')).toHaveAttribute('data-targets', /^cpu: \d+%\/50%$/, { timeout: 30_000 });
  await expect(control.getByTestId('load-hpa')).toContainText('→ 5', { timeout: 30_000 });
  await control.screenshot({ path: test.info().outputPath('network-hpa.png') });
  await page.getByTestId('tab-events').click();
  await expect(page.locator('[data-testid=event-row][data-reason=SuccessfulRescale]').first()).toContainText(
    'New size: 5; reason: cpu resource utilization (percentage of request) above target',
    { timeout: 30_000 },
  );
  await page.getByTestId('tab-resources').click();
  await expect(page.locator('[data-testid=resource-row][data-kind=Deployment][data-name=web]')).toHaveAttribute('data-ready', '5/5', {
    timeout: 30_000,
  });
});
