import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

// A fake Scorer port: the bound is checked before any scorer runs.
const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const MAX = 64;

async function post(path: string, json: unknown) {
  const rt = testRuntime({ scorers: [lengthScorer], limits: { maxInstructionChars: MAX } });
  const result = await rt.app.handle(apiGatewayEvent({ method: 'POST', path, json }));
  return { status: result.statusCode, body: JSON.parse(result.body as string) as Record<string, unknown> };
}

const chat = (prompt: string) => ({
  messages: [{ role: 'user', content: JSON.stringify({ query: 'q', candidates: ['a', 'b'], prompt }) }],
});
const dashScope = (instruct: string) => ({ input: { query: 'q', documents: ['a', 'b'] }, parameters: { instruct } });

describe('the LLM instruction is bounded (RERANK_MAX_INSTRUCTION_CHARS)', () => {
  it('chat prompt: at the bound scored, one past it a 413 naming prompt', async () => {
    expect((await post('/v1/chat/completions', chat('i'.repeat(MAX)))).status).toBe(200);
    const over = await post('/v1/chat/completions', chat('i'.repeat(MAX + 1)));
    expect(over.status).toBe(413);
    expect(over.body['error']).toMatchObject({ param: 'prompt', message: expect.stringMatching(`the limit is ${MAX}`) });
  });

  it('DashScope parameters.instruct: at the bound scored, one past it a 413 in its own envelope naming the field', async () => {
    const path = '/api/v1/services/rerank/text-rerank/text-rerank';
    expect((await post(path, dashScope('i'.repeat(MAX)))).status).toBe(200);
    const over = await post(path, dashScope('i'.repeat(MAX + 1)));
    expect(over.status).toBe(413);
    expect(over.body['message']).toMatch(/parameters\.instruct/);
  });
});
