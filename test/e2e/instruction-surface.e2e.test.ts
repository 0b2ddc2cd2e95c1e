import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankClient } from '../../shared/client/index.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// The instruction in every spelling reaches the LLM yes/no family's template (the Qwen3-style fixture): the scores
// equal those of the chat `prompt`, on the synchronous routes, as a queued job and as a batch line.
const MODELS = 'qwen=models/qwen3-reranker-fixture';
let server: RunningServer;

beforeAll(async () => {
  server = await startDevServer({ RERANK_MODELS: MODELS, RERANK_MAX_INSTRUCTION_CHARS: '200', RERANK_MAX_DOCUMENT_CHARS: '500' });
});

afterAll(async () => {
  await server?.stop();
});

const QUERY = 'capital cities';
const DOCUMENTS = ['Paris est la capitale de la France.', 'Berlin is the capital of Germany.', 'Rome is in Italy.'];
const INSTRUCTION = 'Judge whether the document is written in French';

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

type Ranked = { index: number; relevance_score?: number; score?: number }[];

/** Scores in input order, from any reply's list of `{index, relevance_score | score}`. */
const inInputOrder = (items: Ranked): number[] =>
  [...items].sort((a, b) => a.index - b.index).map((r) => (r.relevance_score ?? r.score) as number);

const ok = (reply: { status: number; body: Record<string, unknown> }) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

async function viaChatPrompt(prompt: string | undefined): Promise<number[]> {
  const content = JSON.stringify({ query: QUERY, candidates: DOCUMENTS, ...(prompt === undefined ? {} : { prompt }) });
  const body = ok(await post('/v1/chat/completions', { model: 'qwen', messages: [{ role: 'user', content }] }));
  const message = (body['choices'] as { message: { content: string } }[])[0]!.message.content;
  return inInputOrder((JSON.parse(message) as { results: Ranked }).results);
}

async function pollJob(location: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 1200; i++) {
    const job = (await (await fetch(`${server.url}${location}`)).json()) as { status: string; result?: Record<string, unknown> };
    if (job.status === 'succeeded') return job.result!;
    expect(job.status).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job did not end');
}

describe('instruction in every spelling (LLM yes/no family)', () => {
  it('/v1/rerank, /v2/rerank, /score, /v1/score, DashScope instruct and a queued job score as the chat prompt does', async () => {
    const [prompted, plain] = await Promise.all([viaChatPrompt(INSTRUCTION), viaChatPrompt(undefined)]);
    expect(prompted).not.toEqual(plain);

    const v1 = ok(await post('/v1/rerank', { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION }));
    const v2 = ok(await post('/v2/rerank', { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION }));
    const score = ok(await post('/score', { model: 'qwen', text_1: QUERY, text_2: DOCUMENTS, instruction: INSTRUCTION }));
    const v1Score = ok(await post('/v1/score', { model: 'qwen', queries: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION }));
    const dashScope = ok(
      await post('/api/v1/services/rerank/text-rerank/text-rerank', {
        model: 'qwen',
        input: { query: QUERY, documents: DOCUMENTS },
        parameters: { instruct: INSTRUCTION },
      }),
    );
    const accepted = await post(
      '/v1/rerank',
      { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION },
      { prefer: 'respond-async' },
    );
    expect(accepted.status).toBe(202);
    const job = await pollJob(accepted.headers.get('location')!);

    for (const scores of [
      inInputOrder(v1['results'] as Ranked),
      inInputOrder(v2['results'] as Ranked),
      inInputOrder(score['data'] as Ranked),
      inInputOrder(v1Score['data'] as Ranked),
      inInputOrder((dashScope['output'] as { results: Ranked }).results),
      inInputOrder(job['results'] as Ranked),
    ]) {
      scores.forEach((s, i) => expect(s).toBeCloseTo(prompted[i]!, 6));
    }
  });

  it('a batch line with an instruction scores as the chat prompt does (/v1/rerank and /v1/score lines)', async () => {
    const prompted = await viaChatPrompt(INSTRUCTION);
    const client = new RerankClient({ baseUrl: `${server.url}/v1`, mode: 'openai' });
    const lineBodies = {
      '/v1/rerank': { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION },
      '/v1/score': { model: 'qwen', text_1: QUERY, text_2: DOCUMENTS, instruction: INSTRUCTION },
    };
    for (const [endpoint, body] of Object.entries(lineBodies)) {
      const batch = await client.batches.create([{ custom_id: 'line', body }], { endpoint });
      const done = await client.batches.wait(batch, { initialDelayMs: 20 });
      expect(done.status).toBe('completed');
      for await (const [, line] of client.batches.results(done)) {
        const reply = (line as { response: { body: Record<string, unknown> } | null }).response;
        expect(reply, JSON.stringify(line)).not.toBeNull();
        const scores = inInputOrder((reply!.body['results'] ?? reply!.body['data']) as Ranked);
        scores.forEach((s, i) => expect(s).toBeCloseTo(prompted[i]!, 6));
      }
    }
  });

  it('bounds the instruction in every spelling by RERANK_MAX_INSTRUCTION_CHARS, naming the field as sent', async () => {
    const long = 'i'.repeat(201);
    const v1 = await post('/v1/rerank', { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: long });
    const score = await post('/score', { model: 'qwen', text_1: QUERY, text_2: DOCUMENTS, instruction: long });
    for (const reply of [v1, score]) {
      expect(reply.status).toBe(413);
      expect(JSON.stringify(reply.body)).toMatch(/instruction is 201 characters; the limit is 200/);
    }
  });
});

describe("Contextual AI's metadata on /v1/rerank", () => {
  it('is read with its document: the same scores as the metadata written before the text', async () => {
    const metadata = ['Source: a French newspaper', '', 'Date: 2021'];
    const withMetadata = ok(
      await post('/v1/rerank', {
        model: 'qwen',
        query: QUERY,
        documents: DOCUMENTS,
        metadata,
        instruction: INSTRUCTION,
        return_documents: true,
      }),
    );
    const inline = ok(
      await post('/v1/rerank', {
        model: 'qwen',
        query: QUERY,
        documents: DOCUMENTS.map((text, i) => (metadata[i] === '' ? text : `${metadata[i]}\n\n${text}`)),
        instruction: INSTRUCTION,
      }),
    );
    const plain = ok(await post('/v1/rerank', { model: 'qwen', query: QUERY, documents: DOCUMENTS, instruction: INSTRUCTION }));
    expect(inInputOrder(withMetadata['results'] as Ranked)).toEqual(inInputOrder(inline['results'] as Ranked));
    expect(inInputOrder(withMetadata['results'] as Ranked)).not.toEqual(inInputOrder(plain['results'] as Ranked));
    // Returned documents are the documents as sent, without their metadata.
    for (const r of withMetadata['results'] as { index: number; document: { text: string } }[]) {
      expect(r.document.text).toBe(DOCUMENTS[r.index]);
    }
  });

  it('refuses a list of another length than the documents, and a string longer than a document may be', async () => {
    const short = await post('/v1/rerank', { query: QUERY, documents: DOCUMENTS, metadata: ['a'] });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toMatch(/metadata has 1 items for 3 documents/);
    const long = await post('/v1/rerank', { query: QUERY, documents: DOCUMENTS, metadata: ['', 'm'.repeat(501), ''] });
    expect(long.status).toBe(413);
    expect(JSON.stringify(long.body)).toMatch(/metadata\[1\] is longer than 500 characters/);
  });
});
