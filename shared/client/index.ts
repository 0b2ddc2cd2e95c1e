/**
 * The rerank client SDK: `import { RerankClient } from 'rerank-service/client'`.
 *
 * Job cancellation: the service has no cancel endpoint yet, so there is no `jobs.cancel`; abort
 * `jobs.wait` (or `rerank`) with an AbortSignal to stop waiting - the job finishes or expires server-side.
 */
export { RerankClient, type RerankClientOptions } from './rerank-client.js';
export { RerankJobsClient, type WaitOptions } from './rerank-jobs-client.js';
export {
  RerankBatchesClient,
  type BatchRequestLine,
  type BatchResultLine,
  type BatchWaitOptions,
  type RerankBatch,
  type RerankBatchStatus,
} from './rerank-batches-client.js';
export type { RerankJob, RerankJobProgress, RerankJobStatus, SubmittedRerankRequest } from './rerank-job.js';
export type { RerankModeName } from './rerank-mode.js';
export type { RankedDocument, RankedItem, RankedPair, RerankOptions, RerankResult, RerankUsage } from './rerank-result.js';
export type { FetchLike } from './http-transport.js';
export type { BackoffOptions } from './poll-backoff.js';
export {
  RerankApiError,
  RerankClientError,
  RerankJobFailedError,
  RerankNetworkError,
  RerankResponseFormatError,
  RerankResponseTooLargeError,
  RerankTimeoutError,
  type RerankApiErrorDetails,
} from './rerank-client-errors.js';
