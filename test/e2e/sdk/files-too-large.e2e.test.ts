import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI, { APIError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';

/**
 * Issue 39: a file over the 6 MiB body limit posted to `POST /v1/files`, by each client a new user would use, gets a
 * 413 whose message says what to do instead (the Uploads API and its part size) - not a reset, a retry loop or an
 * empty body. 7 MiB is between the service's limit and API Gateway's 10 MB; 12 MiB is past both.
 */
const KEY = 'sk-files-too-large-0123456789';
const MiB = 1024 * 1024;
const run = promisify(execFile);
/** What the message must say: the route to use instead and the part size, in bytes. */
const POINTS_THE_WAY = /limit is 6291456 bytes.*POST \/v1\/uploads .*parts of at most 4194304 bytes/;

let server: RunningServer;
let scratch: string;
const files: Record<'7' | '12', string> = { '7': '', '12': '' };

/** A JSONL batch input of about `mib` MiB, as a user would have one. */
function batchInput(mib: number): Buffer {
  const line = `${JSON.stringify({ custom_id: 'q', method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: ['d'.repeat(900)] } })}\n`;
  return Buffer.from(line.repeat(Math.ceil((mib * MiB) / line.length)));
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'files-too-large-'));
  for (const mib of [7, 12] as const) {
    files[`${mib}`] = join(scratch, `requests-${mib}.jsonl`);
    writeFileSync(files[`${mib}`], batchInput(mib));
  }
  server = await startDevServer({ RERANK_API_KEYS: KEY });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('POST /v1/files over the body limit points to /v1/uploads', () => {
  it('the OpenAI Node SDK gets a 413 APIError with the message, at 7 MiB and 12 MiB', async () => {
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
    for (const mib of [7, 12] as const) {
      const error = await openai.files
        .create({ file: await toFile(batchInput(mib), 'requests.jsonl'), purpose: 'batch' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(413);
      expect((error as APIError).message).toMatch(POINTS_THE_WAY);
      expect((error as APIError).param).toBe('file');
    }
  });

  it('the OpenAI Python SDK (default retries) gets a 413 APIStatusError with the message, at 7 MiB and 12 MiB', async () => {
    // `python3 -m pip install openai` (the local index; .ci/run installs it): missing, this fails rather than skips.
    const script = [
      'import os, sys, openai',
      'client = openai.OpenAI(api_key=os.environ["KEY"], base_url=os.environ["BASE_URL"])',
      'for path in sys.argv[1:]:',
      '    try:',
      '        client.files.create(file=open(path, "rb"), purpose="batch")',
      '        print("created")',
      '    except openai.APIStatusError as e:',
      '        print(e.status_code, e.body["message"])',
    ].join('\n');
    const { stdout } = await run('python3', ['-c', script, files['7'], files['12']], {
      env: { ...process.env, KEY, BASE_URL: `${server.url}/v1` },
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`^413 request body is \\d+ bytes; the ${POINTS_THE_WAY.source}`));
  });

  it('curl without "Expect:" (the whole body sent at once) prints the 413 and the message, at 7 MiB and 12 MiB', async () => {
    for (const mib of ['7', '12'] as const) {
      const { stdout } = await run(
        'curl',
        [
          '-sS',
          '-H',
          'Expect:',
          '-H',
          `Authorization: Bearer ${KEY}`,
          '-F',
          'purpose=batch',
          '-F',
          `file=@${files[mib]}`,
          '-w',
          '\n%{http_code}',
          `${server.url}/v1/files`,
        ],
        {
          maxBuffer: 1 << 20,
        },
      );
      const [body, status] = stdout.split('\n');
      expect(status).toBe('413');
      expect((JSON.parse(body!) as { error: { message: string; code: string } }).error).toMatchObject({
        code: 'payload_too_large',
        message: expect.stringMatching(POINTS_THE_WAY),
      });
    }
  });

  it("a 12 MiB body sent chunked (no Content-Length) is read to API Gateway's 10 MB, then answered 413 with the message", async () => {
    const { hostname, port } = new URL(server.url);
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/v1/files',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(MiB, 'a');
      for (let i = 0; i < 12; i++) req.write(chunk);
      req.end();
    });
    expect(reply.status).toBe(413);
    expect((JSON.parse(reply.body) as { error: { message: string } }).error.message).toMatch(
      /^request body is more than 10485760 bytes; the limit is 6291456 bytes.*POST \/v1\/uploads /,
    );
  });

  it('a part over the body limit on /v1/uploads/{id}/parts names the part size', async () => {
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const upload = await openai.uploads.create({ filename: 'big.jsonl', purpose: 'batch', bytes: 7 * MiB, mime_type: 'application/jsonl' });
    const error = await openai.uploads.parts
      .create(upload.id, { data: await toFile(Buffer.alloc(7 * MiB, 'a'), 'part') })
      .catch((e: unknown) => e);
    expect((error as APIError).status).toBe(413);
    expect((error as APIError).message).toMatch(/an upload part is at most 4194304 bytes \(4 MiB\)/);
  });
});
