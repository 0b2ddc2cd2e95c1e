import type { ServiceRuntime } from '../runtime/service-runtime.js';
import { ApiApp } from './api-app.js';
import { apiLimitsOf } from '../runtime/api-limits.js';
import { createBatchesApi } from './batches/create-batches-api.js';
import { createFilesApi } from './files/create-files-api.js';
import { serviceInfo } from './service-info.js';

export function createApiApp(runtime: ServiceRuntime): ApiApp {
  const { config } = runtime;
  const { limits, plan } = apiLimitsOf(config);
  const batches = createBatchesApi(runtime, limits, plan);
  const files = createFilesApi(runtime);
  const info = serviceInfo(config, runtime.scorers, { batches: batches !== undefined, files: files !== undefined });
  return new ApiApp({
    service: runtime.service,
    jobs: runtime.jobs,
    auth: runtime.auth,
    limits,
    plan,
    jobOptions: { waitMs: config.jobs.waitMs },
    syncTimeoutMs: config.syncTimeoutMs,
    modelIds: runtime.scorers.ids(),
    modelAliases: info.aliases,
    info,
    ...(batches ? { batches } : {}),
    ...(files ? { files } : {}),
  });
}
