import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse } from 'aws-lambda';
import { handler as deadLetterHandler } from '../../../functions/workers/dead-letter.js';
import { handler as taskWorker } from '../../../functions/workers/task-worker.js';
import { FIXTURE_MODEL_SPEC, loadServiceConfig } from '../../../shared/config/service-config.js';
import type { ApiApp } from '../../../shared/http/api-app.js';
import { createApiApp } from '../../../shared/http/create-api-app.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import { createServiceRuntime, type ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { serviceRuntime } from '../../../shared/runtime/process-runtime.js';

/** The keys the keyed app accepts: jobs submitted with the other key must stay invisible to this one. */
export const PROPERTY_API_KEY = 'property-test-key';
export const OTHER_API_KEY = 'property-test-other-key';

export interface InProcessApi {
  readonly runtime: ServiceRuntime;
  /** Auth off, as `npm start` runs by default. */
  readonly app: ApiApp;
  /**
   * A second runtime configured with `RERANK_API_KEYS=PROPERTY_API_KEY,OTHER_API_KEY`: its own job store, and
   * no consumer on its queue (the worker handlers serve the first runtime), so its jobs stay `running`.
   */
  readonly authedApp: ApiApp;
}

/**
 * The real runtime (config from env, ONNX scorers, in-memory job store, in-process queue delivering to
 * the real worker handlers) in this test process: no socket, so thousands of events run in seconds.
 * Built once per test file (process); later calls share it.
 */
export function loadInProcessApi(): Promise<InProcessApi> {
  loaded ??= build();
  return loaded;
}

let loaded: Promise<InProcessApi> | undefined;

/**
 * Env first: the runtime reads its configuration when it is built. The fixture cross-encoder, as the e2e
 * tests use: fast, deterministic and chunkable, so every request can also take the job path. One ONNX
 * thread: vitest runs two files at once on two cores.
 */
async function build(): Promise<InProcessApi> {
  // Hermetic: a developer's RERANK_* settings and the project's key file must not reach the runtime.
  for (const name of Object.keys(process.env)) if (/^(RERANK_|POWERTOOLS_)/.test(name)) delete process.env[name];
  Object.assign(process.env, {
    // Never created: no stored keys, whatever `.rerank/keys.json` holds.
    RERANK_KEYS_FILE: join(tmpdir(), `rerank-property-${process.pid}-absent`, 'keys.json'),
    // Files the routes may store go to a scratch folder, never the project's `.rerank/files`.
    RERANK_FILES_DIR: join(tmpdir(), `rerank-property-${process.pid}-files`),
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    // EMF lines would flood the test output (the suite's default, cleared above with the other POWERTOOLS_* names).
    POWERTOOLS_METRICS_DISABLED: 'true',
    RERANK_MODELS: FIXTURE_MODEL_SPEC,
    RERANK_THREADS: '1',
    RERANK_JOBS_BACKEND: 'memory',
    RERANK_API_KEYS: '',
    RERANK_RETRY_DELAY_MS: '10',
  });
  const runtime = await serviceRuntime();
  runtime.localChunkQueue?.attach(
    async (event) => (await taskWorker(event, localLambdaContext('rerank-task-worker-property'))) as SQSBatchResponse,
    async (event) => deadLetterHandler(event, localLambdaContext('rerank-dead-letter-property')),
  );
  // Its jobs never finish, so a dialect endpoint planning a queued job (257 documents) would hold the
  // property for the whole default wait (20 s per case): a short wait still takes the 504 path.
  const keyed = await createServiceRuntime(
    loadServiceConfig({ ...process.env, RERANK_API_KEYS: `${PROPERTY_API_KEY},${OTHER_API_KEY}`, RERANK_JOB_WAIT_MS: '50' }),
  );
  return { runtime, app: createApiApp(runtime), authedApp: createApiApp(keyed) };
}
