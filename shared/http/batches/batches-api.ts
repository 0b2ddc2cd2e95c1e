import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Caller } from '../../auth/caller.js';
import type { BatchEngine } from '../../batches/batch-engine.js';
import { parseCreateBatchBody } from '../../batches/create-batch-input.js';
import { RerankError, invalidRequest } from '../../core/rerank-error.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../../engine/idempotency-key.js';
import { batchObject } from './batch-object.js';

export type BatchesOperation = 'create' | 'list' | 'get' | 'cancel';

export interface BatchesRequest {
  readonly event: APIGatewayProxyEventV2;
  readonly caller: Caller;
  readonly params: Readonly<Record<string, string>>;
  /** The JSON body, read with the API's body limit and content-type rule. */
  readonly readBody: () => unknown;
  readonly header: (name: string) => string | undefined;
}

/** OpenAI's list page bounds (`limit` 1..100, default 20). */
const LIST_LIMIT = { default: 20, max: 100 } as const;

const json = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function listLimit(raw: string | undefined): number {
  if (raw === undefined) return LIST_LIMIT.default;
  const limit = Number(raw);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMIT.max)
    throw invalidRequest(`limit must be an integer from 1 to ${LIST_LIMIT.max}`, 'limit');
  return limit;
}

/** `/v1/batches`: create, retrieve, cancel, list, as the official OpenAI SDKs call them. */
export class BatchesApi {
  readonly #engine: BatchEngine;

  constructor(engine: BatchEngine) {
    this.#engine = engine;
  }

  async handle(operation: BatchesOperation, request: BatchesRequest): Promise<APIGatewayProxyStructuredResultV2> {
    const owner = request.caller.keyId;
    switch (operation) {
      case 'create': {
        const input = parseCreateBatchBody(request.readBody());
        const idempotencyKey = parseIdempotencyKey(request.header(IDEMPOTENCY_HEADER));
        const bounds = { maxQueuedPairs: request.caller.maxQueuedPairs };
        return json(200, batchObject(await this.#engine.create(owner, input, idempotencyKey, bounds)));
      }
      case 'get': {
        const id = request.params['id'] ?? '';
        const view = await this.#engine.find(id, owner);
        if (!view) throw new RerankError('not_found', `no batch '${id}' (batches are visible only to the key that created them)`);
        return json(200, batchObject(view));
      }
      case 'cancel':
        return json(200, batchObject(await this.#engine.cancel(request.params['id'] ?? '', owner)));
      case 'list': {
        const query = request.event.queryStringParameters ?? {};
        const after = query['after'];
        const { views, hasMore } = await this.#engine.list(owner, { limit: listLimit(query['limit']), ...(after ? { after } : {}) });
        const data = views.map(batchObject);
        const ends = views.length > 0 ? { first_id: views[0]?.batch.id, last_id: views.at(-1)?.batch.id } : {};
        return json(200, { object: 'list', data, ...ends, has_more: hasMore });
      }
    }
  }
}
