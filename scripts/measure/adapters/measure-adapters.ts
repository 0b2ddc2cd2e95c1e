/**
 * `tsx scripts/measure/adapters/measure-adapters.ts`: timings of the local emulators and the AWS adapters on them,
 * so the numbers in docs and test timeouts come from a run, not a guess.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { createJobsTable } from '../../emulators/create-jobs-table.js';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import { createChunkQueues } from '../../emulators/create-chunk-queues.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { JobTask } from '../../../shared/jobs/job-model.js';
import { startSqsPoller } from '../../emulators/sqs-poller.js';
import { jobLedgerOwner } from '../../../shared/engine/chunk-ledger.js';
import { decodeChunkTask } from '../../../shared/engine/task-codec.js';
import { localAwsConfig } from '../../emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../emulators/start-dynamodb-local.js';
import { startMotoServer } from '../../emulators/start-moto-server.js';

const ms = (start: number): number => Math.round(performance.now() - start);
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

let t = performance.now();
const dynamo = await startDynamoDbLocal();
console.log(`DynamoDB Local start: ${ms(t)} ms`);
t = performance.now();
const moto = await startMotoServer();
console.log(`moto start: ${ms(t)} ms`);

try {
  const ddb = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
  await createJobsTable(ddb, 'measure-jobs');
  // A job's chunks are recorded in the ChunkLedger (the batch store's chunk protocol), one request per job.
  const ledger = new DynamoDbBatchStore(ddb, 'measure-jobs');
  const scores = Array.from({ length: 64 }, () => Math.random());

  const sequential = jobLedgerOwner(randomUUID());
  const times: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const s = performance.now();
    await ledger.putChunkScores(sequential, 1, { chunkIndex: i, offset: i * 64, scores, tokens: 1 }, 200);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `putChunkScores sequential (200 x 64 scores): mean ${mean.toFixed(1)} ms, p50 ${pct(times, 0.5).toFixed(1)}, p95 ${pct(times, 0.95).toFixed(1)}`,
  );

  const concurrent = jobLedgerOwner(randomUUID());
  t = performance.now();
  for (let wave = 0; wave < 10; wave += 1) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ledger.putChunkScores(concurrent, 1, { chunkIndex: wave * 20 + i, offset: 0, scores, tokens: 1 }, 200),
      ),
    );
  }
  const total = ms(t);
  console.log(
    `putChunkScores 20-way concurrent: 200 in ${total} ms (${(total / 200).toFixed(1)} ms/chunk), chunksDone=${await ledger.countChunks(concurrent, 1, 200)}`,
  );

  // The per-key quota ledger: one transaction per reserve or release (a release reads its hold first). Every change
  // of one key moves its USAGE item, so one key's parallel reserves conflict and retry; other keys' do not.
  const quota = new DynamoDbQuotaLedger(ddb, 'measure-jobs');
  const limits = { files: 40, stored_bytes: 1 << 30 };
  const quotaKey = `quota-${randomUUID()}`;
  const reserveTimes: number[] = [];
  const releaseTimes: number[] = [];
  for (let i = 0; i < 100; i += 1) {
    let s = performance.now();
    await quota.reserve(quotaKey, { id: `file:${i}`, amounts: { files: 1, stored_bytes: 100 } }, limits);
    reserveTimes.push(performance.now() - s);
    s = performance.now();
    await quota.release(quotaKey, `file:${i}`);
    releaseTimes.push(performance.now() - s);
  }
  reserveTimes.sort((a, b) => a - b);
  releaseTimes.sort((a, b) => a - b);
  console.log(
    `quota ledger sequential (100): reserve p50 ${pct(reserveTimes, 0.5).toFixed(1)} ms p95 ${pct(reserveTimes, 0.95).toFixed(1)}, release p50 ${pct(releaseTimes, 0.5).toFixed(1)} ms p95 ${pct(releaseTimes, 0.95).toFixed(1)}`,
  );
  for (const keys of [1, 50]) {
    const owners = Array.from({ length: keys }, () => `quota-${randomUUID()}`);
    t = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => quota.reserve(owners[i % keys]!, { id: `file:${i}`, amounts: { files: 1 } }, limits)),
    );
    const kept = outcomes.filter((o) => o.status === 'fulfilled').length;
    console.log(`quota ledger 50 parallel reserves over ${keys} key(s), limit ${limits.files} each: ${ms(t)} ms, ${kept} kept`);
  }
  ddb.destroy();

  const sqs = new SQSClient(localAwsConfig(moto.endpoint));
  for (const concurrency of [1, 2]) {
    const queues = await createChunkQueues(sqs, `measure-${concurrency}`);
    const tasks = Array.from({ length: 100 }, (_, i) => ({
      jobId: 'j',
      chunkIndex: i,
      offset: i * 32,
      model: 'm',
      query: 'q',
      documents: Array.from({ length: 32 }, () => 'd'.repeat(1000)),
    }));
    t = performance.now();
    await new SqsTaskQueue<JobTask>(sqs, queues.queueUrl, 'chunk').send(tasks);
    const sent = ms(t);
    const seen = new Set<number>();
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const poller = startSqsPoller({
      client: sqs,
      queueUrl: queues.queueUrl,
      waitTimeSeconds: 1,
      concurrency,
      handler: async (event) => {
        for (const r of event.Records) seen.add(decodeChunkTask(r.body).chunkIndex);
        if (seen.size >= 100) resolveDone();
        return { batchItemFailures: [] };
      },
    });
    await done;
    const drained = ms(t);
    await poller.stop();
    console.log(`moto: 100 chunk messages (~33 KB each), poller concurrency ${concurrency}: send ${sent} ms, send+drain ${drained} ms`);
  }
  sqs.destroy();
} finally {
  await Promise.all([dynamo.stop(), moto.stop()]);
}
