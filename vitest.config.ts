import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // ONNX sessions and child servers are heavy; a few workers keep a 2-core machine responsive.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests assert behaviour, not EMF lines: metrics off, logs at ERROR.
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
  },
});
