/**
 * `npm run bench:batch:aws`: the batch pipeline on the AWS adapters, against real-protocol local servers (moto for
 * S3 and SQS, DynamoDB Local), side by side with the bare scorer on the same machine (not part of npm test).
 * The API Lambda handler takes the batch; the batch worker Lambda handler runs its tasks, fed by SQS pollers that
 * stand in for the event source mapping (RERANK_LOCAL_WORKERS of them). Every AWS SDK call is timed (onAwsCall), so
 * the report separates the emulators' latency from the service's own work. Prints a table and writes
 * bench/batch-aws-report.md. `--requests N` (default 200) x 100 documents with the TinyBERT fixture.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { startSqsPoller } from '../../emulators/sqs-poller.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { FIXTURE_MODEL_ID, FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import { onAwsCall, type AwsCall } from '../../../shared/observability/aws-call-timing.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import { startLocalAwsStack } from '../../emulators/local-aws-stack.js';
import { apiGatewayEvent } from '../../../test/support/event-factory.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const REQUESTS = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 200;
const DOCUMENTS = 100;
const WORKERS = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
const KEY = 'bench-aws-key';
const WORDS =
  'neural network gradient ranking search query lambda queue python library panda bamboo transformer attention river coffee'.split(' ');
const documentText = (i: number): string =>
  Array.from({ length: 12 + ((i * 37) % 29) }, (_, j) => WORDS[(i * 7 + j * 3 + (i >> 3)) % WORDS.length]).join(' ');
const queryText = (i: number): string => `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 1) % WORDS.length]}`;
const documentsOf = (r: number): string[] => Array.from({ length: DOCUMENTS }, (_, d) => documentText(r * DOCUMENTS + d));
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

// 1. The bare scorer: the same requests, WORKERS at a time, in this process.
const scorer = await loadFolderScorer({ id: FIXTURE_MODEL_ID, folder: resolve(ROOT, 'models/tinybert-l2-fixture'), threads: WORKERS });
const bareStarted = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: WORKERS }, async () => {
    for (let r = next++; r < REQUESTS; r = next++) await scorer.score(queryText(r), documentsOf(r));
  }),
);
const bareMs = performance.now() - bareStarted;
const pairs = REQUESTS * DOCUMENTS;
console.error(`bench:batch:aws: bare scorer ${(pairs / (bareMs / 1000)).toFixed(0)} pairs/s`);

// 2. The same requests as one batch through the API and batch worker handlers on the emulators.
const stack = await startLocalAwsStack({ maxReceiveCount: 3, visibilityTimeoutSeconds: 60 });
Object.assign(process.env, stack.env, {
  RERANK_MODELS: FIXTURE_MODEL_SPEC,
  RERANK_API_KEYS: KEY,
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  POWERTOOLS_METRICS_DISABLED: 'true',
});
const calls: AwsCall[] = [];
onAwsCall((call) => calls.push(call));
const { handler: api } = await import('../../../functions/api/handler.js');
const { handler: taskWorker } = await import('../../../functions/workers/task-worker.js');
const { handler: deadLetter } = await import('../../../functions/workers/dead-letter.js');
const call = async (method: string, path: string, json?: unknown) => {
  const result = await api(apiGatewayEvent({ method, path, json, headers: { authorization: `Bearer ${KEY}` } }), localLambdaContext());
  return JSON.parse(result.body ?? 'null') as Record<string, unknown>;
};
const files = new S3FileStore(stack.s3, stack.filesBucket);
const writer = await files.openWriter({ ownerKeyId: keyIdOf(KEY), filename: 'bench.jsonl', purpose: 'batch', maxBytes: 1 << 30 });
for (let r = 0; r < REQUESTS; r++) {
  const body = { model: FIXTURE_MODEL_ID, query: queryText(r), documents: documentsOf(r), top_n: 10 };
  await writer.write(Buffer.from(`${JSON.stringify({ custom_id: `r${r}`, method: 'POST', url: '/v1/rerank', body })}\n`));
}
const input = await writer.close();
// Warm the worker's model and runtime outside the measured window, as a warm Lambda container would be.
await call('GET', '/v1/models');
calls.length = 0;
const pollers = [
  {
    queueUrl: stack.batchQueueUrl,
    handler: async (event: SQSEvent) => (await taskWorker(event, localLambdaContext())) as SQSBatchResponse,
  },
  { queueUrl: stack.batchDlqUrl, handler: (event: SQSEvent) => deadLetter(event, localLambdaContext()) },
].map(({ queueUrl, handler }) =>
  startSqsPoller({ client: stack.sqs, queueUrl, batchSize: 1, waitTimeSeconds: 1, concurrency: WORKERS, retryDelaySeconds: 1, handler }),
);
const started = performance.now();
const created = await call('POST', '/v1/batches', { input_file_id: input.id, endpoint: '/v1/rerank', completion_window: '24h' });
const createMs = performance.now() - started;
let batch = created;
while (!['completed', 'failed', 'expired', 'cancelled'].includes(String(batch['status']))) {
  await new Promise((r) => setTimeout(r, 1000));
  batch = await call('GET', `/v1/batches/${String(created['id'])}`);
}
const wallMs = performance.now() - started;
await Promise.all(pollers.map((p) => p.stop()));
await stack.stop();

// 3. Report: pairs/s side by side, and where the pipeline's time went, call by call.
const byCommand = new Map<string, number[]>();
for (const c of calls)
  byCommand.set(`${c.client.replace(/Client$/, '')} ${c.command.replace(/Command$/, '')}`, [
    ...(byCommand.get(`${c.client.replace(/Client$/, '')} ${c.command.replace(/Command$/, '')}`) ?? []),
    c.ms,
  ]);
const rows = [...byCommand]
  .map(([name, ms]) => ({ name, count: ms.length, medianMs: median(ms), totalMs: ms.reduce((a, b) => a + b, 0) }))
  .sort((a, b) => b.totalMs - a.totalMs);
const callMs = rows.reduce((sum, r) => sum + r.totalMs, 0);
const barePairs = pairs / (bareMs / 1000);
const batchPairs = pairs / (wallMs / 1000);
const counts = batch['request_counts'] as { total: number; completed: number; failed: number };
const lines = [
  '# Batch pipeline on the AWS emulators (`npm run bench:batch:aws`)',
  '',
  `${new Date().toISOString()}; ${cpus()[0]?.model ?? 'cpu'} x ${availableParallelism()}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; Node ${process.version}.`,
  `${REQUESTS} requests x ${DOCUMENTS} documents, TinyBERT-L2 fixture (int8), ${WORKERS} workers (bare: ${WORKERS} concurrent scoring calls; batch: ${WORKERS} SQS pollers invoking the batch worker handler).`,
  'Emulators: moto (S3, SQS) and DynamoDB Local on loopback; every SDK call is timed in the client (retries included).',
  '',
  '| run | wall | pairs/s | ratio to bare |',
  '| --- | --- | --- | --- |',
  `| bare scorer | ${(bareMs / 1000).toFixed(1)} s | ${barePairs.toFixed(0)} | 1.00 |`,
  `| batch on emulators (create answered in ${createMs.toFixed(0)} ms; ${counts.completed}/${counts.total} lines completed, ${counts.failed} failed) | ${(wallMs / 1000).toFixed(1)} s | ${batchPairs.toFixed(0)} | ${(batchPairs / barePairs).toFixed(2)} |`,
  '',
  `AWS calls: ${calls.length}, ${(callMs / 1000).toFixed(1)} s in all (summed over ${WORKERS} concurrent workers and the poll loop: ${((callMs / WORKERS / wallMs) * 100).toFixed(0)}% of each worker's wall time on average).`,
  '',
  '| call | count | median ms | total s |',
  '| --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.name} | ${r.count} | ${r.medianMs.toFixed(1)} | ${(r.totalMs / 1000).toFixed(2)} |`),
  '',
  'Reading it: the ratio is bounded by what the emulators charge per call (moto answers an SQS receive or an S3 range GET in',
  'milliseconds where AWS answers in a few ms too, but DynamoDB Local transactions are slower than the service). Per chunk the',
  'pipeline makes a fixed number of calls (a task receive and delete, a byte-range read, a conditional scores write, a',
  'result write): the larger the chunk, the smaller their share.',
];
mkdirSync(resolve(ROOT, 'bench'), { recursive: true });
writeFileSync(resolve(ROOT, 'bench/batch-aws-report.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
process.exit(0);
