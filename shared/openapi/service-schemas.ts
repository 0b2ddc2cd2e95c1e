import type { JsonSchema } from '../dialects/json-schema.js';
import { objectSchema } from '../dialects/object-schema.js';

/** Bodies of the routes that belong to no dialect: job polls, the model list, the health check. */

/** The 202 of a queued request and the body of `GET/DELETE /v1/rerank/jobs/{id}` (see jobView). */
export const jobViewSchema = (dialectNames: readonly string[], resultSchemas: readonly JsonSchema[]): JsonSchema =>
  objectSchema(
    {
      id: { type: 'string' },
      object: { const: 'rerank.job' },
      status: { enum: ['running', 'succeeded', 'failed'] },
      dialect: { enum: dialectNames, description: 'The dialect the job was submitted in; its result is formatted in it.' },
      model: { type: 'string' },
      progress: objectSchema({ chunks_done: { type: 'integer', minimum: 0 }, chunks_total: { type: 'integer', minimum: 0 } }),
      created_at: { type: 'number', description: 'Unix seconds.' },
      updated_at: { type: 'number', description: 'Unix seconds.' },
      expires_at: { type: 'number', description: 'Unix seconds; after it the job is gone (404).' },
      poll_url: { type: 'string', description: 'Where to poll, relative to the server.' },
      result: {
        anyOf: resultSchemas,
        description: "Once succeeded: the submitting dialect's normal response body, holding the results of `result_page`.",
      },
      result_page: objectSchema(
        {
          offset: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: 0 },
          total: { type: 'integer', minimum: 0 },
          next_offset: { type: ['integer', 'null'], description: 'Poll with `?offset=` this for the next page; null on the last.' },
        },
        { description: 'Once succeeded: which slice of the sorted results `result` holds (as many as fit one answer).' },
      ),
      error: objectSchema(
        {
          message: { type: 'string' },
          code: { const: 'job_cancelled', description: 'Present when the job failed because it was cancelled (DELETE).' },
        },
        {
          optional: ['code'],
          description:
            'Once failed: why. A cancelled job reads `failed` with `code: "job_cancelled"` (a batch reads `cancelled`, OpenAI\'s word).',
        },
      ),
    },
    { title: 'RerankJob', optional: ['result', 'result_page', 'error'] },
  );

/** OpenAI's model object, with the names that reach a served model or the model an alias reaches. */
export const modelSchema: JsonSchema = objectSchema(
  {
    id: { type: 'string' },
    object: { const: 'model' },
    created: { type: 'integer' },
    owned_by: { type: 'string' },
    aliases: {
      type: 'array',
      items: { type: 'string' },
      description: "Other names a request may send for this model (hosted APIs' names; `RERANK_MODEL_ALIASES`).",
    },
    alias_of: { type: 'string', description: 'On an alias (`GET /v1/models/{id}`): the served model that scores it.' },
  },
  { title: 'Model', optional: ['created', 'owned_by', 'aliases', 'alias_of'] },
);

export const modelListSchema: JsonSchema = objectSchema(
  {
    object: { const: 'list' },
    data: { type: 'array', items: modelSchema, description: 'The served models, each with its aliases; the first is the default.' },
  },
  { title: 'ModelList' },
);

export const healthSchema: JsonSchema = objectSchema({ status: { const: 'ok' } }, { title: 'Health' });

const count = { type: 'integer', minimum: 0 } as const;

export const serviceInfoSchema = {
  title: 'ServiceInfo',
  type: 'object',
  description: "A valid TEI `Info` (TEI's fields), then every served model, the aliases and the request limits.",
  required: [
    'model_id',
    'model_dtype',
    'served_model_name',
    'model_type',
    'max_concurrent_requests',
    'max_input_length',
    'max_batch_tokens',
    'max_client_batch_size',
    'auto_truncate',
    'tokenization_workers',
    'version',
    'units',
    'models',
    'aliases',
    'limits',
    'features',
  ],
  properties: {
    model_id: { type: 'string', description: 'The default model.' },
    model_sha: { type: 'null' },
    model_dtype: { type: 'string' },
    served_model_name: { type: 'string' },
    model_type: {
      type: 'object',
      required: ['reranker'],
      properties: { reranker: { type: 'object', required: ['id2label', 'label2id'] } },
    },
    max_concurrent_requests: count,
    max_input_length: {
      ...count,
      description: "The default model's tokens per pair, or, for a default without a token window, the characters per document.",
    },
    max_batch_tokens: { ...count, description: 'Characters one synchronous request may carry (an upper bound on its tokens).' },
    max_client_batch_size: { ...count, description: 'Most documents one request may carry.' },
    auto_truncate: { type: 'boolean' },
    tokenization_workers: count,
    version: { type: 'string' },
    units: objectSchema(
      { max_input_length: { enum: ['tokens', 'characters'] }, max_batch_tokens: { const: 'characters' } },
      {
        description:
          "What TEI's token fields count here: `max_input_length` is tokens when the default model has a token window, characters otherwise; `max_batch_tokens` is characters.",
      },
    ),
    models: {
      type: 'array',
      items: objectSchema(
        {
          id: { type: 'string' },
          default: { type: 'boolean' },
          kind: { enum: ['model folder', 'lexical', 'hybrid'] },
          max_input_tokens: { type: ['integer', 'null'] },
          components: { type: 'array', items: { type: 'string' } },
        },
        { optional: ['components'] },
      ),
    },
    aliases: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Model names clients may send, and the served model each means.',
    },
    limits: { type: 'object', additionalProperties: count },
    features: objectSchema({ jobs: { const: true }, batches: { type: 'boolean' }, files: { type: 'boolean' } }),
  },
} as const satisfies JsonSchema;
