import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { documentObject } from '../document-object.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatPineconeError } from './pinecone-error-envelope.js';
import { pineconeRequestFields } from './pinecone-request-fields.js';
import { pineconeErrorSchema, pineconeResponseSchema } from './pinecone-response-schema.js';

/** The API version `@pinecone-database/pinecone` 8.2 sends; any version is answered alike. */
const PINECONE_API_VERSION = '2026-04';

/** Pinecone's clients send its API version on every request, and their key as `Api-Key`; no other client on `/rerank` does. */
const isPineconeRequest = (header: (name: string) => string | undefined): boolean =>
  header('x-pinecone-api-version') !== undefined || (header('api-key') !== undefined && header('authorization') === undefined);

/**
 * Pinecone's inference rerank: `POST /rerank {model, query, documents, top_n, return_documents, rank_fields, parameters}`
 * -> `{model, data: [{index, score, document?}], usage: {rerank_units}}`, errors `{status, error: {code, message}}`. Its
 * body is Jina-like, so it is told apart on `/rerank` by its headers (`X-Pinecone-Api-Version`, `Api-Key`), before the
 * body is read: `@pinecone-database/pinecone` reaches it with `controllerHostUrl` set to the service.
 */
export const pineconeDialect: Dialect = {
  name: 'pinecone',
  paths: [],
  example: {
    model: 'bge-reranker-v2-m3',
    query: EXAMPLE_QUERY,
    documents: EXAMPLE_DOCUMENTS.map((text) => ({ text })),
    top_n: 2,
    return_documents: true,
  },
  exampleHeaders: { 'x-pinecone-api-version': PINECONE_API_VERSION },
  sharesPath: { path: '/rerank', claimsHeaders: isPineconeRequest },
  keyPlacement: "Pinecone's clients send the key as Api-Key: <key> (the client's apiKey)",
  ...declaredParse(pineconeRequestFields),
  responseSchema: pineconeResponseSchema,
  errorSchema: pineconeErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: {
        model: outcome.model,
        data: outcome.results.map((r) => ({
          index: r.index,
          score: r.score,
          ...(r.document ? { document: documentObject(r.document) } : {}),
        })),
        // Billing is not ours to do; Pinecone's clients read the field.
        usage: { rerank_units: 1 },
      },
    };
  },

  formatError: formatPineconeError,
};
