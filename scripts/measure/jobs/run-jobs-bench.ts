/**
 * `npm run bench:jobs`: what the queue costs. Against DynamoDB Local + moto:
 *  1. queue + store overhead per chunk (a job scored by a zero-cost scorer: everything but inference);
 *  2. wall time of a 5,000-document job with 1, 2 and 4 worker processes vs scoring the same set
 *     synchronously in one process. Prints a table and writes bench/jobs-report.md.
 * `--quick` uses 1,000 documents. Machines are noisy: each figure is the median of the runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RerankRequest } from '../../../shared/core/rerank-request.js';
import type { JobRecord } from '../../../shared/jobs/job-model.js';
import type { ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { startSqsPoller } from '../../emulators/sqs-poller.js';
import { decodeJobTask } from '../../../shared/engine/task-codec.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { startLocalAwsStack } from '../../emulators/local-aws-stack.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const quick = process.argv.includes('--quick');
const DOCS = quick ? 1_000 : 5_000;
const BATCH = 50;
const RUNS = quick ? 1 : 3;
const WORKER_COUNTS = [1, 2, 4];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const words = 'neural network gradient ranking search query lambda queue python library panda bamboo transformer attention'.split(' ');
const documents = Array.from({ length: DOCS }, (_, i) =>
  Array.from({ length: 20 + ((i * 37) % 180) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
);
const request: RerankRequest = {
  model: undefined,
  query: 'how do neural networks learn to rank',
  documents: documents.map((text) => ({ text })),
  topN: 10,
  returnDocuments: false,
  threshold: undefined,
  batchSize: BATCH,
  activation: undefined,
  prompt: undefined,
};

/** The model's scorer with its scoring taken out: every document scores 0 at once. */
const zeroScorer = (model: Scorer): Scorer => ({
  ...model,
  id: model.id,
  score: async (_query, documents) => ({ scores: documents.map(() => 0), tokens: 0 }),
});

async function waitDone(runtime: ServiceRuntime, job: JobRecord): Promise<JobRecord> {
  for (;;) {
    const current = await runtime.jobs.find(job.id, 'bench');
    if (current && current.status !== 'running') return current;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function timeJob(runtime: ServiceRuntime): Promise<number> {
  const started = performance.now();
  const scorer = runtime.service.resolveScorer(undefined);
  const job = await runtime.jobs.submit({
    request,
    dialect: 'openai',
    ownerKeyId: 'bench',
    model: scorer.id,
    activation: 'sigmoid',
    batchSize: BATCH,
  });
  const done = await waitDone(runtime, job);
  if (done.status !== 'succeeded') throw new Error(`bench job failed: ${done.error}`);
  return performance.now() - started;
}

function startWorkers(count: number, env: Record<string, string>): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = fork(join(ROOT, 'scripts/measure/jobs/worker-process.ts'), {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ...env, RERANK_THREADS: '1', POWERTOOLS_LOG_LEVEL: 'ERROR' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      return new Promise<ChildProcess>((ok, fail) => {
        child.once('message', () => ok(child));
        child.once('exit', (code) => fail(new Error(`worker exited ${code}`)));
      });
    }),
  );
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((c) => new Promise<void>((ok) => (c.exitCode !== null ? ok() : (c.once('exit', () => ok()), c.kill('SIGTERM'))))),
  );
}

// The machine's load (1, 5 and 15 minute averages, as uptime prints them) when the bench starts and ends: on a shared
// machine the figures are only comparable at a named load.
const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const loadAtStart = loadNow();
const stack = await startLocalAwsStack();
try {
  Object.assign(process.env, stack.env, {
    RERANK_THREADS: '1',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    RERANK_MODELS: process.env['RERANK_MODELS'] || FIXTURE_MODEL_SPEC,
  });
  const { serviceRuntime } = await import('../../../shared/runtime/process-runtime.js');
  const runtime = await serviceRuntime();
  const chunks = Math.ceil(DOCS / BATCH);

  // Synchronous baseline: the same set, one process, one ONNX thread (as each worker has).
  const syncMs = median(
    await sequential(RUNS, async () => {
      const t = performance.now();
      await runtime.service.rerank(request);
      return performance.now() - t;
    }),
  );
  console.log(`sync, 1 process: ${(syncMs / 1000).toFixed(2)} s for ${DOCS} documents`);

  // Overhead per chunk: the job lane's own routine (the worker's reads and writes: still running?, record, finish) with a
  // scorer that returns zeros at once leaves only queue + store + merge.
  const overheadRows: string[] = [];
  let overheadPerChunkMs = Number.NaN;
  {
    const lane = runtime.jobs.laneWith((modelId) => zeroScorer(runtime.scorers.get(modelId)));
    const poller = startSqsPoller({
      client: stack.sqs,
      queueUrl: stack.queueUrl,
      batchSize: 1,
      waitTimeSeconds: 1,
      concurrency: 1,
      handler: async (event) => {
        for (const record of event.Records) await lane.handle(decodeJobTask(record.body));
        return { batchItemFailures: [] };
      },
    });
    try {
      const t = median(await sequential(RUNS, () => timeJob(runtime)));
      overheadPerChunkMs = t / chunks;
      overheadRows.push(`| queue + store + merge per chunk (1 consumer, no scoring) | ${(t / chunks).toFixed(1)} ms |`);
      console.log(`overhead: ${(t / chunks).toFixed(1)} ms per chunk (${chunks} chunks, ${(t / 1000).toFixed(2)} s)`);
    } finally {
      await poller.stop();
    }
  }

  const rows: string[] = [];
  const wallMs: { workers: number; wallMs: number }[] = [];
  for (const count of WORKER_COUNTS) {
    const workers = await startWorkers(count, stack.env);
    try {
      const t = median(await sequential(RUNS, () => timeJob(runtime)));
      rows.push(`| ${count} | ${(t / 1000).toFixed(2)} s | ${(syncMs / t).toFixed(2)}x |`);
      wallMs.push({ workers: count, wallMs: t });
      console.log(`${count} worker(s): ${(t / 1000).toFixed(2)} s (${(syncMs / t).toFixed(2)}x sync)`);
    } finally {
      await stopWorkers(workers);
    }
  }

  const report = `# Jobs benchmark (\`npm run bench:jobs${quick ? ' -- --quick' : ''}\`)

${new Date().toISOString()} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} vCPUs, ${Math.round(totalmem() / 2 ** 30)} GiB.
DynamoDB Local + moto (SQS) on loopback; model: the default fixture; ${DOCS} documents of 20-200 words, batch_size ${BATCH} (${chunks} chunks);
each worker is its own process with 1 ONNX thread polling with concurrency 1; median of ${RUNS} run(s).
Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadNow()} at the end. The overhead row runs the job lane's own
routine (still running?, record, finish; the finish task's merge) with a scorer that answers zeros at once.

| measure | value |
| --- | --- |
| synchronous, one process, 1 thread | ${(syncMs / 1000).toFixed(2)} s |
${overheadRows.join('\n')}

| workers | job wall time (submit to succeeded) | speed-up vs synchronous |
| --- | --- | --- |
${rows.join('\n')}

Notes: this machine has ${availableParallelism()} cores, so more than ${availableParallelism()} workers compete for CPU; on Lambda each
worker has its own vCPUs, so wall time keeps falling with workers until the queue and store overhead dominates.
`;
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/jobs-report.md'), report);
  // What `npm run scale-model` reads (committed, like the report): per-chunk overhead and wall times to check its predictions against.
  const measurements = {
    date: new Date().toISOString(),
    cpus: availableParallelism(),
    documents: DOCS,
    batchSize: BATCH,
    chunks,
    syncMs,
    overheadPerChunkMs,
    jobs: wallMs,
  };
  writeFileSync(join(ROOT, 'bench/jobs-measurements.json'), `${JSON.stringify(measurements, null, 2)}\n`);
  console.log('wrote bench/jobs-report.md');
  await runtime.scorers.closeAll();
} finally {
  await stack.stop();
}

async function sequential(n: number, run: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await run());
  return out;
}
