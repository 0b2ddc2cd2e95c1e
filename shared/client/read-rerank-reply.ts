import { rankCandidates } from './rank-candidates.js';
import { RerankApiError, RerankResponseFormatError } from './rerank-client-errors.js';
import type { RerankMode } from './rerank-mode.js';
import type { RerankOptions, RerankResult } from './rerank-result.js';
import { readErrorEnvelope } from './read-error-envelope.js';

/**
 * A successful reply in `mode`'s dialect -> the unified result. A 2xx body that turns out to be an
 * error envelope (some gateways answer 200 with one) becomes a RerankApiError.
 */
export function readRerankReply(
  mode: RerankMode,
  body: unknown,
  documents: readonly string[] | undefined,
  options: Pick<RerankOptions, 'topK' | 'includeDocs' | 'threshold' | 'returnRaw'>,
  status = 200,
): RerankResult {
  let parsed;
  try {
    parsed = mode.parseReply(body, documents);
  } catch (error) {
    const envelope = error instanceof RerankResponseFormatError ? readErrorEnvelope(body) : undefined;
    if (envelope) throw new RerankApiError(envelope.message, { ...envelope.details, status, body }, { cause: error });
    throw error;
  }
  const results = rankCandidates(parsed.candidates, options);
  return { results, usage: parsed.usage, ...(options.returnRaw ? { raw: body } : {}) };
}
