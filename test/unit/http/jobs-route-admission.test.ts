import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { REQUEST_BOUNDS } from '../../../shared/core/request-bounds.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port: per-document scores, so every plain request may run as a job.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

async function submit(json: unknown) {
  const rt = testRuntime({ scorers: [lengthScorer] });
  const result = await rt.app.handle(apiGatewayEvent({ method: 'POST', path: '/v1/rerank/jobs', json }));
  return {
    status: result.statusCode,
    error: (JSON.parse(result.body as string) as { error?: { param: string | null; message: string } }).error,
  };
}

describe('POST /v1/rerank/jobs admits a request as the rerank route does', () => {
  it('names max_chunks_per_doc - the field the caller sent - when it keeps a request from running as a job', async () => {
    const refused = await submit({ query: 'q', documents: ['a', 'b'], max_chunks_per_doc: 3 });
    expect(refused.status).toBe(400);
    expect(refused.error?.param).toBe('max_chunks_per_doc');
    expect(refused.error?.message).toMatch(/max_chunks_per_doc/);
    expect(refused.error?.message).not.toMatch(/rerank_strategy/);
  });

  it('applies the per-field bounds of the rerank route: max_chunks_per_doc past its bound is refused for what it is', async () => {
    const over = await submit({ query: 'q', documents: ['a'], max_chunks_per_doc: REQUEST_BOUNDS.maxChunksPerDoc + 1 });
    expect(over.status).toBe(400);
    expect(over.error?.message).toMatch(new RegExp(`max_chunks_per_doc must be at most ${REQUEST_BOUNDS.maxChunksPerDoc}`));
  });

  it('applies the document and text limits of the rerank route (one over refused, at the bound accepted)', async () => {
    const rt = testRuntime({ scorers: [lengthScorer], limits: { maxDocuments: 20, maxQueryChars: 50 } });
    const post = async (json: unknown) =>
      (await rt.app.handle(apiGatewayEvent({ method: 'POST', path: '/v1/rerank/jobs', json }))).statusCode;
    expect(await post({ query: 'q', documents: Array.from({ length: 21 }, () => 'a') })).toBe(400);
    expect(await post({ query: 'q', documents: Array.from({ length: 20 }, () => 'a') })).toBe(202);
    expect(await post({ query: 'q'.repeat(51), documents: ['a'] })).toBe(413);
    expect(await post({ query: 'q'.repeat(50), documents: ['a'] })).toBe(202);
    expect(await post({ query: 'q', documents: ['a'] })).toBe(202);
  });
});
