import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadServiceConfig } from '../../../shared/config/service-config.js';
import { createApiApp } from '../../../shared/http/create-api-app.js';
import { startLocalWorkers } from '../../../shared/runtime/local-workers.js';
import { createServiceRuntime, type ServiceRuntime } from '../../../shared/runtime/service-runtime.js';

const scratch = mkdtempSync(join(tmpdir(), 'api-app-starts-nothing-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** The runtime `npm start` builds (memory backend: both in-process lanes), with bm25 only. */
const localRuntime = (): Promise<ServiceRuntime> =>
  createServiceRuntime(
    loadServiceConfig({
      RERANK_MODELS: 'bm25=lexical',
      RERANK_KEYS_FILE: join(scratch, 'keys.json'),
      RERANK_FILES_DIR: join(scratch, 'files'),
    }),
  );

/** Watches what starts work in the background: a lane's consumer, a timer. */
function watchStarts(runtime: ServiceRuntime) {
  return {
    chunkLane: vi.spyOn(runtime.localChunkQueue!, 'consume'),
    batchLane: vi.spyOn(runtime.batches!.localQueue!, 'consume'),
    intervals: vi.spyOn(globalThis, 'setInterval'),
    timeouts: vi.spyOn(globalThis, 'setTimeout'),
  };
}

const handlers = () => ({
  worker: async () => ({ batchItemFailures: [] }),
  deadLetter: async () => ({ batchItemFailures: [] }),
  sweep: async () => undefined,
});

describe('processes start workers, libraries do not', () => {
  it('building the HTTP app starts no timer and no worker, on either lane', async () => {
    const runtime = await localRuntime();
    const starts = watchStarts(runtime);
    const app = createApiApp(runtime);
    expect(app).toBeDefined();
    expect(starts.chunkLane).not.toHaveBeenCalled();
    expect(starts.batchLane).not.toHaveBeenCalled();
    expect(starts.intervals).not.toHaveBeenCalled();
    expect(starts.timeouts).not.toHaveBeenCalled();
  });

  it('the process starter attaches both lanes to the one worker handler, and the expiry sweep, and stop() ends them', async () => {
    const runtime = await localRuntime();
    const starts = watchStarts(runtime);
    const clear = vi.spyOn(globalThis, 'clearInterval');
    const lambda = handlers();
    const workers = startLocalWorkers(runtime, lambda);
    // Both lanes consume through the handler the worker function runs: npm start runs what Lambda runs.
    expect(starts.chunkLane).toHaveBeenCalledExactlyOnceWith(lambda.worker);
    expect(starts.batchLane).toHaveBeenCalledExactlyOnceWith(lambda.worker);
    expect(starts.intervals).toHaveBeenCalledOnce();
    expect(await workers.stop()).toEqual({ jobIds: [], batchIds: [] });
    expect(clear).toHaveBeenCalledWith(starts.intervals.mock.results[0]!.value);
  });
});
