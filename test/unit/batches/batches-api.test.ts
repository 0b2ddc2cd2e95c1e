import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { FINALIZE_TRIES } from '../../../shared/batches/batch-finalizer.js';
import { BatchExistsError } from '../../../shared/batches/batch-store.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { createHybridScorer } from '../../../shared/scoring/hybrid/index.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, type BatchTestRuntime } from '../../support/batch-test-runtime.js';
import { openAiBatchSchemaErrors } from '../../support/openai-batch-schemas.js';

// Replies and lines are JSON whose shape the OpenAI schemas check (openAiBatchSchemaErrors).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

const A = keyIdOf('key-a');
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

const DOCS = [
  'requests is a popular third-party HTTP library for Python',
  'the weather is mild today',
  'urllib is a built-in Python library for HTTP requests',
  'httpx is a modern async HTTP client for Python',
  'a recipe for lemon cake',
];

const line = (customId: string, body: unknown, url = '/v1/rerank') => JSON.stringify({ custom_id: customId, method: 'POST', url, body });

async function call(
  rt: BatchTestRuntime,
  method: string,
  path: string,
  json?: unknown,
  key = 'key-a',
  headers: Record<string, string> = {},
) {
  const response = await rt.app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { ...auth(key), ...headers } }),
  );
  const body = JSON.parse(response.body as string) as Loose;
  // Every 200 from /v1/batches is OpenAI's batch object or list, as its schema says.
  if (response.statusCode === 200 && path.startsWith('/v1/batches')) {
    expect(
      openAiBatchSchemaErrors(path.split('?')[0] === '/v1/batches' && method === 'GET' ? 'ListBatchesResponse' : 'Batch', body),
    ).toEqual([]);
  }
  return { status: response.statusCode, body };
}

async function createBatch(rt: BatchTestRuntime, lines: string[], endpoint = '/v1/rerank', headers: Record<string, string> = {}) {
  const file = await rt.files.put(A, 'in.jsonl', 'batch', lines.join('\n') + '\n');
  return call(rt, 'POST', '/v1/batches', { input_file_id: file.id, endpoint, completion_window: '24h' }, 'key-a', headers);
}

/** An output or error file's lines, each checked against BatchRequestOutput. */
function outputLines(rt: BatchTestRuntime, fileId: string | undefined): Loose[] {
  if (fileId === undefined) return [];
  const lines = rt.files
    .text(fileId)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Loose);
  for (const l of lines) expect(openAiBatchSchemaErrors('BatchRequestOutput', l)).toEqual([]);
  return lines;
}

describe('/v1/batches on the embedded engine', () => {
  it('runs every line and answers each exactly as its route answers the same body (ids aside)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const bodies = [
      { query: 'python http library', documents: DOCS },
      { query: 'python http library', documents: DOCS, top_n: 2, return_documents: true },
      { query: 'python library', documents: DOCS.slice(0, 3), rerank_threshold: 0.0001 },
    ];
    const created = await createBatch(
      rt,
      bodies.map((b, i) => line(`req-${i}`, b)),
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'batch',
      status: 'validating',
      endpoint: '/v1/rerank',
      request_counts: { total: 0, completed: 0, failed: 0 },
    });

    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    expect(done.body['error_file_id']).toBeUndefined();
    // Outputs expire as uploads do (RERANK_FILE_RETENTION_DAYS, 30 days by default).
    expect((await rt.files.get(done.body['output_file_id']))?.expiresAt).toBe(Math.floor(rt.clock.nowMs / 1000) + 30 * 86_400);
    // The files hold the results now: the store keeps only the batch record.
    const kept = [];
    for await (const result of rt.store.readResults(created.body['id'] as string)) kept.push(result);
    expect(kept).toEqual([]);
    const outputs = outputLines(rt, done.body['output_file_id']);
    expect(outputs.map((o) => o['custom_id']).sort()).toEqual(['req-0', 'req-1', 'req-2']);
    for (const [i, body] of bodies.entries()) {
      const output = outputs.find((o) => o['custom_id'] === `req-${i}`) as Loose;
      const sync = await call(rt, 'POST', '/v1/rerank', body);
      expect(output['response']['status_code']).toBe(200);
      expect(output['error']).toBeNull();
      const { id: _batchId, ...batchBody } = output['response']['body'];
      const { id: _syncId, ...syncBody } = sync.body;
      expect(batchBody['results'].length).toBeGreaterThan(0);
      expect(batchBody).toEqual(syncBody);
    }
  });

  it("formats each route's lines in that route's dialect: DashScope, Voyage, Cohere v2 (a corpus too)", async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', DOCS.map((d) => JSON.stringify(d)).join('\n'));
    const routes: [string, unknown, unknown][] = [
      [
        '/api/v1/services/rerank/text-rerank/text-rerank',
        { input: { query: 'python http', documents: DOCS }, parameters: { top_n: 2, return_documents: true } },
        undefined,
      ],
      [
        '/api/v1/services/rerank/text-rerank/text-rerank',
        { input: { query: 'python http', documents_file_id: corpus.id }, parameters: { top_n: 2 } },
        { input: { query: 'python http', documents: DOCS }, parameters: { top_n: 2 } },
      ],
      ['/voyage/v1/rerank', { query: 'python http', documents: DOCS, top_k: 3 }, undefined],
      ['/v2/rerank', { query: 'python http', documents_file_id: corpus.id, top_n: 3 }, { query: 'python http', documents: DOCS, top_n: 3 }],
    ];
    const dropIds = (body: Loose) => {
      const { id: _id, request_id: _requestId, ...rest } = body;
      return rest;
    };
    for (const [url, body, inline] of routes) {
      const created = await createBatch(rt, [line('one', body, url)], url);
      await rt.queue.run();
      const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
      expect([url, done.body['request_counts']]).toEqual([url, { total: 1, completed: 1, failed: 0 }]);
      const [output] = outputLines(rt, done.body['output_file_id']);
      const sync = await call(rt, 'POST', url, inline ?? body);
      expect(sync.status).toBe(200);
      expect(dropIds((output as Loose)['response']['body'])).toEqual(dropIds(sync.body));
    }
  });

  it('cuts each document to max_tokens_per_doc as the route does, inline and from a corpus (one chunk scorer for jobs and batches)', async () => {
    // BM25 has no tokenizer and reports the cap unused: this one reads whitespace words as its tokens and declares it.
    const bm25 = createBm25Scorer({ id: 'bm25' });
    const wordCutting: Scorer = {
      id: 'bm25',
      scoreKind: bm25.scoreKind,
      controls: ['max_tokens_per_doc'],
      score: (query, documents, options) => {
        const cap = options?.maxDocumentTokens;
        return bm25.score(query, cap === undefined ? documents : documents.map((d) => d.split(/\s+/).slice(0, cap).join(' ')));
      },
    };
    const rt = batchTestRuntime([wordCutting]);
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', DOCS.map((d) => JSON.stringify(d)).join('\n'));
    // The query's words sit past the third word of most documents: cut to 3, they score differently.
    const inline = { query: 'python http library', documents: DOCS, max_tokens_per_doc: 3 };
    const fromCorpus = { query: 'python http library', documents_file_id: corpus.id, max_tokens_per_doc: 3 };
    const created = await createBatch(rt, [line('inline', inline, '/v2/rerank'), line('corpus', fromCorpus, '/v2/rerank')], '/v2/rerank');
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 2, completed: 2, failed: 0 });
    const sync = await call(rt, 'POST', '/v2/rerank', inline);
    const whole = await call(rt, 'POST', '/v2/rerank', { query: inline.query, documents: DOCS });
    expect(sync.body['results']).not.toEqual(whole.body['results']);
    for (const output of outputLines(rt, done.body['output_file_id'])) {
      expect([output['custom_id'], output['response']['body']['results']]).toEqual([output['custom_id'], sync.body['results']]);
    }
  });

  it('writes bad lines to the error file, naming each line, and scores the rest', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [
      line('ok', { query: 'python', documents: DOCS }),
      '{not json',
      line('wrong-url', { query: 'q', documents: ['a'] }, '/v2/rerank'),
      JSON.stringify({ method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: ['a'] } }),
      line('blank-query', { query: '  ', documents: ['a'] }),
      line('ok', { query: 'again', documents: ['a'] }),
      `{"custom_id":"deep","method":"POST","url":"/v1/rerank","body":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ]);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body).toMatchObject({ status: 'completed', request_counts: { total: 7, completed: 1, failed: 6 } });
    const errors = outputLines(rt, done.body['error_file_id']);
    expect(errors.map((e) => [e['custom_id'], e['error']['code'], e['error']['message'].split(':')[0]])).toEqual([
      [undefined, 'invalid_json', 'line 2'],
      ['wrong-url', 'mismatched_url', 'line 3'],
      [undefined, 'missing_custom_id', 'line 4'],
      ['blank-query', 'invalid_request', 'line 5'],
      ['ok', 'duplicate_custom_id', 'line 6'],
      [undefined, 'invalid_json', 'line 7'],
    ]);
    // A body the route refused carries the route's own error reply.
    expect(errors[3]?.['response']).toMatchObject({ status_code: 400, body: { error: { param: 'query' } } });
  });

  it('gives a custom_id to the first line that carries it even when that line is refused: a later line cannot reuse it', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [
      line('a', { query: '  ', documents: ['a'] }), // refused by the route (blank query)
      line('a', { query: 'python', documents: DOCS }), // would run, but "a" is taken
      line('b', { query: 'q', documents: ['a'] }, '/v2/rerank'), // refused before its body is read (wrong url)
      line('b', { query: 'python', documents: DOCS }),
      line('c', { query: 'python', documents: DOCS }),
    ]);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 5, completed: 1, failed: 4 });
    const errors = outputLines(rt, done.body['error_file_id']);
    expect(errors.map((e) => [e['custom_id'], e['error']['code'], e['error']['message'].split(':')[0]])).toEqual([
      ['a', 'invalid_request', 'line 1'],
      ['a', 'duplicate_custom_id', 'line 2'],
      ['b', 'mismatched_url', 'line 3'],
      ['b', 'duplicate_custom_id', 'line 4'],
    ]);
    // Each duplicate names the line that holds its id (the earlier one, refused or not), and only it is refused.
    expect(errors.filter((e) => e['error']['code'] === 'duplicate_custom_id').map((e) => e['error']['message'])).toEqual([
      expect.stringMatching(/^line 2: custom_id "a" is already used by line 1; .*only this line is refused, the batch goes on/),
      expect.stringMatching(/^line 4: custom_id "b" is already used by line 3; /),
    ]);
    // No id is in both files: the output file holds only the line whose id was its own.
    expect(outputLines(rt, done.body['output_file_id']).map((o) => o['custom_id'])).toEqual(['c']);
  });

  it('fails a corpus line whose returned documents pass the bound, and takes one exactly at it', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxReturnedDocumentBytes: 20 });
    // Two 10-byte lines = the bound; 11 + 10 bytes = one past it.
    const atBound = await rt.files.put(A, 'a.jsonl', 'batch', ['"python a"', '"python b"', '"cake"'].join('\n'));
    const overBound = await rt.files.put(A, 'b.jsonl', 'batch', ['"python aa"', '"python b"', '"cake"'].join('\n'));
    const created = await createBatch(rt, [
      line('at', { query: 'python', documents_file_id: atBound.id, top_n: 2, return_documents: true }),
      line('over', { query: 'python', documents_file_id: overBound.id, top_n: 2, return_documents: true }),
    ]);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 2, completed: 1, failed: 1 });
    const [at] = outputLines(rt, done.body['output_file_id']);
    expect((at as Loose)['response']['body']['results'].map((r: Loose) => r['document']['text']).sort()).toEqual(['python a', 'python b']);
    expect(outputLines(rt, done.body['error_file_id']).map((e) => e['error']['message'])).toEqual([
      'line 2: the documents this line returns pass 20 bytes: set return_documents to false (you have the corpus) or lower top_n',
    ]);
  });

  it('takes a line of exactly maxLineBytes and fails the next byte past it, naming the line', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxLineBytes: 120 });
    const sized = (customId: string, bytes: number) => {
      const base = line(customId, { query: 'python', documents: [''] });
      return line(customId, { query: 'python', documents: ['x'.repeat(bytes - Buffer.byteLength(base))] });
    };
    expect([Buffer.byteLength(sized('at', 120)), Buffer.byteLength(sized('over', 121))]).toEqual([120, 121]);
    const created = await createBatch(rt, [sized('at', 120), sized('over', 121)]);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 2, completed: 1, failed: 1 });
    expect(outputLines(rt, done.body['error_file_id']).map((e) => e['error'])).toEqual([
      { code: 'line_too_long', message: 'line 2: the line is longer than 120 bytes' },
    ]);
  });

  it('ranks a corpus given by documents_file_id as the route ranks the same documents inline', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxCorpusResultsWithoutTopN: 10 });
    const corpusDocs = Array.from({ length: 30 }, (_, i) => `${DOCS[i % DOCS.length]} number ${i}`);
    const corpus = await rt.files.put(
      A,
      'corpus.jsonl',
      'user_data',
      corpusDocs.map((d, i) => JSON.stringify(i % 2 ? d : { text: d, id: i })).join('\n'),
    );
    const created = await createBatch(rt, [
      line('top', { query: 'python http library', documents_file_id: corpus.id, top_n: 6, return_documents: true }),
      line('no-top-n', { query: 'python', documents_file_id: corpus.id }),
      line('missing', { query: 'python', documents_file_id: 'file-nope', top_n: 1 }),
      line('top-n-past-cap', { query: 'python', documents_file_id: corpus.id, top_n: 11 }),
      line('top-n-at-cap', { query: 'python', documents_file_id: corpus.id, top_n: 10 }),
    ]);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 5, completed: 2, failed: 3 });
    const [output, atCap] = outputLines(rt, done.body['output_file_id']);
    expect((atCap as Loose)['response']['body']['results']).toHaveLength(10);
    const inline = corpusDocs.map((d, i) => (i % 2 ? d : { text: d, id: i }));
    const sync = await call(rt, 'POST', '/v1/rerank', {
      query: 'python http library',
      documents: inline,
      top_n: 6,
      return_documents: true,
    });
    const { id: _a, ...batchBody } = (output as Loose)['response']['body'];
    const { id: _b, ...syncBody } = sync.body;
    expect(batchBody).toEqual(syncBody);
    const errors = outputLines(rt, done.body['error_file_id']);
    expect(errors[0]?.['error']['message']).toMatch(/^line 2: top_n is required: documents_file_id has 30 documents/);
    expect(errors[1]?.['error']['message']).toMatch(/^line 3: documents_file_id 'file-nope' is not a file of yours/);
    expect(errors[2]?.['error']['message']).toBe('line 4: top_n is at most 10 for a documents_file_id line');
  });

  it('fuses a min-max hybrid ONCE over the whole corpus (not per chunk): equal to the route over the same documents', async () => {
    // A logit model that is cheap and deterministic (unit tests may fake the Scorer port), fused with the real BM25.
    const model: Scorer = {
      id: 'len',
      scoreKind: 'logit',
      score: async (_query, documents) => ({ scores: documents.map((d) => (d.length % 17) / 3 - 2), tokens: documents.length }),
    };
    const bm25 = createBm25Scorer({ id: 'bm25' });
    const hybrid = createHybridScorer({ id: 'len+bm25', model, lexical: bm25 });
    const rt = batchTestRuntime([hybrid, model, bm25]);
    const corpusDocs = Array.from({ length: 40 }, (_, i) => `${DOCS[(i * 3) % DOCS.length]} ${'x'.repeat(i % 7)} item ${i}`);
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'batch', corpusDocs.map((d) => JSON.stringify(d)).join('\n'));
    const corpusBody = { model: 'len+bm25', query: 'python http library', documents_file_id: corpus.id, top_n: 7 };
    const inlineBody = { model: 'len+bm25', query: 'python http library', documents: corpusDocs.slice(0, 25), top_n: 7 };
    const created = await createBatch(rt, [line('corpus', corpusBody), line('inline', inlineBody)]);
    await rt.queue.run((t) => t.kind === 'plan');
    expect(rt.queue.tasks.filter((t) => t.kind === 'chunk' && t.line === 1).length).toBeGreaterThan(2);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 2, completed: 2, failed: 0 });
    const outputs = outputLines(rt, done.body['output_file_id']);
    const expectations: [string, unknown][] = [
      ['corpus', { ...corpusBody, documents_file_id: undefined, documents: corpusDocs }],
      ['inline', inlineBody],
    ];
    for (const [customId, body] of expectations) {
      const sync = await call(rt, 'POST', '/v1/rerank', body);
      const got = (outputs.find((o) => o['custom_id'] === customId) as Loose)['response']['body'];
      expect(got['model']).toBe('len+bm25');
      expect(got['results']).toEqual(sync.body['results']);
    }
  });

  it("answers 404 for another key's batch, and lists only the caller's", async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('x', { query: 'q', documents: ['a'] })]);
    const id = created.body['id'] as string;
    expect((await call(rt, 'GET', `/v1/batches/${id}`, undefined, 'key-b')).status).toBe(404);
    expect((await call(rt, 'POST', `/v1/batches/${id}/cancel`, undefined, 'key-b')).status).toBe(404);
    expect((await call(rt, 'GET', '/v1/batches', undefined, 'key-b')).body).toEqual({ object: 'list', data: [], has_more: false });
    const mine = await call(rt, 'GET', '/v1/batches?limit=1');
    expect(mine.body).toMatchObject({ object: 'list', first_id: id, last_id: id, has_more: false });
    // Another key cannot run a batch over this key's file either.
    const foreign = await call(
      rt,
      'POST',
      '/v1/batches',
      { input_file_id: created.body['input_file_id'], endpoint: '/v1/rerank', completion_window: '24h' },
      'key-b',
    );
    expect(foreign.status).toBe(404);
  });

  it('cancel keeps finished lines and writes the rest as batch_cancelled', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(
      rt,
      ['a', 'b', 'c'].map((c) => line(c, { query: 'python', documents: DOCS })),
    );
    const id = created.body['id'] as string;
    await rt.queue.run((t) => t.kind === 'plan');
    await rt.queue.run((t) => t.kind === 'chunk' && t.line === 1);
    const cancelling = await call(rt, 'POST', `/v1/batches/${id}/cancel`);
    expect(cancelling.body).toMatchObject({ status: 'cancelling' });
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(done.body).toMatchObject({ status: 'cancelled', request_counts: { total: 3, completed: 1, failed: 2 } });
    expect(outputLines(rt, done.body['output_file_id']).map((o) => o['custom_id'])).toEqual(['a']);
    expect(outputLines(rt, done.body['error_file_id']).map((e) => [e['custom_id'], e['error']['code']])).toEqual([
      ['b', 'batch_cancelled'],
      ['c', 'batch_cancelled'],
    ]);
  });

  it('expires a batch past its completion window (engine clock), keeping finished lines', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(
      rt,
      ['a', 'b'].map((c) => line(c, { query: 'python', documents: DOCS })),
    );
    const id = created.body['id'] as string;
    await rt.queue.run((t) => t.kind === 'plan');
    await rt.queue.run((t) => t.kind === 'chunk' && t.line === 2);
    expect(await rt.engine.expireDue()).toBe(0);
    rt.clock.nowMs += 24 * 3600 * 1000 + 1000;
    expect(await rt.engine.expireDue()).toBe(1);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(done.body).toMatchObject({ status: 'expired', request_counts: { total: 2, completed: 1, failed: 1 } });
    expect(done.body['expired_at']).toBe(Math.floor(rt.clock.nowMs / 1000));
    expect(outputLines(rt, done.body['error_file_id']).map((e) => [e['custom_id'], e['error']['code']])).toEqual([['a', 'batch_expired']]);
  });

  it('ends a batch whose finalize task was dead-lettered failed, with a reason (never stuck in finalizing)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('a', { query: 'python http', documents: DOCS })]);
    await rt.queue.run((t) => t.kind !== 'finalize');
    const finalize = rt.queue.tasks.find((t) => t.kind === 'finalize');
    expect(finalize).toBeDefined();
    expect((await call(rt, 'GET', `/v1/batches/${created.body['id']}`)).body['status']).toBe('finalizing');
    await rt.engine.taskDeadLettered(finalize!, 'the task failed on every delivery');
    const failed = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(failed.body).toMatchObject({
      status: 'failed',
      errors: { data: [{ code: 'server_error', message: expect.stringMatching(/output/) }] },
    });
    // Its kept line no longer holds the key's quota, nor the batch a running slot.
    expect(await rt.quota.usage(A)).toMatchObject({ stored_bytes: 0, running_batches: 0 });
    // A late delivery of the same task changes nothing.
    await rt.queue.run();
    expect((await call(rt, 'GET', `/v1/batches/${created.body['id']}`)).body['status']).toBe('failed');
  });

  it('ends a batch whose plan task could not be queued failed at once, with a reason (never left validating until it expires)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const send = rt.queue.send.bind(rt.queue);
    rt.queue.send = () => Promise.reject(new Error('queue unavailable'));
    const created = await createBatch(rt, [line('a', { query: 'python http', documents: DOCS })]);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'failed',
      errors: { data: [{ code: 'enqueue_failed', message: 'the batch could not be queued; create it again' }] },
    });
    rt.queue.send = send;
    expect((await call(rt, 'GET', `/v1/batches/${created.body['id']}`)).body['status']).toBe('failed');
    expect(rt.queue.tasks).toStrictEqual([]);
  });

  it('counts a chunk delivered twice once', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('a', { query: 'python http', documents: DOCS })]);
    await rt.queue.run((t) => t.kind === 'plan');
    const chunks = rt.queue.tasks.filter((t) => t.kind === 'chunk');
    expect(chunks.length).toBeGreaterThan(1);
    rt.queue.tasks.push(...chunks);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 1, completed: 1, failed: 0 });
    const [output] = outputLines(rt, done.body['output_file_id']);
    expect(output?.['response']['body']['results']).toHaveLength(DOCS.length);
  });

  it('reads and admits a line once for all its chunks (cost linear in the line), whatever their number', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const input = line('a', { query: 'python http', documents: DOCS });
    await createBatch(rt, [input]);
    await rt.queue.run((t) => t.kind === 'plan');
    expect(rt.queue.tasks.filter((t) => t.kind === 'chunk').length).toBeGreaterThan(2);
    const before = rt.files.bytesRead;
    await rt.queue.run((t) => t.kind === 'chunk');
    expect(rt.files.bytesRead - before).toBe(Buffer.byteLength(input));
  });

  it('replays an Idempotency-Key create, and answers 422 when the key comes with another body', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const file = await rt.files.put(A, 'in.jsonl', 'batch', line('a', { query: 'q', documents: ['a'] }));
    const body = { input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h', metadata: { run: '1' } };
    const first = await call(rt, 'POST', '/v1/batches', body, 'key-a', { 'idempotency-key': 'k-1' });
    const again = await call(rt, 'POST', '/v1/batches', body, 'key-a', { 'idempotency-key': 'k-1' });
    expect(again.body['id']).toBe(first.body['id']);
    // The replay of a batch whose planning has not started queues it again (its first create's answer may have been
    // lost before the plan task was sent); a second plan task is harmless, and planning runs once.
    expect(rt.queue.tasks.filter((t) => t.kind === 'plan')).toHaveLength(2);
    await rt.queue.run();
    expect((await call(rt, 'GET', `/v1/batches/${first.body['id']}`)).body).toMatchObject({
      status: 'completed',
      request_counts: { total: 1, completed: 1, failed: 0 },
    });
    const other = await call(rt, 'POST', '/v1/batches', { ...body, metadata: { run: '2' } }, 'key-a', { 'idempotency-key': 'k-1' });
    expect(other.status).toBe(422);
    expect(other.body['error']['message']).toMatch(/already used for a different batch request/);
  });

  it('refuses past the quotas: running batches (429) and lines per batch (the batch fails naming the line)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxRunningBatches: 1, maxLinesPerBatch: 2 });
    const atLimit = await createBatch(
      rt,
      ['a', 'b'].map((c) => line(c, { query: 'q', documents: ['a'] })),
    );
    const refused = await createBatch(rt, [line('c', { query: 'q', documents: ['a'] })]);
    expect(refused.status).toBe(429);
    expect(refused.body['error']['message']).toMatch(/already has 1 batches running/);
    await rt.queue.run();
    expect((await call(rt, 'GET', `/v1/batches/${atLimit.body['id']}`)).body).toMatchObject({
      status: 'completed',
      request_counts: { total: 2, completed: 2, failed: 0 },
    });
    const over = await createBatch(
      rt,
      ['a', 'b', 'c'].map((c) => line(c, { query: 'q', documents: ['a'] })),
    );
    await rt.queue.run();
    const failed = await call(rt, 'GET', `/v1/batches/${over.body['id']}`);
    expect(failed.body).toMatchObject({ status: 'failed', errors: { object: 'list', data: [{ code: 'too_many_lines', line: 3 }] } });
  });

  it('holds the running-batch limit under parallel creates: the ledger takes the slot atomically (10 at once, limit 3)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxRunningBatches: 3 });
    const file = await rt.files.put(A, 'in.jsonl', 'batch', line('a', { query: 'q', documents: ['a'] }) + '\n');
    const body = { input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h' };
    const replies = await Promise.all(Array.from({ length: 10 }, () => call(rt, 'POST', '/v1/batches', body)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    // Ended batches give their slot back.
    await rt.queue.run();
    expect((await call(rt, 'POST', '/v1/batches', body)).status).toBe(200);
  });

  it("ends a batch whose output would pass the key's stored bytes failed (quota_exceeded), keeping what finished within the bound", async () => {
    const limit = 40_000;
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], {}, { maxStoredBytesPerKey: limit });
    // Each line returns its ~900-character documents: ~2.8 KB of output a line, 60 lines ~170 KB, past 40 KB.
    const documents = DOCS.map((d) => `${d} ${'padding words for size '.repeat(8)}`);
    const lines = Array.from({ length: 60 }, (_, i) => line(`r${i}`, { query: `python http ${i}`, documents, return_documents: true }));
    const created = await createBatch(rt, lines);
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body).toMatchObject({ status: 'failed', errors: { object: 'list', data: [{ code: 'quota_exceeded' }] } });
    const kept = outputLines(rt, done.body['output_file_id']);
    const unfinished = outputLines(rt, done.body['error_file_id']);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length + unfinished.length).toBe(60);
    expect(unfinished.every((l) => l['error']['code'] === 'batch_failed')).toBe(true);
    // The output is within what the key may store (the input file counts too), and the key's ledger holds the files.
    const outputBytes = Buffer.byteLength(rt.files.text(done.body['output_file_id']));
    const errorBytes = Buffer.byteLength(rt.files.text(done.body['error_file_id']));
    expect(outputBytes).toBeLessThanOrEqual(limit);
    // The two files now hold what their lines held; the batch gave its running slot back.
    expect(await rt.quota.usage(A)).toMatchObject({ files: 2, stored_bytes: outputBytes + errorBytes, running_batches: 0 });
  });

  it("counts a corpus' stored shards against the key's stored bytes, and gives them back when the corpus is deleted", async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', DOCS.map((d) => JSON.stringify(d)).join('\n'));
    const created = await createBatch(rt, [line('c', { query: 'python http', documents_file_id: corpus.id }, '/v2/rerank')], '/v2/rerank');
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`);
    expect(done.body['request_counts']).toEqual({ total: 1, completed: 1, failed: 0 });
    const outputBytes = Buffer.byteLength(rt.files.text(done.body['output_file_id']));
    // The output file and the corpus' analysis (bm25's per-document term counts) are what the key now stores.
    expect((await rt.quota.usage(A)).stored_bytes).toBeGreaterThan(outputBytes);
    expect((await call(rt, 'DELETE', `/v1/files/${corpus.id}`)).status).toBe(200);
    expect((await rt.quota.usage(A)).stored_bytes).toBe(outputBytes);
  });

  it('sends a lost finalize task again from the sweep: a batch claimed for its end never stays finalizing (chaos run bug 2)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('a', { query: 'q', documents: ['a', 'b'] })]);
    const id = created.body['id'] as string;
    await rt.queue.run((t) => t.kind !== 'finalize');
    // The finalize task is lost: its send failed after the claim, or the claim's answer was lost.
    expect(rt.queue.tasks.splice(0)).toEqual([{ kind: 'finalize', batchId: id }]);
    expect((await call(rt, 'GET', `/v1/batches/${id}`)).body['status']).toBe('finalizing');
    await rt.engine.expireDue();
    expect(rt.queue.tasks).toEqual([]); // a finalizer may still be running within its 15 minutes
    rt.clock.nowMs += 21 * 60 * 1000;
    await rt.engine.expireDue();
    expect(rt.queue.tasks).toEqual([{ kind: 'finalize', batchId: id }]);
    await rt.queue.run();
    expect((await call(rt, 'GET', `/v1/batches/${id}`)).body).toMatchObject({
      status: 'completed',
      request_counts: { total: 1, completed: 1, failed: 0 },
    });
    expect((await rt.quota.usage(A)).running_batches).toBe(0);
  });

  it('deletes the files of a finalizer that failed after writing them: the retry leaves one output, the ledger holds it once (chaos run bug 1)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('a', { query: 'q', documents: ['a', 'b'] }), line('b', { query: 'q', documents: ['c'] })]);
    const id = created.body['id'] as string;
    await rt.queue.run((t) => t.kind !== 'finalize');
    const update = rt.store.update.bind(rt.store);
    // Every try of the first delivery (the finalizer retries in-process) loses its end transition.
    let failures = FINALIZE_TRIES;
    rt.store.update = async (batchId, from, patch, owner) => {
      if (patch.status === 'completed' && failures-- > 0) throw new Error('the end transition was lost');
      return update(batchId, from, patch, owner);
    };
    await expect(rt.queue.run()).rejects.toThrow('the end transition was lost');
    await rt.engine.handle({ kind: 'finalize', batchId: id });
    const done = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(done.body['status']).toBe('completed');
    const outputs = (await rt.files.list(A, { limit: 100 })).files.filter((f) => f.purpose === 'batch_output');
    expect(outputs.map((f) => f.id)).toEqual([done.body['output_file_id']]);
    const outputBytes = Buffer.byteLength(rt.files.text(done.body['output_file_id']));
    expect(await rt.quota.usage(A)).toMatchObject({ files: 1, stored_bytes: outputBytes, running_batches: 0 });
  });

  it('queues a batch whose create was applied but answered as taken (a lost answer, retried): never left in validating', async () => {
    for (const idempotencyKey of [undefined, 'k-lost']) {
      const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
      const create = rt.store.create.bind(rt.store);
      rt.store.create = async (batch) => {
        await create(batch);
        throw new BatchExistsError(batch.id);
      };
      const created = await createBatch(
        rt,
        [line('a', { query: 'q', documents: ['a', 'b'] })],
        '/v1/rerank',
        idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      );
      expect([idempotencyKey, created.status]).toEqual([idempotencyKey, 200]);
      expect(rt.queue.tasks.filter((t) => t.kind === 'plan')).toHaveLength(1);
      await rt.queue.run();
      expect((await call(rt, 'GET', `/v1/batches/${created.body['id']}`)).body['status']).toBe('completed');
    }
  });

  it('keeps the output of a finalizer whose end was applied but answered as failed (a lost answer the SDK retried)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const created = await createBatch(rt, [line('a', { query: 'q', documents: ['a', 'b'] })]);
    const id = created.body['id'] as string;
    const update = rt.store.update.bind(rt.store);
    rt.store.update = async (batchId, from, patch) => {
      const applied = await update(batchId, from, patch);
      // The retry of an applied end finds its condition failed.
      return patch.status === 'completed' ? undefined : applied;
    };
    await rt.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${id}`);
    expect(done.body['status']).toBe('completed');
    expect(outputLines(rt, done.body['output_file_id'])).toHaveLength(1);
    expect(await rt.quota.usage(A)).toMatchObject({ files: 1, running_batches: 0 });
  });

  it('validates the create body and the endpoint', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const file = await rt.files.put(A, 'in.jsonl', 'batch', line('a', { query: 'q', documents: ['a'] }));
    const bad = async (body: unknown) => (await call(rt, 'POST', '/v1/batches', body)).body['error'];
    expect(await bad({ input_file_id: file.id, endpoint: '/v1/chat/completionz', completion_window: '24h' })).toMatchObject({
      param: 'endpoint',
    });
    expect(await bad({ input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '48h' })).toMatchObject({
      param: 'completion_window',
    });
    expect(await bad({ input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h', metadata: { k: 1 } })).toMatchObject({
      param: 'metadata.k',
    });
    expect((await call(rt, 'GET', '/v1/batches?limit=101')).status).toBe(400);
  });
});
