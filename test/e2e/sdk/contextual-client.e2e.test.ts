import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ContextualAI from 'contextual-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyCapped, toApiGatewayEvent, writeApiGatewayResult } from '../../../shared/http/node-http-adapter.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { testRuntime } from '../../support/test-runtime.js';
import { familyFolder, LLM_RERANKER_FIXTURE } from '../../unit/scoring/family-fixtures.js';

// Contextual AI's TypeScript client, unchanged but for its base URL, against the API served by a real HTTP server in
// this process, scoring with the LLM yes/no family (the Qwen3-style fixture): its `instruction` and `metadata` reach
// the model's template.
const KEY = 'key-contextual';
let scorer: Scorer;
let server: Server;
let origin: string;

beforeAll(async () => {
  scorer = await loadFolderScorer({ id: 'ctxl-rerank-v2-instruct-multilingual', folder: familyFolder(LLM_RERANKER_FIXTURE), threads: 1 });
  const rt = testRuntime({ scorers: [scorer], apiKeys: [KEY] });
  server = createServer((req, res) => {
    void (async () => {
      const body = (await readBodyCapped(req)) ?? Buffer.alloc(0);
      await writeApiGatewayResult(res, await rt.app.handle(toApiGatewayEvent(req, body)));
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((done) => server.close(done));
  await scorer?.close?.();
});

const QUERY = 'capital cities';
const DOCUMENTS = ['Paris est la capitale de la France.', 'Berlin is the capital of Germany.', 'Rome is in Italy.'];
const INSTRUCTION = 'Prefer documents written in French; more recent ones first.';
const METADATA = ['Date: 2024-01-02', '', 'Date: 1999-05-06'];

/** Our answer to the same body, over plain HTTP: what the SDK must report. */
async function direct(body: Record<string, unknown>): Promise<{ index: number; relevance_score: number }[]> {
  const res = await fetch(`${origin}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { index: number; relevance_score: number }[] }).results;
}

describe('contextual-client rerank.create (POST /v1/rerank)', () => {
  it('ranks with instruction and metadata, as the API answers the same body', async () => {
    const client = new ContextualAI({ apiKey: KEY, baseURL: `${origin}/v1` });
    const params = {
      model: 'ctxl-rerank-v2-instruct-multilingual',
      query: QUERY,
      documents: DOCUMENTS,
      instruction: INSTRUCTION,
      metadata: METADATA,
      top_n: 2,
    };

    const reply = await client.rerank.create(params);

    expect(reply.results).toEqual(await direct(params));
    expect(reply.results).toHaveLength(2);
    const plain = await direct({ query: QUERY, documents: DOCUMENTS });
    const scoreOf = (results: { index: number; relevance_score: number }[], index: number) =>
      results.find((r) => r.index === index)?.relevance_score;
    // The instruction and the metadata reach the model: the scores move.
    expect(scoreOf(reply.results, reply.results[0]!.index)).not.toBe(scoreOf(plain, reply.results[0]!.index));
  });

  it('metadata alone changes the scores of the documents that carry it, and only those', async () => {
    const client = new ContextualAI({ apiKey: KEY, baseURL: `${origin}/v1` });
    const base = { model: 'ctxl-rerank-v2-instruct-multilingual', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION };

    const [withMetadata, without] = await Promise.all([client.rerank.create({ ...base, metadata: METADATA }), client.rerank.create(base)]);

    const byIndex = (results: { index: number; relevance_score: number }[]) =>
      [...results].sort((a, b) => a.index - b.index).map((r) => r.relevance_score);
    const [a, b] = [byIndex(withMetadata.results), byIndex(without.results)];
    expect(a[0]).not.toBe(b[0]);
    expect(a[1]).toBe(b[1]);
    expect(a[2]).not.toBe(b[2]);
  });

  it("surfaces a refused metadata list in the SDK's error type", async () => {
    const client = new ContextualAI({ apiKey: KEY, baseURL: `${origin}/v1`, maxRetries: 0 });

    const error = await client.rerank
      .create({ model: 'ctxl-rerank-v2-instruct-multilingual', query: QUERY, documents: DOCUMENTS, metadata: ['one'] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    expect(error).toBeInstanceOf(ContextualAI.APIError);
    expect((error as InstanceType<typeof ContextualAI.APIError>).status).toBe(400);
    expect(String((error as Error).message)).toMatch(/metadata has 1 items for 3 documents/);
  });
});
