import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // ONNX sessions and child servers are heavy; a few workers keep a 2-core machine responsive.
    maxWorkers: 2,
    // Tests assert behaviour, not EMF lines: metrics off, logs at ERROR.
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
    // `npm test` runs both projects; `vitest run --project unit` only the fast one.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'],
          // Golden tests score whole reference sets with real models: seconds each, more on a loaded machine.
          // *.slow.test.ts start processes, servers or worker threads, or move megabytes: the slow project runs them.
          exclude: ['**/*.golden.test.ts', '**/*.slow.test.ts'],
          // Starting a process or a server throws here, so the split cannot drift.
          setupFiles: ['test/support/unit-guard.ts'],
          // One module graph per worker, not per file: importing the library again for each of ~100 files was most of
          // the loop's time. Unit tests keep no state in modules (configuration is passed in, not read at import).
          isolate: false,
          // In-process code and fake ports: a test that needs longer is hanging. Hooks may load a small ONNX model.
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: [
            'test/e2e/**/*.test.ts',
            'test/integration/**/*.test.ts',
            'test/infra/**/*.test.ts',
            'test/property/**/*.test.ts',
            'test/unit/**/*.golden.test.ts',
            'test/unit/**/*.slow.test.ts',
          ],
          // Real models against golden outputs, real HTTP servers, emulators (DynamoDB Local, moto), CDK synth and
          // bundles, thousands of in-process events.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
