import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import { activate, logOdds, resolveActivation, sigmoid } from '../../../shared/core/score-activation.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { nimDialect } from '../../../shared/dialects/nim/nim-dialect.js';
import { createFittedHybridScorer } from '../../../shared/scoring/hybrid/fitted-hybrid-scorer.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/bm25-scorer.js';

/** A port fake returning fixed scores of the given kind. */
const fixedScorer = (scores: number[], kind: Pick<Scorer, 'scoreKind' | 'calibrated'>): Scorer => ({
  id: 'fixed',
  ...kind,
  score: async () => ({ scores, tokens: 1 }),
});

describe('the logit activation (NVIDIA NIM answers logits)', () => {
  it('resolves to the logit scale for each kind of scorer: a logit as it is, a calibrated probability as its log-odds, a similarity as it is', () => {
    expect(resolveActivation('logit', { scoreKind: 'logit' })).toBe('none');
    expect(resolveActivation('logit', { scoreKind: 'similarity', calibrated: true })).toBe('logit');
    expect(resolveActivation('logit', { scoreKind: 'similarity' })).toBe('none');
    // Absent and explicit choices are unchanged.
    expect(resolveActivation(undefined, { scoreKind: 'logit' })).toBe('sigmoid');
    expect(resolveActivation(undefined, { scoreKind: 'similarity', calibrated: true })).toBe('none');
    expect(resolveActivation('sigmoid', { scoreKind: 'similarity' })).toBe('sigmoid');
  });

  it('log-odds undo the sigmoid and stay finite at 0 and 1', () => {
    for (const x of [-8, -1.5, 0, 0.25, 3, 12]) expect(logOdds(sigmoid(x))).toBeCloseTo(x, 6);
    expect(Number.isFinite(logOdds(0)) && logOdds(0) < -30).toBe(true);
    expect(Number.isFinite(logOdds(1)) && logOdds(1) > 30).toBe(true);
    expect(activate('logit', 0.5)).toBe(0);
    expect(
      normalizeResults([0.9, 0.1, 0.5], { activation: 'logit', topN: undefined, threshold: 0, documents: undefined }).map((r) => r.index),
    ).toEqual([0, 2]);
  });

  it("answers a calibrated model's probabilities on NIM's /v1/ranking as logits, a cross-encoder's logits unchanged", async () => {
    const body = { query: { text: 'q' }, passages: [{ text: 'a' }, { text: 'b' }] };
    const calibrated = new RerankService({
      catalog: { get: () => fixedScorer([0.2, 0.9], { scoreKind: 'similarity', calibrated: true }), ids: () => ['fixed'] },
    });
    const fromCalibrated = nimDialect.formatOutcome(await calibrated.rerank(nimDialect.parse(body)), { requestId: 'r', now: 0 }).body as {
      rankings: { index: number; logit: number }[];
    };
    expect(fromCalibrated.rankings.map((r) => r.index)).toEqual([1, 0]);
    expect(fromCalibrated.rankings[0]?.logit).toBeCloseTo(Math.log(0.9 / 0.1), 9);
    expect(fromCalibrated.rankings[1]?.logit).toBeCloseTo(Math.log(0.2 / 0.8), 9);

    const crossEncoder = new RerankService({
      catalog: { get: () => fixedScorer([-2.5, 1.25], { scoreKind: 'logit' }), ids: () => ['fixed'] },
    });
    const fromLogits = nimDialect.formatOutcome(await crossEncoder.rerank(nimDialect.parse(body)), { requestId: 'r', now: 0 }).body;
    expect(fromLogits).toEqual({
      rankings: [
        { index: 1, logit: 1.25 },
        { index: 0, logit: -2.5 },
      ],
    });
    // The same request elsewhere keeps its default (a sigmoid of the logit).
    const defaults = await crossEncoder.rerank(rerankRequest('q', [{ text: 'a' }, { text: 'b' }]));
    expect(defaults.results.map((r) => [r.index, r.score])).toEqual([
      [1, sigmoid(1.25)],
      [0, sigmoid(-2.5)],
    ]);
  });

  it('knows which shipped scorers give calibrated probabilities: the fitted hybrid and background BM25, not raw BM25', () => {
    const bm25 = createBm25Scorer({ id: 'bm25' });
    expect(bm25.calibrated).toBe(true);
    expect(createBm25Scorer({ id: 'raw', statistics: 'candidates' }).calibrated).toBe(false);
    expect(
      createFittedHybridScorer({ id: 'hybrid', model: fixedScorer([0.5], { scoreKind: 'similarity' }), lexical: bm25 }).calibrated,
    ).toBe(true);
  });
});
