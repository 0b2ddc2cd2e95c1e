import type { ServiceRuntime } from '../runtime/service-runtime.js';
import { ApiApp } from './api-app.js';

export function createApiApp(runtime: ServiceRuntime): ApiApp {
  const { config } = runtime;
  return new ApiApp({
    service: runtime.service,
    jobs: runtime.jobs,
    auth: runtime.auth,
    jobSlots: runtime.jobSlots,
    limits: {
      ...config.jobs,
      maxBodyBytes: config.maxBodyBytes,
      maxDocuments: config.maxDocuments,
      maxBatchSize: config.maxBatchSize,
      maxQueryChars: config.maxQueryChars,
      maxDocumentChars: config.maxDocumentChars,
    },
    jobOptions: { defaultBatchSize: config.jobs.defaultBatchSize, waitMs: config.jobs.waitMs },
    modelIds: runtime.scorers.ids(),
  });
}
