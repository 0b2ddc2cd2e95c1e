import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// An LLM reranker request with an instruction, big enough to fan out: every chunk task carries the instruction, so
// the queued job answers exactly what the synchronous path answers. (The Qwen3-style LLM reranker fixture.)
const MODELS = 'qwen=models/qwen3-reranker-fixture';
let sync: RunningServer;
let fanOut: RunningServer;

beforeAll(async () => {
  [sync, fanOut] = await Promise.all([
    startDevServer({ RERANK_MODELS: MODELS }),
    startDevServer({ RERANK_MODELS: MODELS, RERANK_SYNC_MAX_DOCUMENTS: '2', RERANK_DEFAULT_BATCH_SIZE: '2' }),
  ]);
});

afterAll(async () => {
  await Promise.all([sync?.stop(), fanOut?.stop()]);
});

const PATH = '/api/v1/services/rerank/text-rerank/text-rerank';
const documents = [
  'Paris est la capitale de la France.',
  'Berlin is the capital of Germany.',
  'Madrid es la capital de España.',
  'Rome is in Italy.',
  'Lisbonne est au Portugal.',
];
type Results = { index: number; relevance_score: number }[];
const send = (server: RunningServer, instruct: string | undefined, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ input: { query: 'capital cities', documents }, parameters: instruct === undefined ? {} : { instruct } }),
  });
const rerank = async (server: RunningServer, instruct?: string) => {
  const res = await send(server, instruct);
  return { status: res.status, results: ((await res.json()) as { output: { results: Results } }).output.results };
};

/** Submits with Prefer: respond-async (a 202 proves it became a job) and polls the job to its end. */
async function asJob(server: RunningServer, instruct: string): Promise<Results> {
  const accepted = await send(server, instruct, { prefer: 'respond-async' });
  expect(accepted.status).toBe(202);
  const location = accepted.headers.get('location')!;
  for (let i = 0; i < 600; i++) {
    const job = (await (await fetch(`${server.url}${location}`)).json()) as { status: string; result?: { output: { results: Results } } };
    if (job.status === 'succeeded') return job.result!.output.results;
    expect(job.status).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job did not end');
}

describe('an instructed LLM request as a queued job', () => {
  it('scores every chunk with the instruction: the same answer as the synchronous path', async () => {
    const instruct = 'Judge whether the document is written in French';
    const [direct, queued, plain] = await Promise.all([rerank(sync, instruct), asJob(fanOut, instruct), rerank(sync)]);
    expect(direct.status).toBe(200);
    expect(queued.map((r) => r.index)).toEqual(direct.results.map((r) => r.index));
    queued.forEach((r, i) => expect(r.relevance_score).toBeCloseTo(direct.results[i]!.relevance_score, 6));
    // The instruction mattered.
    expect(plain.results.map((r) => r.relevance_score)).not.toEqual(direct.results.map((r) => r.relevance_score));
  });
});
