import type { RerankError } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';
import { formatOpenAiError } from '../openai/openai-error-envelope.js';

/**
 * Llama Stack's server answers every failure as `{"error":{"detail": ...}}` (its global exception handler),
 * and llama-stack-client surfaces that body. OpenAI-style readers look for `error.message`. The error object
 * carries both, so either kind of client prints our message:
 * `{"error":{"detail","message","type","param","code"}}`.
 */
export function formatLlamaStackError(error: RerankError): DialectResponse {
  const openAi = formatOpenAiError(error);
  const inner = (openAi.body as { error: Record<string, unknown> }).error;
  return { status: openAi.status, body: { error: { detail: error.publicMessage, ...inner } } };
}
