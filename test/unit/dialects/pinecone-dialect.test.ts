import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { pineconeDialect } from '../../../shared/dialects/pinecone/pinecone-dialect.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { CONTEXT, expectInvalid, outcomeOf, type Json } from './dialect-test-helpers.js';

// The body `@pinecone-database/pinecone` 8.2 sends for inference.rerank (documents as objects, rank_fields ["text"]).
const body = (extra: Json = {}): Json => ({
  model: 'bge-reranker-v2-m3',
  query: 'Tell me about the tech company known as Apple',
  documents: [{ text: 'Apple is a popular fruit' }, { text: 'Apple Inc. makes the iPhone' }],
  top_n: 2,
  return_documents: true,
  rank_fields: ['text'],
  parameters: {},
  ...extra,
});

const read = (value: unknown) => {
  validateRequestBody(pineconeDialect.requestSchema, value);
  return pineconeDialect.parse(value);
};

const claims = (headers: Record<string, string>) => pineconeDialect.sharesPath?.claimsHeaders?.((name) => headers[name]) ?? false;

describe('pineconeDialect', () => {
  it('reads the SDK body: documents by their rank field, returned as sent; return_documents defaults to true', () => {
    const request = read(body());
    expect(request).toMatchObject({ model: 'bge-reranker-v2-m3', topN: 2, returnDocuments: true });
    expect(request.documents).toEqual([
      { text: 'Apple is a popular fruit', source: { text: 'Apple is a popular fruit' } },
      { text: 'Apple Inc. makes the iPhone', source: { text: 'Apple Inc. makes the iPhone' } },
    ]);
    expect(read(body({ return_documents: undefined })).returnDocuments).toBe(true);
    expect(read(body({ documents: ['a plain string'] })).documents).toEqual([
      { text: 'a plain string', source: { text: 'a plain string' } },
    ]);
  });

  it('scores one custom rank field as its value, several as field: value lines, and maps parameters.truncate', () => {
    expect(read(body({ documents: [{ id: 1, body: 'b' }], rank_fields: ['body'] })).documents[0]?.text).toBe('b');
    expect(read(body({ documents: [{ t: 'x', u: 'y' }], rank_fields: ['t', 'u'] })).documents[0]?.text).toBe('t: x\nu: y');
    expect(read(body({ parameters: { truncate: 'END' } })).truncate).toBe(true);
    expect(read(body({ parameters: { truncate: 'NONE' } })).truncate).toBe(false);
  });

  it('names the field at fault as Pinecone spells it', () => {
    expectInvalid(() => read(body({ documents: [{ id: 1 }], rank_fields: ['body'] })), 'documents[0].body');
    expectInvalid(() => read(body({ rank_fields: [] })), 'rank_fields');
    expectInvalid(() => read(body({ parameters: { truncate: 'START' } })), 'parameters.truncate');
  });

  it("is claimed on /rerank by Pinecone's headers only", () => {
    expect(claims({ 'x-pinecone-api-version': '2026-04', 'api-key': 'k' })).toBe(true);
    expect(claims({ 'api-key': 'k' })).toBe(true);
    expect(claims({ authorization: 'Bearer k' })).toBe(false);
    expect(claims({ authorization: 'Bearer k', 'api-key': 'k' })).toBe(false);
  });

  it('answers {model, data, usage.rerank_units} and errors {status, error: {code, message}}', () => {
    const request = read(body());
    const outcome = outcomeOf([{ index: 1, score: 0.9, document: request.documents[1]! }], 5, 'served');
    expect(pineconeDialect.formatOutcome(outcome, CONTEXT, request).body).toEqual({
      model: 'served',
      data: [{ index: 1, score: 0.9, document: { text: 'Apple Inc. makes the iPhone' } }],
      usage: { rerank_units: 1 },
    });
    expect(pineconeDialect.formatError(new RerankError('unauthorized', 'invalid API key'), CONTEXT)).toEqual({
      status: 401,
      body: { status: 401, error: { code: 'UNAUTHENTICATED', message: 'invalid API key' } },
    });
  });
});
