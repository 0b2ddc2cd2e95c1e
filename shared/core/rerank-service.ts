import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { normalizeResults } from './normalize-results.js';
import { RerankError, invalidRequest } from './rerank-error.js';
import type { RerankOutcome } from './rerank-outcome.js';
import type { RerankRequest, ScoreActivation } from './rerank-request.js';
import type { ScorerCatalog } from './scorer-catalog.js';
import type { Scorer } from '../scoring/scorer.js';

/** Logits become [0,1] scores like hosted APIs return; similarities are already comparable. */
export const defaultActivation = (scorer: Pick<Scorer, 'scoreKind'>): ScoreActivation =>
  scorer.scoreKind === 'logit' ? 'sigmoid' : 'none';

export interface RerankServiceDeps {
  readonly catalog: ScorerCatalog;
  readonly newId?: () => string;
}

/** The synchronous path: score now, normalize, return. Knows neither HTTP nor AWS. */
export class RerankService {
  readonly #catalog: ScorerCatalog;
  readonly #newId: () => string;

  constructor(deps: RerankServiceDeps) {
    this.#catalog = deps.catalog;
    this.#newId = deps.newId ?? randomUUID;
  }

  resolveScorer(model: string | undefined): Scorer {
    const ids = this.#catalog.ids();
    if (model !== undefined && !ids.includes(model)) {
      throw invalidRequest(`model '${model}' is not served here; available models: ${ids.join(', ')}`, 'model');
    }
    return this.#catalog.get(model);
  }

  async rerank(request: RerankRequest): Promise<RerankOutcome> {
    const started = performance.now();
    const scorer = this.resolveScorer(request.model);
    let batch;
    try {
      batch = await scorer.score(request.query, request.documents.map((d) => d.text));
    } catch (error) {
      throw new RerankError('internal', `scorer '${scorer.id}' failed`, { cause: error });
    }
    const scored = performance.now();
    const results = normalizeResults(batch.scores, {
      activation: request.activation ?? defaultActivation(scorer),
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });
    return {
      id: this.#newId(),
      model: scorer.id,
      results,
      usage: { totalTokens: batch.tokens },
      timings: { scoringMs: scored - started, totalMs: performance.now() - started },
    };
  }
}
