import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port (unit test): longer documents score higher.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

describe('x-rerank-model on job answers', () => {
  it('names the served model on the 202 of a request that asked by an alias, and on every poll of its job', async () => {
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const accepted = await app.handle(
      apiGatewayEvent({
        method: 'POST',
        path: '/v2/rerank',
        json: { model: 'rerank-v3.5', query: 'q', documents: ['a', 'bb'] },
        headers: { prefer: 'respond-async' },
      }),
    );
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers?.['x-rerank-model']).toBe('length');

    const pollUrl = (JSON.parse(accepted.body as string) as { poll_url: string }).poll_url;
    const poll = await app.handle(apiGatewayEvent({ method: 'GET', path: pollUrl }));
    expect(poll.statusCode).toBe(200);
    expect(JSON.parse(poll.body as string)).toMatchObject({ status: 'running', model: 'length' });
    expect(poll.headers?.['x-rerank-model']).toBe('length');

    const cancelled = await app.handle(apiGatewayEvent({ method: 'DELETE', path: pollUrl }));
    expect(cancelled.headers?.['x-rerank-model']).toBe('length');
  });
});
