import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficialSpec } from '../support/official-specs.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/**
 * TEI's rerank dialect on `/rerank` beside the OpenAI-compatible one, over a real server: the body decides the
 * dialect (`texts` = TEI), and TEI's answers validate against TEI's own OpenAPI document (test/fixtures/specs).
 */
const QUERY = 'python http library';
const TEXTS = [
  'urllib is a built-in Python library for HTTP requests',
  'The giant panda is a bear species endemic to China',
  'httpx is a modern async HTTP client',
];

let server: RunningServer;
let validate: (name: string, value: unknown) => string | undefined;

const post = async (body: unknown) => {
  const res = await fetch(`${server.url}/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

beforeAll(async () => {
  const tei = new OfficialSpec('tei-openapi.json');
  validate = (name, value) => tei.checkSchema(name, value);
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("TEI's dialect on /rerank", () => {
  it('answers GET /info with a valid TEI Info naming the default model and its token window', async () => {
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    expect(validate('Info', info)).toBeUndefined();
    // The dev server of these tests serves the fixture cross-encoder: a 512-token window.
    expect(info).toMatchObject({
      model_id: 'tinybert-l2-fixture',
      served_model_name: 'tinybert-l2-fixture',
      max_input_length: 512,
      model_type: { reranker: {} },
    });
    expect(info['units']).toEqual({ max_input_length: 'tokens', max_batch_tokens: 'characters' });
  });

  it("answers TEI's bare array of ranks, best first, valid against TEI's RerankResponse", async () => {
    const { status, body } = await post({ query: QUERY, texts: TEXTS, return_text: true });
    expect(status).toBe(200);
    expect(validate('RerankResponse', body)).toBeUndefined();
    const ranks = body as { index: number; score: number; text: string }[];
    expect(ranks.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i - 1]!.score).toBeGreaterThanOrEqual(ranks[i]!.score);
    for (const r of ranks) expect(r.text).toBe(TEXTS[r.index]);
    // raw_scores: the model's own scores (the default model's are calibrated already), in the same order.
    const raw = (await post({ query: QUERY, texts: TEXTS, raw_scores: true })).body as { index: number; score: number }[];
    expect(validate('RerankResponse', raw)).toBeUndefined();
    expect(raw.map((r) => r.index)).toEqual(ranks.map((r) => r.index));
    expect(raw.every((r) => Number.isFinite(r.score) && !('text' in r))).toBe(true);
  });

  it("answers the OpenAI-compatible body on the same path in OpenAI's shape, with the same ranking", async () => {
    const tei = (await post({ query: QUERY, texts: TEXTS })).body as { index: number; score: number }[];
    const { status, body } = await post({ query: QUERY, documents: TEXTS });
    expect(status).toBe(200);
    const results = (body as { results: { index: number; relevance_score: number }[] }).results;
    expect(results.map((r) => r.index)).toEqual(tei.map((r) => r.index));
    results.forEach((r, i) => expect(r.relevance_score).toBeCloseTo(tei[i]!.score, 9));
  });

  it("refuses a bad TEI body in TEI's error shape and status, and anything else in OpenAI's envelope", async () => {
    const bad = await post({ query: QUERY, texts: 'one text' });
    expect(bad.status).toBe(422);
    expect(validate('ErrorResponse', bad.body)).toBeUndefined();
    expect(bad.body).toMatchObject({ error_type: 'Validation', error: expect.stringContaining('texts') });
    // Left is applied (it keeps a text's end: truncation-side.golden.test.ts), never refused.
    const left = await post({ query: QUERY, texts: TEXTS, truncation_direction: 'Left' });
    expect(left.status).toBe(200);
    const tooLong = await post({ query: 'q'.repeat(9_000), texts: TEXTS });
    expect(tooLong.status).toBe(413);
    expect(tooLong.body).toMatchObject({ error_type: 'Validation' });
    // Neither body: the route's own (OpenAI) envelope, as before TEI was served here.
    for (const body of ['{"query": "q", "texts": [', { query: 'q' }]) {
      const other = await post(body);
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
  });

  it('is described in /openapi.json as one of the bodies on /rerank', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    expect(doc.paths['/rerank']!.post.requestBody.content['application/json']!.schema).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/OpenAiRerankRequest' },
        { $ref: '#/components/schemas/TeiRerankRequest' },
        { $ref: '#/components/schemas/BedrockRerankRequest' },
        { $ref: '#/components/schemas/PineconeRerankRequest' },
      ],
    });
  });
});
