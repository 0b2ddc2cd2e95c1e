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

describe("running jobs held on the key's quota ledger by JobCoordinator.submit", () => {
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
    expect((await rt.quota.usage(record.keyId)).running_jobs).toBe(1);
    expect((await submit()).statusCode).toBe(429);
    expect((await rt.quota.usage(record.keyId)).running_jobs).toBe(1);

    await rt.jobs.cancel((JSON.parse(first.body as string) as { id: string }).id, record.keyId);
    expect((await rt.quota.usage(record.keyId)).running_jobs).toBe(0);
    expect((await submit()).statusCode).toBe(202);
  });

  it('holds the limit under parallel submits, and an Idempotency-Key retry holds the same job once', async () => {
    const rt = testRuntime({ scorers: [lengthScorer], open: false });
    const { key, record } = await rt.keys.create('two-jobs', { maxConcurrentJobs: 2 });
    const submit = (headers: Record<string, string> = {}) =>
      rt.app.handle(
        apiGatewayEvent({
          method: 'POST',
          path: '/v1/rerank',
          json: { query: 'q', documents: ['a', 'bb'] },
          headers: { authorization: `Bearer ${key}`, prefer: 'respond-async', ...headers },
        }),
      );
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => submit()))).map((r) => r.statusCode);
    expect(statuses.sort()).toEqual([202, 202, 429, 429, 429, 429, 429, 429]);
    expect((await rt.quota.usage(record.keyId)).running_jobs).toBe(2);

    const other = testRuntime({ scorers: [lengthScorer], open: false });
    const created = await other.keys.create('one-job', { maxConcurrentJobs: 1 });
    const retried = (
      await Promise.all(
        Array.from({ length: 4 }, () =>
          other.app.handle(
            apiGatewayEvent({
              method: 'POST',
              path: '/v1/rerank',
              json: { query: 'q', documents: ['a', 'bb'] },
              headers: { authorization: `Bearer ${created.key}`, prefer: 'respond-async', 'idempotency-key': 'same' },
            }),
          ),
        ),
      )
    ).map((r) => [r.statusCode, (JSON.parse(r.body as string) as { id?: string }).id]);
    expect(new Set(retried.map(([status]) => status))).toEqual(new Set([202]));
    expect(new Set(retried.map(([, id]) => id)).size).toBe(1);
    expect((await other.quota.usage(created.record.keyId)).running_jobs).toBe(1);
  });
});
