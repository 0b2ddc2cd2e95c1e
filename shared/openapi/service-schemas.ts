import type { JsonSchema } from '../dialects/json-schema.js';

/** Bodies of the routes that belong to no dialect: job polls, the model list, the health check. */

/** The 202 of a queued request and the body of `GET/DELETE /v1/rerank/jobs/{id}` (see jobView). */
export const jobViewSchema = (dialectNames: readonly string[], resultSchemas: readonly JsonSchema[]): JsonSchema => ({
  title: 'RerankJob',
  type: 'object',
  required: ['id', 'object', 'status', 'dialect', 'model', 'progress', 'created_at', 'updated_at', 'expires_at', 'poll_url'],
  properties: {
    id: { type: 'string' },
    object: { const: 'rerank.job' },
    status: { enum: ['running', 'succeeded', 'failed'] },
    dialect: { enum: dialectNames, description: 'The dialect the job was submitted in; its result is formatted in it.' },
    model: { type: 'string' },
    progress: {
      type: 'object',
      required: ['chunks_done', 'chunks_total'],
      properties: { chunks_done: { type: 'integer', minimum: 0 }, chunks_total: { type: 'integer', minimum: 0 } },
    },
    created_at: { type: 'number', description: 'Unix seconds.' },
    updated_at: { type: 'number', description: 'Unix seconds.' },
    expires_at: { type: 'number', description: 'Unix seconds; after it the job is gone (404).' },
    poll_url: { type: 'string', description: 'Where to poll, relative to the server.' },
    result: { anyOf: resultSchemas, description: "Once succeeded: the submitting dialect's normal response body, holding the results of `result_page`." },
    result_page: {
      type: 'object',
      required: ['offset', 'limit', 'total', 'next_offset'],
      properties: {
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 0 },
        total: { type: 'integer', minimum: 0 },
        next_offset: { type: ['integer', 'null'], description: 'Poll with `?offset=` this for the next page; null on the last.' },
      },
      description: 'Once succeeded: which slice of the sorted results `result` holds (as many as fit one answer).',
    },
    error: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' } },
      description: 'Once failed: why.',
    },
  },
});

export const modelListSchema = {
  title: 'ModelList',
  type: 'object',
  required: ['object', 'data'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'object'],
        properties: { id: { type: 'string' }, object: { const: 'model' }, created: { type: 'integer' }, owned_by: { type: 'string' } },
      },
      description: 'The served models; the first is the default.',
    },
  },
} as const satisfies JsonSchema;

export const healthSchema = {
  title: 'Health',
  type: 'object',
  required: ['status'],
  properties: { status: { const: 'ok' } },
} as const satisfies JsonSchema;
