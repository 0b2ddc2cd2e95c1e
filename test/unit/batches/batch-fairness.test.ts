import { describe, expect, it } from 'vitest';
import { InProcessTaskQueue } from '../../../shared/adapters/in-process/in-process-task-queue.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { engineOverStore } from '../../../scripts/measure/batches/engine-over-store.js';

/**
 * Issue 33 item 5: one key's batch must not starve another's. Key A's 300-line batch is planned and queued first; key B's
 * one-line batch, created after, must end while A's is still running - on one runner, as the embedded engine shares its
 * workers. Before the fix the queue was first-in first-out across keys, and B ended only after all of A's lines.
 */
describe('batches of two keys on shared workers', () => {
  it("ends key B's one-line batch while key A's 300-line batch is still in progress", async () => {
    const files = new InMemoryFileStore();
    // One runner, as the embedded engine shares its workers; the handlers are attached at once, so A plans first.
    const queue = new InProcessTaskQueue<BatchTask>({ concurrency: 1, batchSize: 1, maxReceiveCount: 3, retryDelayMs: 1 });
    const engine = engineOverStore([createBm25Scorer({ id: 'bm25' })], files, {
      queue,
      defaultBatchSize: 8,
      requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
    });
    const line = (i: number) =>
      JSON.stringify({
        custom_id: `r${i}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: `python ${i}`, documents: ['python http', 'lemon cake', `doc ${i}`] },
      });
    const big = await files.put('key-a', 'a.jsonl', 'batch', Array.from({ length: 300 }, (_, i) => line(i)).join('\n') + '\n');
    const small = await files.put('key-b', 'b.jsonl', 'batch', line(0) + '\n');
    const a = await engine.create('key-a', { inputFileId: big.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    // A's planning runs (and queues its 300 chunk tasks) before B exists.
    for (let i = 0; i < 200 && (await engine.find(a.batch.id, 'key-a'))?.batch.status === 'validating'; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect((await engine.find(a.batch.id, 'key-a'))?.batch.status).toBe('in_progress');
    const b = await engine.create('key-b', { inputFileId: small.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    let bView = b;
    while (bView.batch.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 5));
      bView = (await engine.find(b.batch.id, 'key-b')) ?? bView;
      expect(bView.batch.status).not.toBe('failed');
    }
    const aWhenBEnded = await engine.find(a.batch.id, 'key-a');
    expect(aWhenBEnded?.batch.status).toBe('in_progress');
    expect(aWhenBEnded?.counts.completed).toBeLessThan(300);
    await queue.idle();
    expect((await engine.find(a.batch.id, 'key-a'))?.counts).toEqual({ total: 300, completed: 300, failed: 0 });
  });
});
