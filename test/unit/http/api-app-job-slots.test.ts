import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port: per-document scores, so every request may run as a job.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

describe('job slots taken by JobCoordinator.submit', () => {
  it('refuses a second running job of a one-job key with 429, and frees the slot when the job ends', async () => {
    const rt = testRuntime({ scorers: [lengthScorer], open: false });
    const { key, record } = await rt.keys.create('one-job', { maxConcurrentJobs: 1 });
    const submit = () =>
      rt.app.handle(
        apiGatewayEvent({
          method: 'POST',
          path: '/v1/rerank',
          json: { query: 'q', documents: ['a', 'bb'] },
          headers: { authorization: `Bearer ${key}`, prefer: 'respond-async' },
        }),
      );
    const first = await submit();
    expect(first.statusCode).toBe(202);
    expect(await rt.slots.inUse(record.keyId)).toBe(1);
    expect((await submit()).statusCode).toBe(429);
    expect(await rt.slots.inUse(record.keyId)).toBe(1);

    await rt.jobs.cancel((JSON.parse(first.body as string) as { id: string }).id, record.keyId);
    expect(await rt.slots.inUse(record.keyId)).toBe(0);
    expect((await submit()).statusCode).toBe(202);
  });
});
