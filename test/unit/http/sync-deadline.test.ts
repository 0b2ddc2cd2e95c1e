import { describe, expect, it } from 'vitest';
import type { Scorer, ScoreOptions } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Scores one document per "batch", yielding between batches and honouring the deadline as the model scorers do. */
function slowScorer(batchMs: number): Scorer & { batches: number } {
  const scorer = {
    id: 'slow',
    scoreKind: 'similarity' as const,
    batches: 0,
    async score(_query: string, documents: readonly string[], options?: ScoreOptions) {
      const scores: number[] = [];
      for (const document of documents) {
        options?.signal?.throwIfAborted();
        await sleep(batchMs);
        scorer.batches++;
        scores.push(document.length);
      }
      return { scores, tokens: 0 };
    },
  };
  return scorer;
}

const post = (body: unknown, path = '/v1/rerank') => apiGatewayEvent({ method: 'POST', path, body: JSON.stringify(body) });

describe('the synchronous scoring deadline', () => {
  it('answers 504 with the way out once scoring outlives it, and no batch starts after it', async () => {
    const scorer = slowScorer(10);
    const rt = testRuntime({ scorers: [scorer], syncTimeoutMs: 100 });
    const documents = Array.from({ length: 100 }, (_, i) => `document ${i}`);
    const result = await rt.app.handle(post({ query: 'q', documents }));
    expect(result.statusCode).toBe(504);
    const error = (JSON.parse(result.body as string) as { error: { message: string } }).error;
    expect(error.message).toMatch(/^scoring 100 documents did not finish within 0\.1 s and was stopped; send the request as a job/);
    const stoppedAt = scorer.batches;
    expect(stoppedAt).toBeLessThan(100);
    await sleep(100);
    expect(scorer.batches).toBeLessThanOrEqual(stoppedAt + 1); // at most the batch in flight finishes
  });

  it("answers in the dialect's own envelope (DashScope)", async () => {
    const rt = testRuntime({ scorers: [slowScorer(10)], syncTimeoutMs: 50 });
    const documents = Array.from({ length: 100 }, (_, i) => `document ${i}`);
    const result = await rt.app.handle(post({ input: { query: 'q', documents } }, '/api/v1/services/rerank/text-rerank/text-rerank'));
    expect(result.statusCode).toBe(504);
    expect(JSON.parse(result.body as string)).toMatchObject({ message: expect.stringContaining('did not finish within') });
  });

  it('leaves a request that finishes in time alone', async () => {
    const rt = testRuntime({ scorers: [slowScorer(1)], syncTimeoutMs: 5_000 });
    const result = await rt.app.handle(post({ query: 'q', documents: ['a', 'bb'] }));
    expect(result.statusCode).toBe(200);
  });
});
