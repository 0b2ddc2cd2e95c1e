import type { RerankError } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';
import { formatMessageAndOpenAiError } from '../openai/openai-error-envelope.js';

/** Cohere v2 errors: the same `{"message", "error":{...}}` superset as `/v1/rerank`, so Cohere and OpenAI readers both find the text. */
export function formatCohereV2Error(error: RerankError): DialectResponse {
  return formatMessageAndOpenAiError(error);
}
