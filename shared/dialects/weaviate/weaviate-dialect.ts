import type { RerankOutcome } from '../../core/rerank-outcome.js';
import type { RerankError } from '../../core/rerank-error.js';
import type { RerankRequest } from '../../core/rerank-request.js';
import { toRerankRequest } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { weaviateRequestFields } from './weaviate-request-fields.js';

const names = weaviateRequestFields.paramNames();

const responseSchema: JsonSchema = objectSchema(
  {
    query: { type: 'string' },
    scores: {
      type: 'array',
      description: 'One per document, in the order sent (Weaviate sorts them itself).',
      items: objectSchema({ document: { type: 'string' }, score: { type: 'number' } }),
    },
  },
  { title: 'WeaviateRerankResponse' },
);

/** The container's error body, `{error}`: Weaviate quotes it as `fail with status <code>: <error>`. */
const errorSchema: JsonSchema = objectSchema({ error: { type: 'string' } }, { title: 'WeaviateError' });

/**
 * Weaviate's `reranker-transformers` protocol, served under a prefix the operator sets (RERANK_WEAVIATE_PREFIX, CDK
 * `rerank:weaviatePrefix`): `POST {prefix}/rerank {query, documents}` -> `{query, scores: [{document, score}]}` in input
 * order, beside `GET {prefix}/meta` and `GET {prefix}/.well-known/ready`. Weaviate is pointed here by its
 * `RERANKER_INFERENCE_API` (`http://weaviate:<key>@host:3000/weaviate`: Go sends the URL's password as Basic auth).
 */
export const weaviateDialect: Dialect = {
  name: 'weaviate',
  paths: ['/rerank'],
  underPrefix: 'weaviate',
  // Weaviate's Go client sends its body with no Content-Type.
  jsonBodyAlsoAs: ['none'],
  keyPlacement:
    "put the key in Weaviate's reranker URL as its password, RERANKER_INFERENCE_API=http://weaviate:<key>@host:3000/weaviate (Weaviate sends it as Basic auth)",
  example: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS },
  requestSchema: weaviateRequestFields.schema,
  paramNames: () => names,
  // Every score is answered with its document.
  parse: (body) => toRerankRequest({ ...weaviateRequestFields.read(body).fields, returnDocuments: true }),
  responseSchema,
  errorSchema,

  formatOutcome(outcome: RerankOutcome, _context, request?: RerankRequest): DialectResponse {
    // Input order; a queued job's outcome carries each document's text when the request asked for them (it does).
    const byIndex = [...outcome.results].sort((a, b) => a.index - b.index);
    return {
      status: 200,
      body: {
        query: request?.query ?? '',
        scores: byIndex.map((r) => ({ document: r.document?.text ?? request?.documents[r.index]?.text ?? '', score: r.score })),
      },
    };
  },

  formatError: (error: RerankError): DialectResponse => ({ status: error.status, body: { error: error.publicMessage } }),
};
