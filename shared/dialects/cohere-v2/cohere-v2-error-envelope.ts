import type { RerankError } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';

/**
 * Cohere's API answers errors as `{"message": "..."}` (its SDKs raise on the status and carry the body);
 * OpenAI-style readers, ours included, read `error.message`. The body is the superset
 * `{"message", "error":{"message","type","param","code"}}`, so both find the same text.
 */
export function formatCohereV2Error(error: RerankError): DialectResponse {
  const openAi = formatOpenAiError(error);
  return { status: openAi.status, body: { message: error.publicMessage, ...(openAi.body as Record<string, unknown>) } };
}
