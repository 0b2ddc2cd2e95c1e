import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { storeDerived } from '../../../shared/batches/batch-quota.js';
import { FileNotFoundError } from '../../../shared/files/file-errors.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';
import { expectCorpusDeletedMidAnalysis, expectCorpusDeletedWhilePlanned } from '../../support/corpus-holds-scenario.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { call, type Loose } from '../../support/queued-pairs-scenario.js';

const A = keyIdOf('key-a');
const corpusLine = (customId: string, fileId: string, query: string) =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/rerank',
    body: { model: 'bm25', query, documents_file_id: fileId, top_n: 3 },
  });

describe("a corpus' stored analysis on the key's ledger", () => {
  it('ends the lines of a corpus deleted mid-analysis with file_not_found, holding nothing for the shard (never a dead-letter)', async () => {
    await expectCorpusDeletedMidAnalysis();
  });

  it('ends the lines of a corpus deleted while the planner reads it with file_not_found, not invalid_request', async () => {
    await expectCorpusDeletedWhilePlanned();
  });

  it('takes no hold for a file that is gone, and gives back the hold of a write that fails', async () => {
    // The file is deleted between the hold and the write: putDerived finds no file.
    const files = new (class extends InMemoryFileStore {
      override async putDerived(fileId: string): Promise<void> {
        throw new FileNotFoundError(fileId);
      }
    })();
    const quota = { ledger: new InMemoryQuotaLedger(), limits: { stored_bytes: 1_000_000 } };
    const gone = storeDerived(quota, files, { fileId: 'file-gone', ownerKeyId: A }, 'x.shard', new Uint8Array(100));
    await expect(gone).rejects.toBeInstanceOf(FileNotFoundError);
    expect((await quota.ledger.usage(A)).stored_bytes).toBe(0);
    const file = await files.put(A, 'corpus.jsonl', 'user_data', '"a"\n');
    const failing = storeDerived(quota, files, { fileId: file.id, ownerKeyId: A }, 'x.shard', new Uint8Array(100));
    await expect(failing).rejects.toBeInstanceOf(FileNotFoundError);
    expect((await quota.ledger.usage(A)).stored_bytes).toBe(0);
  });

  it("refuses a corpus line whose analysis the key's stored bytes cannot hold, naming the quota (no silent recompute)", async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { chunkCost: 32_768 }, { maxStoredBytesPerKey: 6_000 });
    const docs = Array.from({ length: 300 }, (_, i) => JSON.stringify(`document ${i} on python http clients, queues and parsers`));
    const corpus = await rt.files.put(A, 'corpus.jsonl', 'user_data', `${docs.join('\n')}\n`);
    for (const queries of [['python http'], ['http queues', 'parsers']]) {
      const input = await rt.files.put(A, 'in.jsonl', 'batch', `${queries.map((q, i) => corpusLine(`l${i}`, corpus.id, q)).join('\n')}\n`);
      const created = await call(rt as never, 'POST', '/v1/batches', 'key-a', {
        input_file_id: input.id,
        endpoint: '/v1/rerank',
        completion_window: '24h',
      });
      await rt.queue.run();
      const done = await call(rt as never, 'GET', `/v1/batches/${created.body['id']}`, 'key-a');
      expect(done.body, JSON.stringify(done.body['errors'])).toMatchObject({
        status: 'completed',
        request_counts: { completed: 0, failed: queries.length },
      });
      const errors = rt.files
        .text(done.body['error_file_id'] as string)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Loose);
      for (const line of errors) {
        expect(line['error']['code']).toBe('rate_limited');
        expect(line['error']['message']).toMatch(
          /cannot be stored: this key holds \d+ stored bytes of at most 6000 \(RERANK_FILES_MAX_STORED_BYTES\)/,
        );
      }
    }
  });
});
