import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankClient } from '../../shared/client/index.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// Two servers: one scores everything synchronously, one fans out anything above 8 documents.
let syncServer: RunningServer;
let jobServer: RunningServer;
const KEY_A = 'sk-owner-a';
const KEY_B = 'sk-owner-b';

const QUERY = 'how do neural networks learn';
const DOCS = Array.from(
  { length: 60 },
  (_, i) =>
    `document ${i}: ${['backpropagation adjusts weights', 'gradient descent on a loss', 'pandas eat bamboo', 'http clients for python', 'neural networks learn representations'][i % 5]} ${'detail '.repeat(i % 7)}`,
);

async function post(server: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY_A}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

async function poll(server: RunningServer, path: string, key = KEY_A): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  const keys = { RERANK_API_KEYS: `${KEY_A},${KEY_B}` };
  [syncServer, jobServer] = await Promise.all([
    startDevServer({ ...keys, RERANK_SYNC_MAX_DOCUMENTS: '100000' }),
    startDevServer({ ...keys, RERANK_SYNC_MAX_DOCUMENTS: '8', RERANK_DEFAULT_BATCH_SIZE: '7', RERANK_LOCAL_WORKERS: '3' }),
  ]);
});

afterAll(async () => {
  await Promise.all([syncServer?.stop(), jobServer?.stop()]);
});

describe('large candidate sets fan out over the in-process queue', () => {
  it('a dialect endpoint waits for the job and answers exactly the synchronous result', async () => {
    const body = { query: QUERY, documents: DOCS, top_n: 25, return_documents: true };
    const sync = await post(syncServer, '/v1/rerank', body);
    const fanned = await post(jobServer, '/v1/rerank', body);
    expect(sync.status).toBe(200);
    expect(fanned.status).toBe(200);
    expect(fanned.headers.get('x-rerank-job-id')).toBeTruthy();
    expect(fanned.body['results']).toEqual(sync.body['results']);
    expect((fanned.body['usage'] as { total_tokens: number }).total_tokens).toBe(
      (sync.body['usage'] as { total_tokens: number }).total_tokens,
    );
  });

  it('Prefer: respond-async answers 202 and the poll returns the result in the submitting dialect', async () => {
    const body = { input: { query: QUERY, documents: DOCS }, parameters: { top_n: 5 } };
    const path = '/api/v1/services/rerank/text-rerank/text-rerank';
    const accepted = await post(jobServer, path, body, { prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    const pollUrl = accepted.body['poll_url'] as string;
    expect(accepted.headers.get('location')).toBe(pollUrl);
    expect(accepted.body['progress']).toEqual({ chunks_done: expect.any(Number), chunks_total: Math.ceil(DOCS.length / 7) });

    let view = await poll(jobServer, pollUrl);
    const seen: number[] = [];
    for (let i = 0; i < 200 && view.body['status'] === 'running'; i++) {
      seen.push((view.body['progress'] as { chunks_done: number }).chunks_done);
      await new Promise((r) => setTimeout(r, 50));
      view = await poll(jobServer, pollUrl);
    }
    expect(view.status).toBe(200);
    expect(view.body['status']).toBe('succeeded');
    expect([...seen].sort((a, b) => a - b)).toEqual(seen); // progress never goes down
    const sync = await post(syncServer, path, body);
    expect((view.body['result'] as { output: unknown }).output).toEqual(sync.body['output']);
  });

  it('a job is invisible to other keys and unknown ids are 404', async () => {
    const accepted = await post(jobServer, '/v1/rerank/jobs', { query: QUERY, documents: DOCS.slice(0, 3) });
    expect(accepted.status).toBe(202);
    const pollUrl = accepted.body['poll_url'] as string;
    expect((await poll(jobServer, pollUrl, KEY_B)).status).toBe(404);
    const unknown = await poll(jobServer, '/v1/rerank/jobs/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('a result larger than one answer', () => {
  // 45 documents of 65,000 characters of quotes and newlines: 5.85 MB as a request, over 10 MB as Lambda's escaped answer.
  const big = Array.from({ length: 45 }, (_, i) => `${i} ${'"\n'.repeat(32_498)}`);

  it('is read in pages that concatenate to the whole sorted list (never a 413), and the client SDK reads every page', async () => {
    const submitted = await post(jobServer, '/v1/rerank/jobs', { query: 'quotes', documents: big, return_documents: true });
    expect(submitted.status).toBe(202);
    const path = submitted.body['poll_url'] as string;
    let view = await poll(jobServer, path);
    while (view.body['status'] === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      view = await poll(jobServer, path);
    }
    expect(view.status).toBe(200);
    const results: { index: number; relevance_score: number; document: { text: string } }[] = [];
    let page = view.body;
    let pages = 0;
    for (;;) {
      pages += 1;
      const slice = page['result_page'] as { offset: number; limit: number; total: number; next_offset: number | null };
      expect(slice.offset).toBe(results.length);
      expect(slice.total).toBe(big.length);
      results.push(...(page['result'] as { results: typeof results }).results);
      if (slice.next_offset === null) break;
      const next = await poll(jobServer, `${path}?offset=${slice.next_offset}`);
      expect(next.status).toBe(200);
      page = next.body;
    }
    expect(pages).toBeGreaterThan(1);
    expect(results).toHaveLength(big.length);
    expect(new Set(results.map((r) => r.index)).size).toBe(big.length);
    for (const [k, r] of results.entries()) {
      expect(r.document.text).toBe(big[r.index]);
      if (k > 0) expect(r.relevance_score).toBeLessThanOrEqual(results[k - 1]!.relevance_score);
    }
    // Asking for a slice gives that slice.
    const second = await poll(jobServer, `${path}?offset=3&limit=2`);
    expect((second.body['result'] as { results: typeof results }).results.map((r) => r.index)).toEqual(
      results.slice(3, 5).map((r) => r.index),
    );
    expect(second.body['result_page']).toEqual({ offset: 3, limit: 2, total: big.length, next_offset: 5 });
    expect((await poll(jobServer, `${path}?limit=0`)).status).toBe(400);

    const client = new RerankClient({ baseUrl: `${jobServer.url}/v1`, mode: 'openai', apiKey: KEY_A });
    const whole = await client.jobs.wait(submitted.body['id'] as string);
    expect(whole.results.map((r) => r[0])).toEqual(results.map((r) => r.index));
  });
});

describe('cancelling a job', () => {
  it('DELETE ends a running job failed with a reason; repeating it changes nothing; other keys get 404', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `${DOCS[i % DOCS.length]} ${i}`);
    const accepted = await post(jobServer, '/v1/rerank/jobs', { query: QUERY, documents: many, batch_size: 2 });
    expect(accepted.status).toBe(202);
    const pollUrl = accepted.body['poll_url'] as string;
    const del = (key: string) => fetch(`${jobServer.url}${pollUrl}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect((await del(KEY_B)).status).toBe(404);
    const cancelled = await del(KEY_A);
    expect(cancelled.status).toBe(200);
    const view = (await cancelled.json()) as { status: string; error?: { message: string; code?: string } };
    expect(view.status).toBe('failed');
    // The status word stays the job wire's `failed`; the code tells a cancel from a failure.
    expect(view.error).toEqual({ message: 'cancelled by the client', code: 'job_cancelled' });
    const again = (await (await del(KEY_A)).json()) as { status: string };
    expect(again.status).toBe('failed');
  });
});
