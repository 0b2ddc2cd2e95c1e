import type { ServiceRuntime } from '../runtime/service-runtime.js';
import { ApiApp } from './api-app.js';
import { createBatchesApi } from './batches/create-batches-api.js';

export function createApiApp(runtime: ServiceRuntime): ApiApp {
  const { config } = runtime;
  const limits = {
    maxBodyBytes: config.maxBodyBytes,
    maxDocuments: config.maxDocuments,
    maxBatchSize: config.maxBatchSize,
    maxQueryChars: config.maxQueryChars,
    maxDocumentChars: config.maxDocumentChars,
  };
  const plan = {
    syncMaxDocuments: config.jobs.syncMaxDocuments,
    syncMaxChars: config.jobs.syncMaxChars,
    defaultBatchSize: config.jobs.defaultBatchSize,
  };
  const batches = createBatchesApi(runtime, limits, plan);
  return new ApiApp({
    service: runtime.service,
    jobs: runtime.jobs,
    auth: runtime.auth,
    limits,
    plan,
    jobOptions: { waitMs: config.jobs.waitMs },
    modelIds: runtime.scorers.ids(),
    ...(batches ? { batches } : {}),
  });
}
