import { describe, expect, it } from 'vitest';
import type { Scorer, ScoreOptions } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

/** Records what it was asked to score. */
function recordingScorer(countsTokens: boolean): Scorer & { seen: { documents: readonly string[]; options?: ScoreOptions }[] } {
  const scorer = {
    id: 'recording',
    scoreKind: 'similarity' as const,
    countsTokens,
    seen: [] as { documents: readonly string[]; options?: ScoreOptions }[],
    async score(_query: string, documents: readonly string[], options?: ScoreOptions) {
      scorer.seen.push({ documents, ...(options ? { options } : {}) });
      return { scores: documents.map((d) => d.length), tokens: 0 };
    },
  };
  return scorer;
}

const cohere = (body: unknown) => apiGatewayEvent({ method: 'POST', path: '/v2/rerank', body: JSON.stringify(body) });
const DOCS = ['one two three four five', 'six seven'];

describe('Cohere v2 max_tokens_per_doc', () => {
  it('hands a scorer with its own tokenizer the whole documents and the token budget', async () => {
    const scorer = recordingScorer(true);
    const result = await testRuntime({ scorers: [scorer] }).app.handle(
      cohere({ query: 'q', documents: DOCS, max_tokens_per_doc: 3, return_documents: true }),
    );
    expect(result.statusCode).toBe(200);
    expect(scorer.seen[0]?.documents).toEqual(DOCS);
    expect(scorer.seen[0]?.options?.maxDocumentTokens).toBe(3);
    // The returned documents are the ones sent.
    const results = (JSON.parse(result.body as string) as { results: { index: number; document: { text: string } }[] }).results;
    for (const r of results) expect(r.document.text).toBe(DOCS[r.index]);
  });

  it('leaves documents whole for a scorer without a tokenizer (BM25) and reports the control unused', async () => {
    const scorer = recordingScorer(false);
    const result = await testRuntime({ scorers: [scorer] }).app.handle(
      cohere({ query: 'q', documents: DOCS, max_tokens_per_doc: 3, max_tokens_per_query: 1, truncation_side: 'left' }),
    );
    expect(result.statusCode).toBe(200);
    expect(scorer.seen[0]?.documents).toEqual(DOCS);
    expect(scorer.seen[0]?.options?.maxDocumentTokens).toBeUndefined();
    expect(result.headers?.['x-rerank-unused-controls']).toBe('max_tokens_per_doc, max_tokens_per_query, truncation_side');
    const meta = (JSON.parse(result.body as string) as { meta: { warnings: string[] } }).meta;
    expect(meta.warnings).toContain('max_tokens_per_doc is not used by model recording');
  });

  it('reports what a scorer cut in x-rerank-truncated and in meta.warnings', async () => {
    const cutting: Scorer = {
      id: 'cutting',
      scoreKind: 'similarity',
      controls: ['max_tokens_per_doc'],
      score: async (_q, documents) => ({ scores: documents.map((d) => d.length), tokens: 0, cuts: { documents: [[0, 3]] } }),
    };
    const result = await testRuntime({ scorers: [cutting] }).app.handle(cohere({ query: 'q', documents: DOCS, max_tokens_per_doc: 3 }));
    expect(result.headers?.['x-rerank-truncated']).toBe('0=3');
    expect(result.headers?.['x-rerank-unused-controls']).toBeUndefined();
    const meta = (JSON.parse(result.body as string) as { meta: { warnings: string[] } }).meta;
    expect(meta.warnings).toEqual(['document 0 truncated to 3 tokens']);
  });
});
