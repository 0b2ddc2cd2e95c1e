import { describe, expect, it } from 'vitest';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { InMemoryUploadStore } from '../../../shared/adapters/memory/in-memory-upload-store.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { DEFAULT_FILE_LIMITS } from '../../../shared/files/file-limits.js';
import { FilesService } from '../../../shared/files/files-service.js';
import { API_ROUTES } from '../../../shared/http/api-routes.js';
import { bodyTooLargeError } from '../../../shared/http/body-too-large-error.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { testRuntime } from '../../support/test-runtime.js';

const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const routeOf = (method: string, path: string) => API_ROUTES.find((route) => route.method === method && route.path === path);

describe('every 413 names its way out', () => {
  it('a rerank body past the limit: split, Prefer: respond-async, or a batch over documents_file_id', async () => {
    const { app } = testRuntime({ scorers: [lengthScorer], limits: { maxBodyBytes: 2_000 } });
    const reply = await app.handle(
      apiGatewayEvent({
        method: 'POST',
        path: '/v1/rerank',
        json: { query: 'q', documents: Array.from({ length: 200 }, () => 'some document') },
      }),
    );
    expect(reply.statusCode).toBe(413);
    const { message } = JSON.parse(reply.body as string) as { message: string };
    expect(message).toMatch(/^request body is \d+ bytes; the limit is 2000 bytes/);
    expect(message).toMatch(/Split the documents over several requests/);
    expect(message).toMatch(/Prefer: respond-async/);
    expect(message).toMatch(/documents_file_id \(POST \/v1\/batches\)/);
    // Before the body is read (the local server's check on Content-Length) the same words.
    expect(bodyTooLargeError(routeOf('POST', '/rerank'), 7_756_926, 6_291_456).message).toMatch(/Split .*documents_file_id/);
  });

  it('an upload part past its size names part_size, on the route and in the Uploads service', async () => {
    const part = DEFAULT_FILE_LIMITS.maxPartBytes;
    expect(bodyTooLargeError(routeOf('POST', '/v1/uploads/{id}/parts'), part + 10_000, part + 1_000).message).toMatch(
      new RegExp(`upload part is at most ${part} bytes .*part_size=${part}`),
    );
    const files = new FilesService(
      new InMemoryFileStore(),
      { ...DEFAULT_FILE_LIMITS, maxPartBytes: 8 },
      { uploads: new InMemoryUploadStore(), quota: new InMemoryQuotaLedger() },
    );
    const upload = await files.createUpload('a', { filename: 'c.jsonl', purpose: 'batch', bytes: 100, mimeType: 'application/jsonl' });
    async function* tooMuch(): AsyncIterable<Uint8Array> {
      yield Buffer.from('0123456789');
    }
    const refused = await files.addPart('a', upload.id, tooMuch()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'payload_too_large', param: 'data', message: expect.stringMatching(/part_size=8/) });
    const tooBig = await files
      .create('a', { filename: 'f', purpose: 'batch', size: DEFAULT_FILE_LIMITS.maxFileBytes + 1 }, tooMuch())
      .catch((e: unknown) => e);
    expect(tooBig).toMatchObject({ kind: 'payload_too_large', message: expect.stringMatching(/split it over several files/) });
  });

  it('an answer past 6 MB names return_documents, top_n and a job read page by page', async () => {
    const { app } = testRuntime({
      scorers: [lengthScorer],
      limits: { maxBodyBytes: 8_000_000, maxDocuments: 10_000 },
      plan: { syncMaxDocuments: 10_000, syncMaxChars: 10_000_000 },
    });
    const documents = Array.from({ length: 100 }, (_, i) => `${i} ${'x'.repeat(65_000)}`);
    const reply = await app.handle(
      apiGatewayEvent({ method: 'POST', path: '/v1/rerank', json: { query: 'q', documents, return_documents: true } }),
    );
    expect(reply.statusCode).toBe(413);
    expect((JSON.parse(reply.body as string) as { message: string }).message).toMatch(
      /return_documents to false.*top_n.*Prefer: respond-async/,
    );
  });
});
