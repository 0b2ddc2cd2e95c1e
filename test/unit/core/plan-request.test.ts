import { describe, expect, it } from 'vitest';
import { planRequest, type PlanInput } from '../../../shared/core/plan-request.js';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { ScoringTimedOutError } from '../../../shared/core/scoring-timed-out-error.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';
import type { Scorer, SplittableScorer } from '../../../shared/core/scorer.js';

// Fake Scorer ports: planning reads only their ids, kinds and whether their scores can be chunked.
const score: Scorer['score'] = async (_q, docs) => ({ scores: docs.map(() => 0), tokens: 0 });
const logit: Scorer = { id: 'ce', scoreKind: 'logit', score };
const lexical: Scorer = { id: 'bm25', scoreKind: 'similarity', candidateRelative: true, score };
const hybrid: SplittableScorer = {
  id: 'ce+bm25',
  scoreKind: 'similarity',
  candidateRelative: true,
  model: logit,
  fuse: async (_q, docs) => docs.map(() => 0),
  score,
};

const limits = { syncMaxDocuments: 3, syncMaxChars: 1_000, defaultBatchSize: 2 };
const docs = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `doc ${i}` }));

function plan(request: RerankRequest, scorer: Scorer, extra: Partial<PlanInput> = {}) {
  const resolved: (string | undefined)[] = [];
  const result = planRequest({
    request,
    limits,
    mode: 'auto',
    resolveScorer: (model) => {
      resolved.push(model);
      return scorer;
    },
    ...extra,
  });
  return { result, resolved };
}

describe('planRequest: latency "fast"', () => {
  it('scores a request within the synchronous limits now, even when the client prefers an async answer', () => {
    const fast = rerankRequest('q', docs(3), { latency: 'fast' });
    expect(plan(fast, logit, { preferAsync: true }).result).toMatchObject({ kind: 'sync' });
  });

  it('refuses one past the limits (documents, characters, the estimate) with a 413 naming "slow", where slow or none queues it', () => {
    const costly: Scorer = { ...logit, estimateSeconds: (_q, documents) => documents.length * 10 };
    const cases: [RerankRequest, Scorer][] = [
      [rerankRequest('q', docs(4), { latency: 'fast' }), logit],
      [rerankRequest('q', [{ text: 'x'.repeat(2_000) }], { latency: 'fast' }), logit],
      [rerankRequest('q', docs(1), { latency: 'fast' }), costly],
    ];
    for (const [request, scorer] of cases) {
      const error = (() => {
        try {
          plan(request, scorer, { limits: { ...limits, syncBudgetSeconds: 5 } });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(RerankError);
      expect((error as RerankError).status).toBe(413);
      expect((error as RerankError).message).toContain('latency "slow"');
      for (const latency of ['slow', undefined] as const) {
        const queued = plan({ ...request, latency }, scorer, { limits: { ...limits, syncBudgetSeconds: 5 } }).result;
        expect(queued.kind).toBe('job');
      }
    }
  });

  it('refuses it on the jobs route and in batch lines, which only queue', () => {
    const request = rerankRequest('q', docs(1), { latency: 'fast' });
    expect(() => plan(request, logit, { mode: 'job' })).toThrow(/latency "fast" .* never runs as a job/);
    expect(plan({ ...request, latency: 'slow' }, logit, { mode: 'job' }).result.kind).toBe('job');
  });
});

describe('planRequest', () => {
  it('scores a small request now', () => {
    expect(plan(rerankRequest('q', docs(3)), logit).result).toEqual({ kind: 'sync' });
  });

  it('queues a request over the sync limit, resolving the scorer once, with its default activation and batch size', () => {
    const { result, resolved } = plan(rerankRequest('q', docs(4), { model: 'ce' }), logit);
    expect(result).toEqual({ kind: 'job', respondAsync: false, job: { model: 'ce', activation: 'sigmoid', batchSize: 2 } });
    expect(resolved).toEqual(['ce']);
  });

  it('queues a small request when the client prefers an async answer, keeping its own activation and batch size', () => {
    const request = rerankRequest('q', docs(1), { activation: 'none', batchSize: 5 });
    expect(plan(request, logit, { preferAsync: true }).result).toEqual({
      kind: 'job',
      respondAsync: true,
      job: { model: 'ce', activation: 'none', batchSize: 5 },
    });
  });

  it('queues a small request its scorer estimates past the sync budget (a few long pairs on an LLM), and not otherwise', () => {
    const costly: Scorer = { ...logit, estimateSeconds: (_q, documents) => documents.length * 10 };
    const budget = { limits: { ...limits, syncBudgetSeconds: 15 } };
    expect(plan(rerankRequest('q', docs(2)), costly, budget).result).toMatchObject({ kind: 'job', respondAsync: false });
    expect(plan(rerankRequest('q', docs(1)), costly, budget).result).toEqual({ kind: 'sync' });
    // No estimate yet (nothing measured), or no budget: the document and character limits decide alone.
    expect(plan(rerankRequest('q', docs(2)), { ...logit, estimateSeconds: () => undefined }, budget).result).toEqual({ kind: 'sync' });
    expect(plan(rerankRequest('q', docs(2)), costly).result).toEqual({ kind: 'sync' });
  });

  it('chunks a splittable hybrid with its model and fuses at the merge', () => {
    expect(plan(rerankRequest('q', docs(4)), hybrid).result).toMatchObject({
      kind: 'job',
      job: { model: 'ce+bm25', fusion: { chunkModel: 'ce' } },
    });
  });

  it('answers candidate-relative scorers, strategies and non-queueable dialects now, whatever their size, saying why no job', () => {
    // The reason is what a sync deadline's 504 says instead of offering a job (ScoringTimedOutError).
    expect(plan(rerankRequest('q', docs(9)), lexical, { preferAsync: true }).result).toEqual({
      kind: 'sync',
      unqueueable: 'its model scores the whole set at once',
    });
    const boosted = plan(rerankRequest('q', docs(9), { strategy: 'boost' }), logit);
    expect(boosted.result).toEqual({ kind: 'sync', unqueueable: "its strategy 'boost' scores the whole set at once" });
    expect(boosted.resolved).toEqual([]);
    const rag = plan(rerankRequest('q', docs(9)), logit, { dialectQueueable: false });
    expect(rag.result).toEqual({ kind: 'sync', unqueueable: "this route's clients do not poll jobs" });
    expect(rag.resolved).toEqual([]);
  });

  it('a timed-out request is offered a job only when it could run as one', () => {
    expect(new ScoringTimedOutError(26_000, 30).message).toMatch(/send the request as a job/);
    const refused = new ScoringTimedOutError(26_000, 30, 'its model scores the whole set at once');
    expect(refused.message).not.toMatch(/respond-async/);
    expect(refused.message).toMatch(/cannot run as a job \(its model scores the whole set at once\): send fewer or shorter documents/);
  });

  it('refuses a job submission that cannot be chunked', () => {
    expect(() => plan(rerankRequest('q', docs(1)), lexical, { mode: 'job' })).toThrow(RerankError);
    expect(() => plan(rerankRequest('q', docs(1), { strategy: 'hybrid' }), logit, { mode: 'job' })).toThrow(/cannot run as a job/);
    expect(plan(rerankRequest('q', docs(1)), logit, { mode: 'job' }).result).toMatchObject({ kind: 'job', respondAsync: true });
  });
});
