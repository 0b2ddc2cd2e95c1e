import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryApiKeyStore } from '../../shared/adapters/memory/in-memory-api-key-store.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';
import { prometheusSamples as samples } from '../support/prometheus-samples.js';

// `GET /metrics` on the local server: Prometheus' text format, fed by real requests and a real job.
let open: RunningServer;
let keyed: RunningServer;
let dir: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rerank-metrics-'));
  const file = join(dir, 'keys.json');
  key = (await new InMemoryApiKeyStore({ file }).create('scraper')).key;
  [open, keyed] = await Promise.all([startDevServer({ RERANK_SYNC_MAX_DOCUMENTS: '4' }), startDevServer({ RERANK_KEYS_FILE: file })]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), keyed?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('GET /metrics', () => {
  it('counts requests by route template, documents and tokens by model, and jobs by how they ended', async () => {
    expect((await post(open.url, '/v1/rerank', { query: 'q', documents: ['a', 'b'] })).status).toBe(200);
    const submitted = await post(open.url, '/v1/rerank/jobs', {
      query: 'q',
      documents: Array.from({ length: 9 }, (_, i) => `doc ${i}`),
      batch_size: 3,
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    let status = 'running';
    for (let i = 0; i < 300 && status === 'running'; i++) {
      status = ((await (await fetch(`${open.url}/v1/rerank/jobs/${id}`)).json()) as { status: string }).status;
      if (status === 'running') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('succeeded');

    const res = await fetch(`${open.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const s = samples(await res.text());
    expect(s.get('rerank_http_requests_total{method="POST",route="/v1/rerank",status="200"}')).toBe(1);
    expect(s.get('rerank_http_requests_total{method="POST",route="/v1/rerank/jobs",status="202"}')).toBe(1);
    expect(s.get('rerank_http_requests_total{method="GET",route="/v1/rerank/jobs/{id}",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(s.get('rerank_request_documents_sum{dialect="openai",model="tinybert-l2-fixture"}')).toBe(2 + 9);
    expect(s.get('rerank_tokens_total{dialect="openai",model="tinybert-l2-fixture"}')).toBeGreaterThan(0);
    expect(s.get('rerank_jobs_ended_total{status="succeeded"}')).toBe(1);
    expect(s.get('rerank_job_duration_seconds_count{status="succeeded"}')).toBe(1);
  });

  it('needs a key when keys exist, like every private route', async () => {
    const refused = await fetch(`${keyed.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const scraped = await fetch(`${keyed.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('rerank_http_requests_total{method="GET",route="/metrics",status="401"} 1');
  });
});
