import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { ragToolDialect } from '../../../shared/dialects/rag-tool/rag-tool-dialect.js';

const scorer: Scorer = {
  id: 'm',
  scoreKind: 'similarity',
  score: (_q, documents) => Promise.resolve({ scores: documents.map(() => 0), tokens: 0 }),
};
const service = new RerankService({ catalog: createScorerRegistry([scorer]) });

const refusal = (work: () => unknown): RerankError => {
  try {
    work();
  } catch (error) {
    if (error instanceof RerankError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('RerankService names refused fields in the domain spelling', () => {
  it('names `upstream` and `strategy` itself, and the dialect spelling when the request says how its dialect spells them', () => {
    const llm = rerankRequest('q', [{ text: 'a' }], { strategy: 'llm_rerank' });
    const hybrid = rerankRequest('q', [{ text: 'a' }], { strategy: 'hybrid' });
    expect(refusal(() => service.scorerFor(llm)).param).toBe('upstream');
    expect(refusal(() => service.scorerFor(hybrid)).param).toBe('strategy');
    const names = ragToolDialect.paramNames(llm);
    expect(refusal(() => service.scorerFor(llm, names)).param).toBe('rerank_config.api_url');
    expect(refusal(() => service.scorerFor(hybrid, names)).param).toBe('rerank_strategy');
  });
});
