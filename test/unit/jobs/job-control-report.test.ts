import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { decodeJobTask } from '../../../shared/engine/task-codec.js';
import type { ApiResult } from '../../../shared/http/pipeline/api-exchange.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime, type TestRuntime } from '../../support/test-runtime.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/**
 * A fake Scorer port (unit test) with a tokenizer of whitespace words: it applies max_tokens_per_doc and reports each
 * document it cut, as the ONNX scorers report theirs (indices its own call's: a chunk's).
 */
const wordCutting: Scorer = {
  id: 'words',
  scoreKind: 'similarity',
  controls: ['max_tokens_per_doc', 'max_tokens_per_query', 'truncation_side'],
  score: async (_query, documents, options) => {
    const cap = options?.maxDocumentTokens;
    const cuts: [number, number][] = [];
    const scores = documents.map((text, index) => {
      const words = text.split(/\s+/);
      if (cap !== undefined && words.length > cap) cuts.push([index, cap]);
      return Math.min(words.length, cap ?? Infinity) + index / 100;
    });
    return { scores, tokens: documents.length, ...(cuts.length > 0 ? { cuts: { documents: cuts } } : {}) };
  },
};

/** Reads whole texts (as BM25 or an upstream API does): no control is of use to it. */
const wholeTexts: Scorer = {
  id: 'whole',
  scoreKind: 'similarity',
  score: async (_query, documents) => ({ scores: documents.map((d) => d.length), tokens: documents.length }),
};

// Documents 1 and 4 are past 3 words; with two documents a chunk, document 4 is the first of the third chunk.
const DOCS = ['one two', 'one two three four five', 'one', 'two three', 'one two three four'];
const CUT = '1=3, 4=3';
const WARNINGS = ['document 1 truncated to 3 tokens', 'document 4 truncated to 3 tokens'];

/** The runtime with a worker on its queue, as npm start has: chunks, then the merge, on the job lane with the scorer. */
function runtime(scorer: Scorer): TestRuntime {
  const rt = testRuntime({ scorers: [scorer], plan: { defaultBatchSize: 2, syncMaxDocuments: 4 }, waitMs: 30_000 });
  const lane = rt.jobs.laneWith(() => scorer);
  rt.queue.consume(async (event) => {
    for (const record of event.Records) await lane.handle(decodeJobTask(record.body));
  });
  return rt;
}

const post = (rt: TestRuntime, path: string, json: unknown, headers: Record<string, string> = {}) =>
  rt.app.handle(apiGatewayEvent({ method: 'POST', path, json, headers }));

/** Polls a job until it has ended (the in-process queue runs its chunks and its merge meanwhile). */
async function ended(rt: TestRuntime, accepted: ApiResult): Promise<ApiResult> {
  expect(accepted.statusCode).toBe(202);
  const pollUrl = (JSON.parse(accepted.body as string) as { poll_url: string }).poll_url;
  for (let attempt = 0; attempt < 500; attempt++) {
    const poll = await rt.app.handle(apiGatewayEvent({ method: 'GET', path: pollUrl }));
    if ((JSON.parse(poll.body as string) as Loose)['status'] !== 'running') return poll;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`job at ${pollUrl} still running`);
}

const bodyOf = (result: ApiResult): Loose => JSON.parse(result.body as string) as Loose;

describe('a job reports what its model cut and which controls it left unused, as a synchronous answer does', () => {
  it('Prefer: respond-async, then the poll: x-rerank-truncated with request indices, and Cohere v2 meta.warnings in the result', async () => {
    const rt = runtime(wordCutting);
    const body = { model: 'words', query: 'q', documents: DOCS, max_tokens_per_doc: 3 };
    const poll = await ended(rt, await post(rt, '/v2/rerank', body, { prefer: 'respond-async' }));
    expect(bodyOf(poll)['status']).toBe('succeeded');
    expect(poll.headers?.['x-rerank-truncated']).toBe(CUT);
    expect(bodyOf(poll)['result']['meta']['warnings']).toEqual(WARNINGS);
    expect(poll.headers?.['x-rerank-unused-controls']).toBeUndefined();
    // The same request answered synchronously reports the same.
    const sync = await post(rt, '/v2/rerank', { ...body, documents: DOCS.slice(0, 4) });
    expect(sync.headers?.['x-rerank-truncated']).toBe('1=3');
  });

  it('a request past the synchronous limits, waited for on its route: the headers and meta.warnings of the answer', async () => {
    const rt = runtime(wordCutting);
    const answer = await post(rt, '/v2/rerank', { query: 'q', documents: DOCS, max_tokens_per_doc: 3 });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers?.['x-rerank-job-id']).toBeDefined();
    expect(answer.headers?.['x-rerank-truncated']).toBe(CUT);
    expect(bodyOf(answer)['meta']['warnings']).toEqual(WARNINGS);
  });

  it('POST /v1/rerank/jobs, then GET: x-rerank-truncated, and the warnings of the Cohere-shaped meta /v1/rerank answers', async () => {
    const rt = runtime(wordCutting);
    const poll = await ended(rt, await post(rt, '/v1/rerank/jobs', { query: 'q', documents: DOCS, max_tokens_per_doc: 3 }));
    expect(poll.headers?.['x-rerank-truncated']).toBe(CUT);
    expect(bodyOf(poll)['result']['meta']['warnings']).toEqual(WARNINGS);
  });

  it('an unused control: x-rerank-unused-controls on the poll and on the waited-for answer, and in Cohere meta.warnings', async () => {
    const rt = runtime(wholeTexts);
    const body = { query: 'q', documents: DOCS, max_tokens_per_doc: 3, priority: 5 };
    const poll = await ended(rt, await post(rt, '/v2/rerank', body, { prefer: 'respond-async' }));
    expect(poll.headers?.['x-rerank-unused-controls']).toBe('max_tokens_per_doc, priority');
    expect(poll.headers?.['x-rerank-truncated']).toBeUndefined();
    expect(bodyOf(poll)['result']['meta']['warnings']).toEqual([
      'max_tokens_per_doc is not used by model whole',
      'priority is not used by model whole',
    ]);
    const waited = await post(rt, '/v1/rerank', { query: 'q', documents: DOCS, max_tokens_per_doc: 3 });
    expect(waited.headers?.['x-rerank-job-id']).toBeDefined();
    expect(waited.headers?.['x-rerank-unused-controls']).toBe('max_tokens_per_doc');
  });
});
