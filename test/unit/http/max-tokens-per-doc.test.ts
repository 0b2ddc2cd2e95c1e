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

  it('cuts documents to that many words for a scorer without a tokenizer (BM25, bi-encoders)', async () => {
    const scorer = recordingScorer(false);
    await testRuntime({ scorers: [scorer] }).app.handle(cohere({ query: 'q', documents: DOCS, max_tokens_per_doc: 3 }));
    expect(scorer.seen[0]?.documents).toEqual(['one two three', 'six seven']);
    expect(scorer.seen[0]?.options?.maxDocumentTokens).toBeUndefined();
  });
});
