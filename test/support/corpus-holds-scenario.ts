import { expect } from 'vitest';
import { keyIdOf } from '../../shared/auth/api-key.js';
import { FileNotFoundError } from '../../shared/files/file-errors.js';
import type { ByteRange } from '../../shared/files/file-store.js';
import type { QuotaLedger } from '../../shared/quota/quota-ledger.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/index.js';
import { InMemoryFileStore } from './in-memory-file-store.js';
import { call, type Loose } from './queued-pairs-scenario.js';
import { testRuntime, type BatchLane, type TestRuntime } from './test-runtime.js';

/** A file store that runs `afterRangeRead` once, right after a ranged read of `fileId` ends (a shard's texts were read). */
class DeleteDuringAnalysis extends InMemoryFileStore {
  fileId: string | undefined;
  afterRangeRead: (() => Promise<void>) | undefined;

  override async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    yield* super.read(id, range);
    const hook = this.afterRangeRead;
    if (range !== undefined && id === this.fileId && hook) {
      this.afterRangeRead = undefined;
      await hook();
    }
  }
}

const corpusLine = (customId: string, fileId: string) =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/rerank',
    body: { model: 'bm25', query: 'python http', documents_file_id: fileId },
  });

/**
 * A corpus deleted (DELETE /v1/files/{id}) while a batch line analyses it - after its shard's texts are read, before the
 * shard is stored: the line ends with `file_not_found` naming the file (the task does not fail, so nothing is
 * dead-lettered), the batch completes, and the key's ledger keeps no hold for the shard (only the error file's bytes).
 */
export async function expectCorpusDeletedMidAnalysis(quota?: QuotaLedger): Promise<void> {
  const clock = { nowMs: Date.UTC(2026, 0, 1) };
  const files = new DeleteDuringAnalysis({ now: () => Math.floor(clock.nowMs / 1000) });
  const base: TestRuntime = testRuntime({
    scorers: [createBm25Scorer({ id: 'bm25' })],
    apiKeys: ['key-a'],
    limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
    batches: { files },
    ...(quota === undefined ? {} : { quota }),
  });
  const lane = base.batches as BatchLane;
  const owner = keyIdOf('key-a');
  // The key's ledger may hold what an earlier test on the same table left (its output files): counted from here.
  const before = await base.quota.usage(owner);
  const docs = Array.from({ length: 40 }, (_, i) => JSON.stringify(`document ${i} about python http clients`));
  const corpus = await files.put(owner, 'corpus.jsonl', 'user_data', `${docs.join('\n')}\n`);
  const input = await files.put(owner, 'in.jsonl', 'batch', `${corpusLine('c', corpus.id)}\n`);
  files.fileId = corpus.id;
  files.afterRangeRead = async () => {
    expect((await call(base, 'DELETE', `/v1/files/${corpus.id}`, 'key-a')).status).toBe(200);
  };
  const created = await call(base, 'POST', '/v1/batches', 'key-a', {
    input_file_id: input.id,
    endpoint: '/v1/rerank',
    completion_window: '24h',
  });
  expect(created.status).toBe(200);
  await lane.queue.run();
  expect(files.afterRangeRead).toBeUndefined();
  const done = await call(base, 'GET', `/v1/batches/${created.body['id']}`, 'key-a');
  expect(done.body).toMatchObject({ status: 'completed', request_counts: { total: 1, completed: 0, failed: 1 } });
  const errorFile = files.text(done.body['error_file_id'] as string);
  const [line] = errorFile
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Loose);
  expect(line?.['error']).toEqual({
    code: 'file_not_found',
    message: expect.stringContaining(`file '${corpus.id}' was deleted`) as unknown,
  });
  // Nothing of the shard is held: the key holds its error file, and nothing else.
  expect(await base.quota.usage(owner)).toMatchObject({
    stored_bytes: before.stored_bytes + Buffer.byteLength(errorFile),
    files: before.files + 1,
    running_batches: 0,
    queued_pairs: 0,
  });
}

/** A file store whose full read of `fileId` has the file deleted after its first piece, and then fails as S3's would. */
class DeleteWhilePlanning extends InMemoryFileStore {
  fileId: string | undefined;
  onFirstPiece: (() => Promise<void>) | undefined;

  override async *read(id: string, range?: ByteRange): AsyncIterable<Uint8Array> {
    for await (const piece of super.read(id, range)) {
      yield piece;
      const hook = this.onFirstPiece;
      if (range === undefined && id === this.fileId && hook) {
        this.onFirstPiece = undefined;
        await hook();
      }
      if ((await this.get(id)) === undefined) throw new FileNotFoundError(id);
    }
  }
}

/**
 * A corpus deleted while the planner reads it (to count and cut its documents): every line over it ends with
 * `file_not_found` naming the file - not `invalid_request` ("not a file of yours", which a retried plan task would
 * find) - and the batch completes without a failed task.
 */
export async function expectCorpusDeletedWhilePlanned(): Promise<void> {
  const files = new DeleteWhilePlanning();
  const base: TestRuntime = testRuntime({
    scorers: [createBm25Scorer({ id: 'bm25' })],
    apiKeys: ['key-a'],
    limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
    batches: { files },
  });
  const owner = keyIdOf('key-a');
  const docs = Array.from({ length: 400 }, (_, i) => JSON.stringify(`document ${i} about python http clients`));
  const corpus = await files.put(owner, 'corpus.jsonl', 'user_data', `${docs.join('\n')}\n`);
  const input = await files.put(owner, 'in.jsonl', 'batch', `${corpusLine('c1', corpus.id)}\n${corpusLine('c2', corpus.id)}\n`);
  files.fileId = corpus.id;
  files.onFirstPiece = async () => {
    expect((await call(base, 'DELETE', `/v1/files/${corpus.id}`, 'key-a')).status).toBe(200);
  };
  const created = await call(base, 'POST', '/v1/batches', 'key-a', {
    input_file_id: input.id,
    endpoint: '/v1/rerank',
    completion_window: '24h',
  });
  expect(created.status).toBe(200);
  await (base.batches as BatchLane).queue.run();
  expect(files.onFirstPiece).toBeUndefined();
  const done = await call(base, 'GET', `/v1/batches/${created.body['id']}`, 'key-a');
  expect(done.body).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 0, failed: 2 } });
  const lines = files
    .text(done.body['error_file_id'] as string)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Loose);
  expect(lines.map((line) => [line['custom_id'], line['error']['code']])).toEqual([
    ['c1', 'file_not_found'],
    ['c2', 'file_not_found'],
  ]);
  for (const line of lines) expect(line['error']['message']).toContain(`'${corpus.id}' was deleted`);
}
