import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { isTerminal, type BatchTask } from '../../../shared/batches/batch-model.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { createChunkQueues } from '../../../scripts/emulators/create-chunk-queues.js';
import { startLocalAwsStack, type LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { startSqsPoller, type SqsPoller } from '../../../scripts/emulators/sqs-poller.js';
import { HANG_CEILING_MS, waitForProgress } from '../../../scripts/support/wait-for-progress.js';
import { gatedScorer, watchedWorker, WatchedFiles } from '../../support/finalize-once.js';

/**
 * The finalize-once regression on the AWS adapters: DynamoDbBatchStore and DynamoDbQuotaLedger on DynamoDB Local, the
 * files on moto's S3, the tasks on moto's SQS with pollers running the engine's worker routine. A batch whose end is
 * claimed - past its quota, or past its completion window - while RUNNERS lines are being scored writes its output once.
 */
const RUNNERS = 6;
const LINES = 16;
const padding = 'ranking words for a long returned document '.repeat(9);
const lines = Array.from({ length: LINES }, (_, i) =>
  JSON.stringify({
    custom_id: `line-${i}`,
    method: 'POST',
    url: '/v1/rerank',
    body: {
      model: 'bm25',
      query: `python ranking ${i}`,
      documents: ['python', 'ranking', 'queue', 'lambda'].map((w) => `${w} ${padding}`),
      return_documents: true,
    },
  }),
);

let stack: LocalAwsStack;
const pollers: SqsPoller[] = [];

beforeAll(async () => {
  stack = await startLocalAwsStack();
});

afterAll(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()));
  await stack?.stop();
});

async function setup(storedBytes: number) {
  const owner = `finalize-once-${randomUUID().slice(0, 8)}`;
  const clock = { offsetMs: 0 };
  const watched = new WatchedFiles(new S3FileStore(stack.s3, stack.filesBucket), owner);
  const gate = gatedScorer(createBm25Scorer({ id: 'bm25' }));
  const registry = createScorerRegistry([gate.scorer]);
  const queues = await createChunkQueues(stack.sqs, `finalize-once-${owner}`, { maxReceiveCount: 3, visibilityTimeoutSeconds: 60 });
  const engine: BatchEngine = createBatchEngine({
    store: new DynamoDbBatchStore(stack.dynamodb, stack.tableName),
    files: watched.files,
    queue: new SqsTaskQueue<BatchTask>(stack.sqs, queues.queueUrl, 'batch'),
    scorerFor: (id) => registry.get(id),
    limits: DEFAULT_BATCH_LIMITS,
    quota: new DynamoDbQuotaLedger(stack.dynamodb, stack.tableName),
    storage: { stored_bytes: storedBytes },
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: 8 },
    requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
    nowMs: () => Date.now() + clock.offsetMs,
  });
  const handlers = engineTaskHandlers({ batches: async () => engine });
  const counted = watchedWorker(handlers.worker);
  const poll = (queueUrl: string, handler: typeof handlers.worker, concurrency: number) =>
    pollers.push(
      startSqsPoller({ client: stack.sqs, queueUrl, batchSize: 1, waitTimeSeconds: 1, concurrency, retryDelaySeconds: 0, handler }),
    );
  // More receive loops than lines: finalize deliveries held back (the expiry case) never take every loop.
  poll(queues.queueUrl, counted.worker, LINES + 8);
  poll(queues.dlqUrl, handlers.deadLetter, 1);
  const input = await watched.files.openWriter({ ownerKeyId: owner, filename: 'in.jsonl', purpose: 'batch', maxBytes: 1 << 24 });
  await input.write(Buffer.from(lines.join('\n') + '\n'));
  const file = await input.close();
  const created = await engine.create(owner, { inputFileId: file.id, endpoint: '/v1/rerank', completionWindow: '24h' });
  await gate.waiting(RUNNERS);
  const id = created.batch.id;
  const settle = () =>
    waitForProgress(
      async () => {
        const view = await engine.find(id, owner);
        return { done: view !== undefined && isTerminal(view.batch.status), progress: JSON.stringify(view?.counts), value: view };
      },
      { stallMs: 60_000, pollMs: 100, what: `batch ${id}` },
    );
  const text = async (fileId: string | undefined) => {
    if (fileId === undefined) return [];
    const chunks: Buffer[] = [];
    for await (const chunk of watched.files.read(fileId)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
  };
  return { engine, id, owner, gate, clock, watched, counted, settle, text };
}

describe('a batch ended with lines in flight is finalized once (DynamoDB Local + moto)', { timeout: HANG_CEILING_MS }, () => {
  it('past its quota: one output, the listed files within the quota plus one line, no finalize delivery failing', async () => {
    const quota = 6_000;
    const rt = await setup(quota);
    rt.gate.open();
    const view = await rt.settle();
    expect(view?.batch).toMatchObject({ status: 'failed', errors: [{ code: 'quota_exceeded' }] });
    expect(rt.watched.writersOf(rt.id)).toEqual({ output: 1, error: 1 });
    expect(rt.counted.failures()).toBe(0);
    const output = await rt.text(view?.batch.outputFileId);
    const errors = await rt.text(view?.batch.errorFileId);
    expect(output.length + errors.length).toBe(LINES);
    const longestLine = Math.max(...output.map((l) => Buffer.byteLength(l) + 1));
    expect(rt.watched.peakListedBytes).toBeLessThanOrEqual(quota + longestLine);
  });

  it('past its completion window: each file written once, no finalize delivery failing', async () => {
    // A quota far above the batch's output (the DynamoDB ledger takes a number as its limit, not Infinity).
    const rt = await setup(1 << 30);
    rt.clock.offsetMs = (DEFAULT_BATCH_LIMITS.completionWindowSeconds + 1) * 1000;
    // The finalizer waits until every chunk task has run: the lines in flight end while the batch is `finalizing`.
    rt.counted.holdFinalizes();
    expect(await rt.engine.expireDue()).toBeGreaterThanOrEqual(1);
    rt.gate.open();
    await rt.counted.chunksDone(LINES);
    // Every line scored has its result kept (a chunk task whose line was in flight may still be running when its count
    // is reached: a redelivery counts too).
    await waitForProgress(
      async () => {
        const counts = (await rt.engine.find(rt.id, rt.owner))?.counts;
        const kept = (counts?.completed ?? 0) + (counts?.failed ?? 0);
        return { done: kept >= rt.gate.entered(), progress: String(kept), value: undefined };
      },
      { stallMs: 60_000, pollMs: 100, what: 'lines in flight' },
    );
    rt.counted.releaseFinalizes();
    const view = await rt.settle();
    expect(view?.batch.status).toBe('expired');
    // Each file the batch names was written once (one whose lines all finished has no error file).
    expect(rt.watched.writersOf(rt.id)).toEqual({ output: view?.batch.outputFileId ? 1 : 0, error: view?.batch.errorFileId ? 1 : 0 });
    expect(rt.counted.failures()).toBe(0);
  });
});
