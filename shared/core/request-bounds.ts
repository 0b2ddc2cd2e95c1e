import { needsQueuedJob, unqueueable, type SyncLimits } from './plan-request.js';
import { RerankError, invalidRequest } from './rerank-error.js';
import { paramOf, type RequestParamNames } from './validate-request.js';
import type { RerankRequest } from './rerank-request.js';

/**
 * Bounds on the inputs whose cost is not already capped by the body size and document limits. Each
 * keeps one request's work linear in its size (and small): a request must never occupy the event loop
 * or a Lambda for its whole timeout.
 */
export const REQUEST_BOUNDS = {
  /** boost.terms: plenty for a keyword list; the matcher reads each text once whatever the count. */
  maxBoostTerms: 256,
  maxBoostTermChars: 200,
  /** boost.fields, and the dotted path each names. */
  maxBoostFields: 64,
  maxBoostFieldPathChars: 256,
  /** Cohere's max_chunks_per_doc: a 65,536-character document has at most ~110 windows of 300 words anyway. */
  maxChunksPerDoc: 1_000,
} as const;

function checkBoost(request: RerankRequest, names: RequestParamNames | undefined): void {
  const boost = request.boost;
  if (!boost) return;
  const BOOST_PARAM = paramOf(names, 'boost');
  const { maxBoostTerms, maxBoostTermChars, maxBoostFields, maxBoostFieldPathChars } = REQUEST_BOUNDS;
  if (boost.terms.length > maxBoostTerms) {
    throw invalidRequest(
      `${BOOST_PARAM}.terms has ${boost.terms.length} terms; at most ${maxBoostTerms} are accepted`,
      `${BOOST_PARAM}.terms`,
    );
  }
  const long = boost.terms.findIndex((t) => t.length > maxBoostTermChars);
  if (long >= 0) {
    throw invalidRequest(`${BOOST_PARAM}.terms[${long}] is longer than ${maxBoostTermChars} characters`, `${BOOST_PARAM}.terms[${long}]`);
  }
  if (boost.fields.length > maxBoostFields) {
    throw invalidRequest(
      `${BOOST_PARAM}.fields has ${boost.fields.length} rules; at most ${maxBoostFields} are accepted`,
      `${BOOST_PARAM}.fields`,
    );
  }
  const path = boost.fields.findIndex((f) => f.field.length > maxBoostFieldPathChars);
  if (path >= 0) {
    throw invalidRequest(
      `${BOOST_PARAM}.fields[${path}].field is longer than ${maxBoostFieldPathChars} characters`,
      `${BOOST_PARAM}.fields[${path}].field`,
    );
  }
}

/**
 * Checked once a request is parsed, before any work: the per-field bounds above, whatever runs the request.
 * Refusals name the domain field as the dialect spells it (`names`).
 */
export function enforceFieldBounds(request: RerankRequest, names?: RequestParamNames): void {
  checkBoost(request, names);
  const maxChunks = paramOf(names, 'maxChunksPerDoc');
  if (request.maxChunksPerDoc !== undefined && request.maxChunksPerDoc > REQUEST_BOUNDS.maxChunksPerDoc) {
    throw invalidRequest(`${maxChunks} must be at most ${REQUEST_BOUNDS.maxChunksPerDoc}`, maxChunks);
  }
}

/**
 * For a request that cannot be split into a queued job, the synchronous limits (RERANK_SYNC_MAX_DOCUMENTS/CHARS),
 * which otherwise only decide whether to queue. Past them such a request is refused with 413 rather than scored
 * for minutes.
 */
export function enforceSyncLimits(request: RerankRequest, limits: SyncLimits, names?: RequestParamNames): void {
  if (!needsQueuedJob(request, limits)) return;
  throw new RerankError(
    'payload_too_large',
    `this request cannot run as a job (${unqueueable(request, names).reason}) and is over the synchronous limits ` +
      `(${limits.syncMaxDocuments} documents, ${limits.syncMaxChars} characters of query + document text); send fewer or shorter ` +
      'documents, split over several requests',
  );
}
