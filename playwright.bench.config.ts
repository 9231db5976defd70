import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run bench:ui`: the UI benchmark (docs/benchmarks.md#results-file `ui`), not part of `npm test`.
// Same Chromium and preview server as the end-to-end tests; its own folder, port and output.
const port = Number(process.env.E2E_PORT ?? 4206);
const dist = process.env.E2E_DIST ?? '/tmp/dist-bench';

export default defineConfig({
  ...base,
  testDir: 'e2e-bench',
  testMatch: '*.bench.ts',
  timeout: 300_000,
  outputDir: '/tmp/pw-bench',
  // no Playwright trace: its per-frame screenshots cost the software compositor ≈ 7 ms of CPU a
  // frame (measured), which is the harness's cost, not the app's
  use: { ...base.use, trace: 'off', baseURL: `http://127.0.0.1:${port}` },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort --outDir ${dist}`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
