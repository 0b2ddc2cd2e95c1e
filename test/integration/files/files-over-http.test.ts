import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAwsStack, type LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';

/**
 * The Files and Uploads bounds over real HTTP. Quotas under parallel requests: `npm start` (local folder, ledger in memory) and the same server on
 * the aws backend (DynamoDB Local for the ledger and uploads, moto's S3 for the bytes). Before the ledger, a quota was
 * read and then written: 50 parallel files were all kept under a limit of 40 locally, and S3 had no quota at all.
 */
const FILES_LIMIT = 40;
const BYTES_LIMIT = 64 * 1024;
const KEYS = ['race-files', 'race-uploads', 'race-parts', 'field-bounds'];

interface Target {
  readonly name: string;
  server?: RunningServer;
  stack?: LocalAwsStack;
}
const targets: Target[] = [{ name: 'npm start (local folder, ledger in memory)' }, { name: 'aws backend (DynamoDB Local, S3 on moto)' }];
const serverEnv = {
  RERANK_API_KEYS: KEYS.join(','),
  RERANK_FILES_MAX_PER_KEY: String(FILES_LIMIT),
  RERANK_FILES_MAX_STORED_BYTES: String(BYTES_LIMIT),
};

beforeAll(async () => {
  const [local, aws] = targets as [Target, Target];
  const stack = await startLocalAwsStack();
  aws.stack = stack;
  [local.server, aws.server] = await Promise.all([startDevServer(serverEnv), startDevServer({ ...stack.env, ...serverEnv })]);
}, 180_000);

afterAll(async () => {
  await Promise.all(targets.map((t) => t.server?.stop()));
  await Promise.all(targets.map((t) => t.stack?.stop()));
});

async function postFile(url: string, key: string, text: string): Promise<number> {
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob([text]), 'in.jsonl');
  const res = await fetch(`${url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  await res.arrayBuffer();
  return res.status;
}

async function postJson(url: string, key: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function postPart(
  url: string,
  key: string,
  uploadId: string,
  bytes: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.set('data', new Blob([Buffer.alloc(bytes, 'a')]), 'part');
  const res = await fetch(`${url}/v1/uploads/${uploadId}/parts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS[2]}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const tally = (statuses: readonly number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.each(targets)('quotas under parallel requests: $name', (target) => {
  const url = () => target.server!.url;

  it(`keeps exactly ${FILES_LIMIT} of 50 files sent at once; a delete frees one`, async () => {
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => postFile(url(), KEYS[0]!, `{"n":${i}}\n`)));
    expect(tally(statuses)).toEqual({ 200: FILES_LIMIT, 429: 10 });
    const listed = (await (await fetch(`${url()}/v1/files`, { headers: { authorization: `Bearer ${KEYS[0]}` } })).json()) as {
      data: { id: string }[];
    };
    expect(listed.data).toHaveLength(FILES_LIMIT);
    await fetch(`${url()}/v1/files/${listed.data[0]!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${KEYS[0]}` } });
    expect(await postFile(url(), KEYS[0]!, 'one more\n')).toBe(200);
    expect(await postFile(url(), KEYS[0]!, 'and no more\n')).toBe(429);
  });

  it('reserves the bytes an upload announces: parallel creates cannot together pass the stored-bytes quota', async () => {
    // 12 uploads of 8 KiB race for 64 KiB: 8 fit, and the 429 names the bound in the OpenAI envelope.
    const created = await Promise.all(
      Array.from({ length: 12 }, () =>
        postJson(url(), KEYS[1]!, '/v1/uploads', {
          filename: 'big.jsonl',
          purpose: 'batch',
          bytes: 8 * 1024,
          mime_type: 'application/jsonl',
        }),
      ),
    );
    expect(tally(created.map((c) => c.status))).toEqual({ 200: 8, 429: 4 });
    expect(created.find((c) => c.status === 429)?.body).toMatchObject({ error: { type: 'rate_limit_error' } });
    const cancelled = await postJson(
      url(),
      KEYS[1]!,
      `/v1/uploads/${String(created.find((c) => c.status === 200)!.body['id'])}/cancel`,
      {},
    );
    expect(cancelled.status).toBe(200);
    expect(
      (
        await postJson(url(), KEYS[1]!, '/v1/uploads', {
          filename: 'b.jsonl',
          purpose: 'batch',
          bytes: 8 * 1024,
          mime_type: 'application/jsonl',
        })
      ).status,
    ).toBe(200);
  });

  it('refuses every parallel part that would carry the parts past the announced bytes', async () => {
    const upload = await postJson(url(), KEYS[2]!, '/v1/uploads', {
      filename: 'p.jsonl',
      purpose: 'batch',
      bytes: 1_000,
      mime_type: 'application/jsonl',
    });
    expect(upload.status).toBe(200);
    const id = String(upload.body['id']);
    const parts = await Promise.all(Array.from({ length: 9 }, () => postPart(url(), KEYS[2]!, id, 200)));
    expect(tally(parts.map((p) => p.status))).toEqual({ 200: 5, 400: 4 });
    expect(parts.find((p) => p.status === 400)?.body).toMatchObject({ error: { param: 'data', type: 'invalid_request_error' } });
    const done = await postJson(url(), KEYS[2]!, `/v1/uploads/${id}/complete`, {
      part_ids: parts.filter((p) => p.status === 200).map((p) => p.body['id']),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', file: { bytes: 1_000 } });
  });
});

describe.each(targets)('upload fields are bounded, with a 400 in the OpenAI envelope: $name', (target) => {
  const url = () => target.server!.url;
  const create = (fields: Record<string, unknown>) =>
    postJson(url(), KEYS[3]!, '/v1/uploads', {
      filename: 'f.jsonl',
      purpose: 'batch',
      bytes: 10,
      mime_type: 'application/jsonl',
      ...fields,
    });

  it('refuses a mime_type over 255 characters (a 6 MiB one was kept for ever in memory, and a 500 on DynamoDB)', async () => {
    for (const mimeType of ['x'.repeat(6 * 1024 * 1024 - 1_000), 'a/' + 'b'.repeat(300), 'not a mime type', '']) {
      const res = await create({ mime_type: mimeType });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { type: 'invalid_request_error', param: 'mime_type' } });
    }
    expect((await create({ mime_type: 'text/plain; charset=utf-8' })).status).toBe(200);
  });

  it('refuses a filename, a purpose and a size out of bounds, and part ids and an md5 that cannot be ones', async () => {
    expect((await create({ filename: 'f'.repeat(513) })).body).toMatchObject({ error: { param: 'filename' } });
    expect((await create({ purpose: 'p'.repeat(100_000) })).body).toMatchObject({ error: { param: 'purpose' } });
    expect((await create({ bytes: 2 ** 60 })).status).toBe(413);
    const upload = await create({});
    const id = String(upload.body['id']);
    const tooMany = await postJson(url(), KEYS[3]!, `/v1/uploads/${id}/complete`, {
      part_ids: Array.from({ length: 1_001 }, (_, i) => `part_${i}`),
    });
    expect(tooMany).toMatchObject({ status: 400, body: { error: { param: 'part_ids' } } });
    const longId = await postJson(url(), KEYS[3]!, `/v1/uploads/${id}/complete`, { part_ids: ['part_' + 'x'.repeat(100_000)] });
    expect(longId).toMatchObject({ status: 400, body: { error: { param: 'part_ids' } } });
    expect(JSON.stringify(longId.body).length).toBeLessThan(1_000);
    const md5 = await postJson(url(), KEYS[3]!, `/v1/uploads/${id}/complete`, { part_ids: ['part_1'], md5: 'z'.repeat(100) });
    expect(md5).toMatchObject({ status: 400, body: { error: { param: 'md5' } } });
  });
});
