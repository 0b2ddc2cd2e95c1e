import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyFolder, loadFamilyGolden, LLM_RERANKER_FIXTURE, type LlmGolden } from '../unit/scoring/family-fixtures.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// The HTTP API serves each family's fixture with the relevance scores Python computes (family-golden.py).
const TOLERANCE = 1e-4;
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({
    RERANK_MODELS: [
      `xlmr=${familyFolder('xlmr-fixture')}`,
      `modernbert=${familyFolder('modernbert-fixture')}`,
      `two-label-sigmoid=${familyFolder('xlmr-2label-sigmoid-fixture')}`,
      `qwen3-reranker=${familyFolder(LLM_RERANKER_FIXTURE)}`,
    ].join(','),
  });
});

afterAll(async () => {
  await server?.stop();
});

async function post<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

type RerankBody = { results: { index: number; relevance_score: number }[] };

describe('reranker families through the HTTP API', () => {
  it.each([
    ['xlmr', 'xlmr-fixture'],
    ['modernbert', 'modernbert-fixture'],
    ['two-label-sigmoid', 'xlmr-2label-sigmoid-fixture'],
  ])('serves %s with sentence-transformers scores', async (model, fixture) => {
    // Arrange
    const golden = loadFamilyGolden(fixture);
    const query = golden.cases[0]!.query;
    const cases = golden.cases.filter((c) => c.query === query && c.tokens < 2000);

    // Act
    const res = await post<RerankBody>('/v1/rerank', { model, query, documents: cases.map((c) => c.document) });

    // Assert
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(cases.length);
    for (const r of res.body.results) expect(Math.abs(r.relevance_score - cases[r.index]!.score)).toBeLessThan(TOLERANCE);
  });

  it('serves the Qwen3-style LLM reranker as p(yes), with the default instruction and the request instruction', async () => {
    // Arrange
    const golden = loadFamilyGolden<LlmGolden>(LLM_RERANKER_FIXTURE);
    const plain = golden.cases.find((c) => c.name === 'relevant')!;
    const instructed = golden.cases.find((c) => c.name === 'custom-instruction')!;

    // Act: DashScope carries an instruction in parameters.instruct.
    const withDefault = await post<RerankBody>('/v1/rerank', { model: 'qwen3-reranker', query: plain.query, documents: [plain.document] });
    const withInstruction = await post<{ output: RerankBody }>('/api/v1/services/rerank/text-rerank/text-rerank', {
      model: 'qwen3-reranker',
      input: { query: instructed.query, documents: [instructed.document] },
      parameters: { instruct: instructed.instruction },
    });

    // Assert
    expect(withDefault.status).toBe(200);
    expect(Math.abs(withDefault.body.results[0]!.relevance_score - plain.score)).toBeLessThan(TOLERANCE);
    expect(withInstruction.status).toBe(200);
    expect(Math.abs(withInstruction.body.output.results[0]!.relevance_score - instructed.score)).toBeLessThan(TOLERANCE);
  });
});
