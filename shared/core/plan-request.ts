import type { RerankRequest } from './rerank-request.js';

export interface SyncLimits {
  readonly syncMaxDocuments: number;
  readonly syncMaxChars: number;
}

/**
 * Small requests are scored now, in the API function; large ones become a job of chunks scored by
 * workers. Characters stand in for tokens here: the decision must be cheap and made before tokenizing.
 */
export function needsQueuedJob(request: RerankRequest, limits: SyncLimits): boolean {
  if (request.documents.length > limits.syncMaxDocuments) return true;
  let chars = 0;
  for (const d of request.documents) {
    chars += d.text.length + request.query.length;
    if (chars > limits.syncMaxChars) return true;
  }
  return false;
}
