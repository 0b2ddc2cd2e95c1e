import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { apiGatewayEvent } from '../support/event-factory.js';
import { loadInProcessApi, type InProcessApi } from './support/in-process-api.js';
import { nestedJsonText, rawJson, toJsonText } from './support/json-text.js';
import { propertyParams, propertyTimeoutMs } from './support/property-params.js';
import { validFields, wireBody } from './support/rerank-arbitraries.js';
import type { WireDialect } from './support/response-oracle.js';
import { DASHSCOPE_PATH, expectApiResponse } from './support/route-oracle.js';

/**
 * Regression (found by these properties, fixed in 4591fa1): a document object nesting a few thousand levels
 * deep was accepted (JSON.parse does not recurse), then echoing it back (`return_documents`) or storing it
 * for a job ran JSON.stringify out of stack: 500. Now: echoed when shallow, 400 in the envelope when deep.
 */
let api: InProcessApi;

beforeAll(async () => {
  api = await loadInProcessApi();
});

const cases: readonly { name: string; dialect: WireDialect; path: string; headers?: Record<string, string> }[] = [
  { name: 'OpenAI sync', dialect: 'openai', path: '/v1/rerank' },
  { name: 'DashScope sync', dialect: 'dashscope', path: DASHSCOPE_PATH },
  { name: 'POST /v1/rerank/jobs', dialect: 'openai', path: '/v1/rerank/jobs' },
  { name: 'chat with Prefer: respond-async', dialect: 'chat', path: '/v1/chat/completions', headers: { prefer: 'respond-async' } },
];

describe('deeply nested document objects with return_documents', () => {
  it.each(cases)(
    '$name: never a 5xx',
    async ({ dialect, path, headers }) => {
      const nesting = fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.constantFrom('array' as const, 'object' as const));
      await fc.assert(
        fc.asyncProperty(validFields, nesting, fc.nat(7), async (fields, [depth, kind], at) => {
          const documents = [...(fields.documents as unknown[])];
          documents[at % documents.length] = { text: 'nested', meta: rawJson(nestedJsonText(depth, kind)) };
          const request = { ...fields, documents, returnDocuments: true, docsKey: 'include_docs' as const };
          const event = apiGatewayEvent({ path, body: toJsonText(wireBody(dialect, request)), ...(headers ? { headers } : {}) });
          expectApiResponse(event, await api.app.handle(event));
        }),
        propertyParams(40),
      );
    },
    propertyTimeoutMs(),
  );
});
