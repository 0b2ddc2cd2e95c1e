import type { ServiceRuntime } from '../runtime/service-runtime.js';
import { ApiApp } from './api-app.js';

export function createApiApp(runtime: ServiceRuntime): ApiApp {
  const { config } = runtime;
  return new ApiApp({
    service: runtime.service,
    jobs: runtime.jobs,
    auth: runtime.auth,
    limits: {
      maxBodyBytes: config.maxBodyBytes,
      maxDocuments: config.maxDocuments,
      maxBatchSize: config.maxBatchSize,
      maxQueryChars: config.maxQueryChars,
      maxDocumentChars: config.maxDocumentChars,
    },
    plan: {
      syncMaxDocuments: config.jobs.syncMaxDocuments,
      syncMaxChars: config.jobs.syncMaxChars,
      defaultBatchSize: config.jobs.defaultBatchSize,
    },
    jobOptions: { waitMs: config.jobs.waitMs },
    modelIds: runtime.scorers.ids(),
  });
}
