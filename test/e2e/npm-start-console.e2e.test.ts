import { afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

/** What `npm start` prints per request: one plain line unless POWERTOOLS_LOG_LEVEL asks for the structured logs. */
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const rerank = (url: string) =>
  fetch(`${url}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'python http', documents: ['requests is an HTTP library', 'a cake recipe'] }),
  });

/** The output once it holds `pattern` (the line is written when the answer has been sent, which the client may see first). */
async function outputHaving(running: RunningServer, pattern: RegExp): Promise<string> {
  while (!pattern.test(running.output())) await new Promise((done) => setTimeout(done, 20));
  return running.output();
}

describe('npm start console', () => {
  it('prints one plain line per request by default: no JSON log line, no EMF metric line', async () => {
    server = await startDevServer({ POWERTOOLS_LOG_LEVEL: '' });
    const before = server.output().length;
    expect((await rerank(server.url)).status).toBe(200);
    const bad = await fetch(`${server.url}/v1/rerank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
    const lines = (await outputHaving(server, /POST \/v1\/rerank 400 \d+ ms\n/)).slice(before).trim().split('\n');
    // The start-up banner may still be arriving; besides it, exactly the two request lines and nothing in JSON.
    expect(lines.filter((line) => /^[A-Z]+ \//.test(line))).toEqual([
      expect.stringMatching(/^POST \/v1\/rerank 200 \d+ ms$/),
      expect.stringMatching(/^POST \/v1\/rerank 400 \d+ ms$/),
    ]);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  }, 120_000);

  it('still prints warnings and errors in full by default (a batch failing validation logs its structured warning)', async () => {
    server = await startDevServer({ POWERTOOLS_LOG_LEVEL: '', RERANK_BATCH_MAX_LINES: '1' });
    const line = (query: string) =>
      JSON.stringify({ custom_id: query, method: 'POST', url: '/v1/rerank', body: { query, documents: ['a', 'b'] } });
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob([`${line('q1')}\n${line('q2')}\n`]), 'two-lines.jsonl');
    const file = (await (await fetch(`${server.url}/v1/files`, { method: 'POST', body: form })).json()) as { id: string };
    const created = await fetch(`${server.url}/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h' }),
    });
    expect(created.status).toBe(200);
    const output = await outputHaving(server, /"message":"batch failed validation"/);
    expect(output).toMatch(/^\{.*"level":"WARN".*"message":"batch failed validation".*"code":"too_many_lines"/m);
    expect(output).toMatch(/^POST \/v1\/batches 200 \d+ ms$/m);
  }, 120_000);

  it('with POWERTOOLS_LOG_LEVEL set, logs the structured request lines and the metric lines again', async () => {
    server = await startDevServer({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    expect((await rerank(server.url)).status).toBe(200);
    const output = await outputHaving(server, /"message":"request".*"path":"\/v1\/rerank"/);
    expect(output).toMatch(/"CloudWatchMetrics"/);
    expect(output).not.toMatch(/^POST \/v1\/rerank 200/m);
  }, 120_000);
});
