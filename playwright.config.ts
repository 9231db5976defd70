import { defineConfig } from '@playwright/test';

// Debian's Chromium, driven against `vite preview` (Playwright's own browser download is never used). No devices['Desktop Chrome']:
// its Windows user agent makes Monaco use CRLF line endings.
// E2E_PORT lets a second checkout run its tests while another preview holds 4173.
const port = Number(process.env.E2E_PORT ?? 4173);
// E2E_DIST serves another build folder (`vite build --outDir /tmp/x`), so parallel work does not share dist/.
const dist = process.env.E2E_DIST ? ` --outDir ${process.env.E2E_DIST}` : '';

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort${dist}`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
