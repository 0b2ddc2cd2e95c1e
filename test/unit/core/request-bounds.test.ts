import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { REQUEST_BOUNDS, enforceRequestBounds } from '../../../shared/core/request-bounds.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';

const limits = { syncMaxDocuments: 3, syncMaxChars: 1_000 };
const request = (overrides: Partial<RerankRequest> = {}): RerankRequest => {
  const { query = 'q', documents = [{ text: 'a' }, { text: 'b' }], ...options } = overrides;
  return rerankRequest(query, documents, options);
};

const refusal = (r: RerankRequest, queueable = false): RerankError => {
  try {
    enforceRequestBounds(r, limits, queueable);
  } catch (error) {
    expect(error).toBeInstanceOf(RerankError);
    return error as RerankError;
  }
  throw new Error('expected a refusal');
};

describe('enforceRequestBounds', () => {
  it('lets small requests through, queueable or not', () => {
    expect(() => enforceRequestBounds(request(), limits, false)).not.toThrow();
    expect(() => enforceRequestBounds(request({ strategy: 'boost', boost: { terms: ['a'], termWeight: 1, fields: [] } }), limits, false)).not.toThrow();
  });

  it('refuses too many or too long boost terms with 400 naming the field', () => {
    const many = refusal(request({ boost: { terms: Array.from({ length: REQUEST_BOUNDS.maxBoostTerms + 1 }, (_, i) => `t${i}`), termWeight: 1, fields: [] } }));
    expect([many.status, many.param]).toEqual([400, 'rerank_config.boost.terms']);
    const long = refusal(request({ boost: { terms: ['ok', 'x'.repeat(REQUEST_BOUNDS.maxBoostTermChars + 1)], termWeight: 1, fields: [] } }));
    expect([long.status, long.param]).toEqual([400, 'rerank_config.boost.terms[1]']);
    const fields = Array.from({ length: REQUEST_BOUNDS.maxBoostFields + 1 }, () => ({ field: 'a', value: 1, weight: 1 }));
    expect(refusal(request({ boost: { terms: [], termWeight: 1, fields } })).param).toBe('rerank_config.boost.fields');
  });

  it('bounds max_chunks_per_doc', () => {
    expect(refusal(request({ maxChunksPerDoc: REQUEST_BOUNDS.maxChunksPerDoc + 1 })).param).toBe('max_chunks_per_doc');
  });

  it('applies the synchronous limits to requests that cannot be queued, with 413', () => {
    const documents = Array.from({ length: 4 }, () => ({ text: 'd' }));
    expect(() => enforceRequestBounds(request({ documents }), limits, true)).not.toThrow();
    for (const overrides of [{ maxChunksPerDoc: 2 }, { strategy: 'boost' as const }, {}]) {
      const error = refusal(request({ documents, ...overrides }));
      expect(error.status).toBe(413);
      expect(error.message).toMatch(/cannot run as a job/);
    }
    const longText = refusal(request({ documents: [{ text: 'x'.repeat(2_000) }] }));
    expect(longText.status).toBe(413);
  });
});
