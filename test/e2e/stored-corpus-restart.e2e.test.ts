import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';
import { prometheusSamples } from '../support/prometheus-samples.js';

/**
 * `npm start` with the shipped default model (use-lite-bm25), twice over one RERANK_FILES_DIR: the first server analyses
 * a corpus while a batch line runs over it; the restarted server's batch reads the stored analysis, and /metrics says
 * no chunk analysed (encoded) a document.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const entries = readFileSync(join(ROOT, 'eval/debian-descriptions.jsonl'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { query: string; documents: string[] });
const documents = [...new Set(entries.flatMap((e) => e.documents))].slice(0, 150).map((d) => d.slice(0, 1000));
const dir = mkdtempSync(join(tmpdir(), 'stored-corpus-e2e-'));
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(url: string, name: string, purpose: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([text], { type: 'application/jsonl' }), name);
  const reply = await fetch(`${url}/v1/files`, { method: 'POST', body: form });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { id: string }).id;
}

async function runLine(url: string, corpusId: string, query: string): Promise<Record<string, unknown>> {
  const line = JSON.stringify({
    custom_id: 'q',
    method: 'POST',
    url: '/v1/rerank',
    body: { model: 'use-lite-bm25', query, documents_file_id: corpusId, top_n: 3 },
  });
  const inputId = await upload(url, 'in.jsonl', 'batch', `${line}\n`);
  const created = await fetch(`${url}/v1/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input_file_id: inputId, endpoint: '/v1/rerank', completion_window: '24h' }),
  });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  let batch: Record<string, unknown> = {};
  for (let i = 0; i < 1200; i++) {
    batch = (await (await fetch(`${url}/v1/batches/${id}`)).json()) as Record<string, unknown>;
    if (['completed', 'failed', 'expired', 'cancelled'].includes(String(batch['status']))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 1, completed: 1, failed: 0 } });
  return batch;
}

const chunkDocuments = async (url: string) => {
  const s = prometheusSamples(await (await fetch(`${url}/metrics`)).text());
  return {
    analysed: s.get('rerank_batch_chunk_documents_total{source="analysed"}'),
    stored: s.get('rerank_batch_chunk_documents_total{source="stored"}'),
    encoded: s.get('rerank_batch_chunk_documents_total{source="encoded"}'),
  };
};

describe('a corpus analysed once survives a restart of npm start (default model)', () => {
  it('the restarted service reads the stored analysis: no chunk encodes a document', async () => {
    const env = { RERANK_MODELS: '', RERANK_FILES_DIR: join(dir, 'files') };
    server = await startDevServer(env);
    const corpusId = await upload(server.url, 'corpus.jsonl', 'user_data', documents.map((d) => JSON.stringify(d)).join('\n') + '\n');
    await runLine(server.url, corpusId, entries[0]!.query);
    expect(await chunkDocuments(server.url)).toEqual({ analysed: documents.length, stored: 0, encoded: 0 });
    await server.stop();

    server = await startDevServer(env);
    await runLine(server.url, corpusId, entries[1]!.query);
    expect(await chunkDocuments(server.url)).toEqual({ analysed: 0, stored: documents.length, encoded: 0 });
  }, 240_000);
});
