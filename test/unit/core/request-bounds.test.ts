import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { REQUEST_BOUNDS, enforceFieldBounds, enforceSyncLimits } from '../../../shared/core/request-bounds.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';
import { ragToolDialect } from '../../../shared/dialects/rag-tool/rag-tool-dialect.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';

const limits = { syncMaxDocuments: 3, syncMaxChars: 1_000 };
const request = (overrides: Partial<RerankRequest> = {}): RerankRequest => {
  const { query = 'q', documents = [{ text: 'a' }, { text: 'b' }], ...options } = overrides;
  return rerankRequest(query, documents, options);
};
// The dialects that carry these fields spell them; the core names only the domain field.
const RAG = ragToolDialect.paramNames(request());
const OPENAI = openAiDialect.paramNames(request());

const refusal = (check: () => void): RerankError => {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(RerankError);
    return error as RerankError;
  }
  throw new Error('expected a refusal');
};

describe('enforceFieldBounds', () => {
  it('lets small requests through', () => {
    expect(() => enforceFieldBounds(request())).not.toThrow();
    expect(() => enforceFieldBounds(request({ strategy: 'boost', boost: { terms: ['a'], termWeight: 1, fields: [] } }), RAG)).not.toThrow();
  });

  it("refuses too many or too long boost terms with 400 naming the field in the dialect's spelling", () => {
    const many = refusal(() =>
      enforceFieldBounds(
        request({
          boost: { terms: Array.from({ length: REQUEST_BOUNDS.maxBoostTerms + 1 }, (_, i) => `t${i}`), termWeight: 1, fields: [] },
        }),
        RAG,
      ),
    );
    expect([many.status, many.param]).toEqual([400, 'rerank_config.boost.terms']);
    const long = refusal(() =>
      enforceFieldBounds(
        request({ boost: { terms: ['ok', 'x'.repeat(REQUEST_BOUNDS.maxBoostTermChars + 1)], termWeight: 1, fields: [] } }),
        RAG,
      ),
    );
    expect([long.status, long.param]).toEqual([400, 'rerank_config.boost.terms[1]']);
    const fields = Array.from({ length: REQUEST_BOUNDS.maxBoostFields + 1 }, () => ({ field: 'a', value: 1, weight: 1 }));
    expect(refusal(() => enforceFieldBounds(request({ boost: { terms: [], termWeight: 1, fields } }), RAG)).param).toBe(
      'rerank_config.boost.fields',
    );
  });

  it('bounds max_chunks_per_doc, named as the dialect that reads it spells it (the domain name without one)', () => {
    const over = request({ maxChunksPerDoc: REQUEST_BOUNDS.maxChunksPerDoc + 1 });
    expect(refusal(() => enforceFieldBounds(over, OPENAI)).param).toBe('max_chunks_per_doc');
    expect(refusal(() => enforceFieldBounds(over)).param).toBe('maxChunksPerDoc');
  });
});

describe('enforceSyncLimits', () => {
  it('refuses a request over the synchronous limits with 413 saying why it cannot be a job', () => {
    const documents = Array.from({ length: 4 }, () => ({ text: 'd' }));
    expect(() => enforceSyncLimits(request({ documents: documents.slice(0, 3) }), limits)).not.toThrow();
    for (const overrides of [{ maxChunksPerDoc: 2 }, { strategy: 'boost' as const }, {}]) {
      const error = refusal(() => enforceSyncLimits(request({ documents, ...overrides }), limits, OPENAI));
      expect(error.status).toBe(413);
      expect(error.message).toMatch(/cannot run as a job/);
    }
    expect(refusal(() => enforceSyncLimits(request({ documents: [{ text: 'x'.repeat(2_000) }] }), limits)).status).toBe(413);
  });
});
