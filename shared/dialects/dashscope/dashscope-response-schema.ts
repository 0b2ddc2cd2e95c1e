import type { JsonSchema } from '../json-schema.js';
import { RANKED_RESULT } from '../openai/openai-response-schema.js';

export const dashScopeResponseSchema = {
  title: 'DashScopeRerankResponse',
  type: 'object',
  required: ['output', 'usage', 'request_id'],
  properties: {
    output: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: RANKED_RESULT } } },
    usage: { type: 'object', required: ['total_tokens'], properties: { total_tokens: { type: 'integer' } } },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;

/** `{"code","message","request_id"}` with DashScope's codes (InvalidParameter, InvalidApiKey, Throttling...). */
export const dashScopeErrorSchema = {
  title: 'DashScopeError',
  type: 'object',
  required: ['code', 'message', 'request_id'],
  properties: {
    code: { type: 'string', examples: ['InvalidParameter', 'InvalidApiKey', 'NotFound', 'RequestTooLarge', 'Throttling', 'InternalError'] },
    message: { type: 'string' },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;
