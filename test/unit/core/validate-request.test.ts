import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';

const NAMES = { query: 'query', documents: 'documents', batchSize: 'batch_size' };
const LIMITS = { maxDocuments: 3, maxBatchSize: 10, maxQueryChars: 5, maxDocumentChars: 4 };
const request = (query: string, docs: string[], truncate?: boolean): RerankRequest =>
  rerankRequest(
    query,
    docs.map((text) => ({ text })),
    truncate === undefined ? {} : { truncate },
  );

const errorOf = (fn: () => unknown): RerankError => {
  try {
    fn();
  } catch (e) {
    return e as RerankError;
  }
  throw new Error('expected an error');
};

describe('validateRerankRequest limits', () => {
  it('passes a request within limits through unchanged', () => {
    const r = request('abc', ['abcd', 'a']);
    expect(validateRerankRequest(r, NAMES, LIMITS)).toBe(r);
  });

  it('rejects too many documents with 400 naming the field, the limit and the route that takes more', () => {
    const e = errorOf(() => validateRerankRequest(request('q', ['a', 'b', 'c', 'd']), NAMES, LIMITS));
    expect(e.kind).toBe('invalid_request');
    expect(e.param).toBe('documents');
    expect(e.message).toBe(
      'documents has 4 documents; at most 3 are accepted in one request. For more, upload them as a file and submit a batch (POST /v1/files, then POST /v1/batches; docs/api.md, "Batches")',
    );
  });

  it('rejects a too-long query or document with 413 unless truncate is asked for', () => {
    const q = errorOf(() => validateRerankRequest(request('abcdef', ['a']), NAMES, LIMITS));
    expect([q.status, q.param]).toEqual([413, 'query']);
    const d = errorOf(() => validateRerankRequest(request('q', ['a', 'abcde']), NAMES, LIMITS));
    expect([d.status, d.param]).toEqual([413, 'documents[1]']);
  });

  it('cuts query and documents to the limits with truncate: true, keeping the rest', () => {
    const r = validateRerankRequest(request('abcdefgh', ['abcdefg', 'ab'], true), NAMES, LIMITS);
    expect(r.query).toBe('abcde');
    expect(r.documents.map((d) => d.text)).toEqual(['abcd', 'ab']);
  });

  it('rejects empty queries and empty document lists', () => {
    expect(errorOf(() => validateRerankRequest(request('  ', ['a']), NAMES, LIMITS)).param).toBe('query');
    expect(errorOf(() => validateRerankRequest(request('q', []), NAMES, LIMITS)).param).toBe('documents');
  });
});
