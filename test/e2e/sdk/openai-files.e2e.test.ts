import { createHash, randomBytes } from 'node:crypto';
import OpenAI, { BadRequestError, ConflictError, NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RerankClient } from '../../../shared/client/index.js';
import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';

/**
 * The official `openai` SDK's Files and Uploads calls against `npm start` itself (the local-folder FileStore, the
 * in-memory upload store), then a batch over an uploaded file, scored by the fixture cross-encoder (ONNX).
 */
let server: RunningServer;
const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
const MiB = 1024 * 1024;

beforeAll(async () => {
  server = await startDevServer({ RERANK_API_KEYS: 'key-a,key-b' });
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

describe('openai SDK: files on npm start', () => {
  it('create, retrieve, list, content and delete; another key sees a 404', async () => {
    const openai = client('key-a');
    const text = '{"custom_id":"a"}\n{"custom_id":"b"}\n';
    const created = await openai.files.create({ file: await toFile(Buffer.from(text), 'in.jsonl'), purpose: 'batch' });
    expect(created).toMatchObject({ object: 'file', bytes: text.length, filename: 'in.jsonl', purpose: 'batch', status: 'processed' });
    expect(created.expires_at).toBeGreaterThan(created.created_at);
    expect(await openai.files.retrieve(created.id)).toMatchObject({ id: created.id, bytes: text.length });
    const listed: string[] = [];
    for await (const file of openai.files.list()) listed.push(file.id);
    expect(listed).toContain(created.id);
    const response = await openai.files.content(created.id);
    expect(await response.text()).toBe(text);
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''in.jsonl");

    await expect(client('key-b').files.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client('key-b').files.content(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client('key-b').files.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);

    expect(await openai.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    await expect(openai.files.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a purpose it does not store and a form without a file, in the OpenAI envelope', async () => {
    const openai = client('key-a');
    const bad = await openai.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'fine-tune' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect((bad as BadRequestError).param).toBe('purpose');
    const form = new FormData();
    form.set('purpose', 'batch');
    const res = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: { authorization: 'Bearer key-a' }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'file', type: 'invalid_request_error' } });
  });
});

describe('openai SDK: uploads on npm start', () => {
  it('assembles a 9 MiB file from 4 MiB parts in the order given, checked by MD5', async () => {
    const openai = client('key-a');
    const bytes = randomBytes(9 * MiB);
    const upload = await openai.uploads.create({
      filename: 'corpus.jsonl',
      purpose: 'batch',
      bytes: bytes.length,
      mime_type: 'application/jsonl',
    });
    expect(upload).toMatchObject({ object: 'upload', status: 'pending', bytes: bytes.length, filename: 'corpus.jsonl' });
    const slices = [bytes.subarray(0, 4 * MiB), bytes.subarray(4 * MiB, 8 * MiB), bytes.subarray(8 * MiB)];
    // Sent out of order; part_ids gives the order.
    const parts = await Promise.all(
      slices.map(async (slice, i) => ({ i, part: await openai.uploads.parts.create(upload.id, { data: await toFile(slice, `p${i}`) }) })),
    );
    for (const { part } of parts) expect(part).toMatchObject({ object: 'upload.part', upload_id: upload.id });
    const ordered = parts.sort((a, b) => a.i - b.i).map((p) => p.part.id);
    const done = await openai.uploads.complete(upload.id, { part_ids: ordered, md5: createHash('md5').update(bytes).digest('hex') });
    expect(done).toMatchObject({
      status: 'completed',
      file: { object: 'file', bytes: bytes.length, filename: 'corpus.jsonl', purpose: 'batch' },
    });
    const content = Buffer.from(await (await openai.files.content(done.file?.id as string)).arrayBuffer());
    expect(content.equals(bytes)).toBe(true);
    // The parts are not files of their own.
    const listed: string[] = [];
    for await (const file of openai.files.list()) listed.push(file.id);
    expect(listed).toContain(done.file?.id);
    expect(listed).toHaveLength(new Set(listed).size);
  });

  it('refuses a part over 4 MiB (413), parts that do not add up (400), a wrong MD5 (400), and work on a cancelled upload (409)', async () => {
    const openai = client('key-a');
    const upload = await openai.uploads.create({ filename: 'x.jsonl', purpose: 'batch', bytes: 10, mime_type: 'application/jsonl' });
    const big = await openai.uploads.parts
      .create(upload.id, { data: await toFile(Buffer.alloc(4 * MiB + 1), 'big') })
      .catch((e: unknown) => e);
    expect((big as { status?: number }).status).toBe(413);
    const part = await openai.uploads.parts.create(upload.id, { data: await toFile(Buffer.from('12345'), 'p') });
    const short = await openai.uploads.complete(upload.id, { part_ids: [part.id] }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(BadRequestError);
    const second = await openai.uploads.parts.create(upload.id, { data: await toFile(Buffer.from('67890'), 'p') });
    const wrongMd5 = await openai.uploads
      .complete(upload.id, { part_ids: [part.id, second.id], md5: '0'.repeat(32) })
      .catch((e: unknown) => e);
    expect((wrongMd5 as BadRequestError).param).toBe('md5');
    await expect(client('key-b').uploads.cancel(upload.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await openai.uploads.cancel(upload.id)).toMatchObject({ status: 'cancelled', file: null });
    await expect(openai.uploads.parts.create(upload.id, { data: await toFile(Buffer.from('x'), 'p') })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe('openai SDK: a batch over an uploaded file on npm start', () => {
  it('runs every line and scores as the sync route within 1e-6', async () => {
    const openai = client('key-a');
    const docs = ['requests is an HTTP library for Python', 'a cake recipe', 'httpx is an async HTTP client', 'the weather in Lisbon'];
    const bodies = [
      { query: 'python http', documents: docs },
      { query: 'baking', documents: docs, top_n: 2 },
    ];
    const jsonl = bodies.map((body, i) => JSON.stringify({ custom_id: `q${i}`, method: 'POST', url: '/v1/rerank', body })).join('\n');
    const input = await openai.files.create({ file: await toFile(Buffer.from(jsonl), 'requests.jsonl'), purpose: 'batch' });
    let batch = await openai.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/rerank' as '/v1/chat/completions',
      completion_window: '24h',
    });
    for (let i = 0; i < 300 && !['completed', 'failed'].includes(batch.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      batch = await openai.batches.retrieve(batch.id);
    }
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 } });
    const output = await (await openai.files.content(batch.output_file_id as string)).text();
    const lines = new Map(
      output
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              custom_id: string;
              response: { status_code: number; body: { results: { index: number; relevance_score: number }[] } };
            },
        )
        .map((l) => [l.custom_id, l.response]),
    );
    for (const [i, body] of bodies.entries()) {
      const sync = (await (
        await fetch(`${server.url}/v1/rerank`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer key-a' },
          body: JSON.stringify(body),
        })
      ).json()) as { results: { index: number; relevance_score: number }[] };
      const line = lines.get(`q${i}`);
      expect(line?.status_code).toBe(200);
      expect(line?.body.results.map((r) => r.index)).toEqual(sync.results.map((r) => r.index));
      for (const [k, r] of (line?.body.results ?? []).entries())
        expect(r.relevance_score).toBeCloseTo(sync.results[k]?.relevance_score as number, 6);
    }
  });
});

describe('client SDK: an input over one part goes up through /v1/uploads', () => {
  it('uploads 9 MiB in 4 MiB slices of the Blob and downloads the same bytes; the parts are not files of their own', async () => {
    const rerank = new RerankClient({ baseUrl: `${server.url}/v1`, mode: 'openai', apiKey: 'key-b' });
    const line = `${JSON.stringify({ custom_id: 'x', method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: ['d'.repeat(1000)] } })}\n`;
    const text = line.repeat(Math.ceil((9 * MiB) / line.length));
    const id = await rerank.batches.uploadFile(new Blob([text]));
    const chunks: Buffer[] = [];
    for await (const chunk of await rerank.batches.download(id)) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(text);
    const listed: string[] = [];
    for await (const file of client('key-b').files.list()) listed.push(file.id);
    expect(listed).toEqual([id]);
  });
});
