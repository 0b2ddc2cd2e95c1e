import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { openAiBatchSchemaErrors } from '../../support/openai-batch-schemas.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/** A fake Scorer port (unit test) whose tokens are whitespace words: it applies max_tokens_per_doc and reports its cuts. */
const wordCutting: Scorer = {
  id: 'words',
  scoreKind: 'similarity',
  controls: ['max_tokens_per_doc', 'max_tokens_per_query', 'truncation_side'],
  score: async (query, documents, options) => {
    const cap = options?.maxDocumentTokens;
    const cuts: [number, number][] = [];
    const scores = documents.map((text, index) => {
      const words = text.split(/\s+/);
      if (cap !== undefined && words.length > cap) cuts.push([index, cap]);
      return words.slice(0, cap).filter((word) => query.includes(word)).length;
    });
    return { scores, tokens: documents.length, ...(cuts.length > 0 ? { cuts: { documents: cuts } } : {}) };
  },
};

// Long enough that a line is cut into several chunks (the test runtime's chunk cost is 40): the cut documents sit in
// later chunks too, so their indices must be the line's, not a chunk's.
const DOCS = Array.from({ length: 12 }, (_, i) => (i % 3 === 1 ? `python http library number ${i} with more words` : `python ${i}`));
const WARNINGS = [1, 4, 7, 10].map((i) => `document ${i} truncated to 3 tokens`);

const A = keyIdOf('key-a');
const auth = { authorization: 'Bearer key-a' };
const line = (customId: string, body: unknown, url: string) => JSON.stringify({ custom_id: customId, method: 'POST', url, body });

async function call(rt: BatchTestRuntime, method: string, path: string, json?: unknown): Promise<{ body: Loose }> {
  const response = await rt.app.handle(apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: auth }));
  return { body: JSON.parse(response.body as string) as Loose };
}

/** Runs a one-route batch to its end and answers its output lines by custom_id, each checked against BatchRequestOutput. */
async function runBatch(rt: BatchTestRuntime, endpoint: string, lines: string[]): Promise<Map<string, Loose>> {
  const file = await rt.files.put(A, 'in.jsonl', 'batch', lines.join('\n') + '\n');
  const created = await call(rt, 'POST', '/v1/batches', { input_file_id: file.id, endpoint, completion_window: '24h' });
  await rt.queue.run();
  const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
  expect(done.body['request_counts']).toEqual({ total: lines.length, completed: lines.length, failed: 0 });
  const outputs = rt.files
    .text(done.body['output_file_id'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Loose);
  for (const output of outputs) expect(openAiBatchSchemaErrors('BatchRequestOutput', output)).toEqual([]);
  return new Map(outputs.map((output) => [output['custom_id'] as string, output]));
}

describe('a batch line reports what its model cut and which controls it left unused, in its body where the dialect has a place', () => {
  it('Cohere v2 lines, inline and over a corpus: meta.warnings name the cut documents by the line index, as the route does', async () => {
    const rt = batchTestRuntime([wordCutting]);
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', DOCS.map((d) => JSON.stringify(d)).join('\n'));
    const inline = { query: 'python http library', documents: DOCS, max_tokens_per_doc: 3 };
    const outputs = await runBatch(rt, '/v2/rerank', [
      line('inline', inline, '/v2/rerank'),
      line('corpus', { query: inline.query, documents_file_id: corpus.id, max_tokens_per_doc: 3 }, '/v2/rerank'),
    ]);
    const sync = await call(rt, 'POST', '/v2/rerank', inline);
    expect(sync.body['meta']['warnings']).toEqual(WARNINGS);
    for (const id of ['inline', 'corpus']) {
      const body = outputs.get(id)?.['response']['body'] as Loose;
      expect([id, body['meta']['warnings']]).toEqual([id, WARNINGS]);
    }
  });

  it('an unused control on a Cohere v2 line: meta.warnings name it', async () => {
    const rt = batchTestRuntime([wordCutting]);
    const outputs = await runBatch(rt, '/v2/rerank', [line('priority', { query: 'python', documents: DOCS, priority: 3 }, '/v2/rerank')]);
    expect(outputs.get('priority')?.['response']['body']['meta']['warnings']).toEqual(['priority is not used by model words']);
  });

  it("a vLLM /score line (its body has no place, and a line has no headers): the route's body, no key added", async () => {
    const rt = batchTestRuntime([wordCutting]);
    const score = { text_1: 'python http library', text_2: DOCS, max_tokens_per_doc: 3 };
    const outputs = await runBatch(rt, '/score', [line('score', score, '/score')]);
    const sync = await rt.app.handle(apiGatewayEvent({ method: 'POST', path: '/score', json: score, headers: auth }));
    expect(sync.headers?.['x-rerank-truncated']).toBe('1=3, 4=3, 7=3, 10=3');
    const { id: _lineId, created: _lineCreated, ...lineBody } = outputs.get('score')?.['response']['body'] as Loose;
    const { id: _syncId, created: _syncCreated, ...syncBody } = JSON.parse(sync.body as string) as Loose;
    expect(lineBody).toEqual(syncBody);
  });
});
