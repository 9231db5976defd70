import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The attach story (e2e/attach.spec.ts): `npm run apiserver` on its own port at ×20, and the
// app's preview server whose /k8s proxy points at it (KUBE_RELAY_API). E2E_PORT / E2E_DIST as
// in playwright.config.ts; E2E_API_PORT picks the apiserver's port.
const port = Number(process.env.E2E_PORT ?? 4173);
const apiPort = Number(process.env.E2E_API_PORT ?? 16443);
// attach.spec.ts runs only under this config (the default config has no apiserver)
process.env.KUBE_RELAY_ATTACH_E2E = '1';
const dist = process.env.E2E_DIST ? ` --outDir ${process.env.E2E_DIST}` : '';
// the apiserver writes its per-start token here; the preview's /k8s proxy and the spec read it
const kubeconfig = `${process.env.TMPDIR ?? '/tmp'}/kube-relay-attach-${apiPort}.kubeconfig`;
process.env.KUBE_RELAY_ATTACH_KUBECONFIG = kubeconfig;

export default defineConfig({
  ...base,
  testMatch: 'attach.spec.ts',
  webServer: [
    {
      command: `npx tsx src/cli/apiserver.ts --port ${apiPort} --speed 20 --kubeconfig ${kubeconfig}`,
      url: `http://127.0.0.1:${apiPort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort${dist}`,
      url: `http://127.0.0.1:${port}`,
      env: { KUBE_RELAY_API: `http://127.0.0.1:${apiPort}`, KUBE_RELAY_KUBECONFIG: kubeconfig },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
