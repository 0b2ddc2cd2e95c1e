import { describe, expect, it } from 'vitest';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { CHUNK_WORDS } from '../../../shared/core/split-long-documents.js';
import { cohereSearchUnits } from '../../../shared/dialects/cohere-search-units.js';
import { cohereV2Dialect } from '../../../shared/dialects/cohere-v2/cohere-v2-dialect.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
import { CONTEXT, outcomeOf } from './dialect-test-helpers.js';

/** A port fake: scores a text by its length, and counts the texts it was asked to score. */
function countingScorer(): Scorer & { scored: number } {
  const scorer = {
    id: 'counting',
    scoreKind: 'logit' as const,
    scored: 0,
    async score(_query: string, documents: readonly string[]) {
      scorer.scored += documents.length;
      return { scores: documents.map((d) => d.length / 1000), tokens: documents.length };
    },
  };
  return scorer;
}

const serviceWith = (scorer: Scorer) => new RerankService({ catalog: { get: () => scorer, ids: () => [scorer.id] } });

const docs = (n: number, words = 3) => Array.from({ length: n }, (_, i) => ({ text: `document ${i} ${'word '.repeat(words)}` }));

describe("Cohere's billed search units", () => {
  it('one per query and every started 100 documents (cohere.com/pricing), at least one', () => {
    const units = (pairs: number) => cohereSearchUnits({ ...outcomeOf([], 0), usage: { totalTokens: 0, pairs } });
    expect([0, 1, 100, 101, 200, 250, 1000].map(units)).toEqual([1, 1, 1, 2, 2, 3, 10]);
  });

  it('counts each chunk of a document split by max_chunks_per_doc as a document, as Cohere does', async () => {
    const scorer = countingScorer();
    // 60 documents of 2.5 windows: 3 chunks each when up to 3 are allowed = 180 scored texts = 2 units.
    const long = docs(60, Math.floor(CHUNK_WORDS * 2.5));
    const outcome = await serviceWith(scorer).rerank(rerankRequest('q', long, { maxChunksPerDoc: 3, topN: 1 }));
    expect(outcome.usage.pairs).toBe(scorer.scored);
    expect(scorer.scored).toBe(180);
    expect(openAiDialect.formatOutcome(outcome, CONTEXT).body).toMatchObject({
      meta: { api_version: { version: '1' }, billed_units: { search_units: 2 } },
    });
    // Without chunking the same 60 documents are one unit, whatever top_n keeps.
    const whole = await serviceWith(countingScorer()).rerank(rerankRequest('q', long, { topN: 1 }));
    expect(whole.usage.pairs).toBe(60);
    expect(cohereV2Dialect.formatOutcome(whole, CONTEXT).body).toMatchObject({
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    });
  });

  it('counts the documents, not the results top_n kept: from the outcome, else the request (a batch line), else the results', async () => {
    const outcome = await serviceWith(countingScorer()).rerank(rerankRequest('q', docs(250), { topN: 3 }));
    expect(outcome.results).toHaveLength(3);
    expect(cohereV2Dialect.formatOutcome(outcome, CONTEXT).body).toMatchObject({ meta: { billed_units: { search_units: 3 } } });
    const unrecorded = outcomeOf([{ index: 0, score: 1 }], 1);
    expect(cohereSearchUnits(unrecorded, rerankRequest('q', docs(150)))).toBe(2);
    expect(cohereSearchUnits(unrecorded)).toBe(1);
  });
});
