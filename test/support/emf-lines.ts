import { afterAll, afterEach, beforeEach, vi } from 'vitest';

/**
 * Metrics are EMF lines on stdout (CloudWatch turns them into metrics). The suite turns metrics off (vitest.config.ts),
 * so a file that checks them calls this once: metrics on, fresh modules for each test (import what records metrics
 * inside the test), and the lines each test wrote in `emf.lines`.
 */
export function captureEmfLines(): { readonly lines: string[] } {
  const emf = { lines: [] as string[] };
  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_DEV', 'true');
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'RerankService');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'rerank');
    emf.lines = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void emf.lines.push(args.map(String).join(' ')));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  // The unit project shares one module graph per worker (isolate: false): drop the modules loaded with metrics on, so
  // the files after this one load them again with the suite's settings.
  afterAll(() => {
    vi.resetModules();
  });
  return emf;
}
