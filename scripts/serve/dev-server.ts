/**
 * `npm start`: the service on http://127.0.0.1:3000 with no AWS account. Jobs and batches use the in-process queues
 * and stores; this process starter attaches both lanes to the handlers Lambda runs (the one task worker, the dead-letter
 * consumer) and runs the worker's scheduled sweep on a timer, and stops them when the server stops.
 */
// First: it sets the console's defaults before any module below builds its logger or metrics.
import { plainRequestLines } from './local-log-defaults.js';
import { loadServiceConfig } from '../../shared/config/service-config.js';
import { startLocalWorkers, unfinishedWorkLine } from '../../shared/runtime/local-workers.js';
import { configureProcessRuntime, serviceRuntime } from '../../shared/runtime/process-runtime.js';
import { resolveHubModelsFromEnv } from '../../shared/scoring/model-pull/index.js';
import { localLambdaHandlers } from './local-lambda-handlers.js';
import { startLocalServer } from './local-server.js';
import { startupFailureLine } from './startup-failure.js';

const target = { port: Number(process.env['PORT'] ?? 3000), host: process.env['HOST'] ?? '127.0.0.1' };
try {
  // Hub repo ids in RERANK_MODELS are pulled into the model cache first (as `cdk synth` does for rerank:models),
  // so the service reads a list of folders; a cached one costs no request.
  const spec = process.env['RERANK_MODELS'];
  if (spec !== undefined && spec.trim() !== '') {
    const root = process.env['RERANK_CODE_ROOT'] ?? process.cwd();
    const models = await resolveHubModelsFromEnv(spec, { root, env: process.env, progress: process.stderr });
    configureProcessRuntime(loadServiceConfig({ ...process.env, RERANK_MODELS: models }));
  }

  const runtime = await serviceRuntime();
  // The local backend's lanes (absent on the aws backend): both deliver to the handlers Lambda runs.
  const workers = startLocalWorkers(runtime, localLambdaHandlers());

  await startLocalServer({
    ...target,
    onShutdown: async () => unfinishedWorkLine(await workers.stop()),
    ...(plainRequestLines ? { requestLines: process.stdout } : {}),
  });
} catch (error) {
  // A setting, a model or a port the person starting it can fix: one line that says which and how, not a stack trace.
  const line = startupFailureLine(error, target);
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
}
