import type { RequestAuthenticator } from '../auth/request-authenticator.js';
import type { PlanLimits } from '../core/plan-request.js';
import type { RerankService } from '../core/rerank-service.js';
import type { RequestLimits } from '../core/validate-request.js';
import type { JobCoordinator } from '../jobs/job-coordinator.js';
import type { BatchesApi } from './batches/batches-api.js';
import type { FilesApi } from './files/files-api.js';
import type { ServiceInfo } from './service-info.js';

export interface ApiAppDeps {
  readonly service: RerankService;
  readonly jobs: JobCoordinator;
  readonly auth: RequestAuthenticator;
  readonly limits: RequestLimits & { readonly maxBodyBytes: number; readonly maxPathChars?: number };
  /** When a request becomes a job, and its default batch size (see planRequest). */
  readonly plan: PlanLimits;
  /** How long a rerank endpoint waits for a job it queued before answering 504 with the job's poll URL. */
  readonly jobOptions: { readonly waitMs: number; readonly pollMs?: number };
  /** Scoring deadline of a synchronous request (504 past it); absent = none. */
  readonly syncTimeoutMs?: number;
  readonly modelIds: readonly string[];
  /** Alias -> the served model id that scores it (`/v1/models` lists them); absent = none. */
  readonly modelAliases?: Readonly<Record<string, string>>;
  /** `GET /info`'s body (service-info.ts), built at start-up. */
  readonly info?: ServiceInfo;
  /** `/v1/batches`; absent = those routes answer 404. */
  readonly batches?: BatchesApi;
  /** `/v1/files` and `/v1/uploads`; absent = those routes answer 404. */
  readonly files?: FilesApi;
}
