import { defineConfig } from 'vitest/config';

// The UI build (React, Monaco, workers) is configured by the UI; the test block is shared.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
