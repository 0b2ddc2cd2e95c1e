/**
 * `npm run reliability` (`-- --quick` for a short pass): the figures behind the reliability note.
 *  1. HTTP load: `npm start`'s server (fixture model) under autocannon at 1, 4, 16 and 64 connections per dialect,
 *     10-document requests: throughput, p50/p99 latency, non-2xx, errors, server RSS.
 *  2. 100 concurrent async jobs (50 documents, batch_size 10) on DynamoDB Local + moto with in-process pollers
 *     running the real worker path: time until all succeeded, per-job latency p50/p99, failures.
 *  3. Fault injection at scale (200 jobs per mode) with the invariant checked for every job.
 *  4. Chaos over batches (6 batches x 20 lines) on the same emulators: SDK faults, crashes in planner, chunk worker
 *     and finalizer, second deliveries, poison lines; every line exactly once, equal to a fault-free run, quotas held.
 * Prints the tables and writes reliability/report.md. Machines are noisy: load figures are medians of repetitions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { startLocalAwsStack } from '../../emulators/local-aws-stack.js';
import { startDevServer } from '../../../test/support/start-dev-server.js';
import { runChaosJobs, type ChaosRunOptions, type ChaosRunReport } from './chaos-jobs-run.js';
import { chaosTables, formatChaosSummary } from './chaos-summary.js';
import { chaosBatchesTables, runChaosBatches, type ChaosBatchesOptions, type ChaosBatchesReport } from './chaos-batches-run.js';
import { NO_WORKER_FAULTS } from './chaos-worker.js';
import { runHttpLoad, processMemoryMiB, type LoadRow } from './http-load.js';
import { NO_SDK_FAULTS } from './sdk-fault-injector.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const quick = process.argv.includes('--quick');
if (process.argv.includes('--help')) {
  console.log('usage: npm run reliability [-- --quick]   writes reliability/report.md');
  process.exit(0);
}
const CONNECTIONS = [1, 4, 16, 64];
const LOAD_SECONDS = quick ? 2 : 5;
const LOAD_REPETITIONS = quick ? 1 : 3;
const ASYNC_JOBS = quick ? 30 : 100;
const CHAOS_JOBS = quick ? 40 : 200;
const CHAOS_BATCHES = quick ? { batches: 3, linesPerBatch: 8 } : { batches: 6, linesPerBatch: 20 };
const mib = (bytes: number) => bytes / 2 ** 20;

// ---- 1. HTTP load -------------------------------------------------------------------------------------------
console.log(`HTTP load: ${CONNECTIONS.join('/')} connections x 3 dialects, ${LOAD_REPETITIONS} x ${LOAD_SECONDS} s each`);
const server = await startDevServer({ RERANK_MODELS: FIXTURE_MODEL_SPEC });
let loadRows: LoadRow[];
let idleRss: number;
try {
  idleRss = processMemoryMiB(server.pid).rss;
  loadRows = await runHttpLoad({
    url: server.url,
    serverPid: server.pid,
    connections: CONNECTIONS,
    durationSeconds: LOAD_SECONDS,
    repetitions: LOAD_REPETITIONS,
    onRow: (r) =>
      console.log(
        `  ${r.dialect.padEnd(9)} c=${String(r.connections).padStart(2)}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ` +
          `non-2xx ${r.non2xx}, errors ${r.errors}, RSS ${r.rssMiB.toFixed(0)} MiB`,
      ),
  });
} finally {
  await server.stop();
}

// ---- 2 + 3. async jobs on the emulators -------------------------------------------------------------------
const stack = await startLocalAwsStack();
let asyncRun: ChaosRunReport;
let asyncRss: { before: number; after: number };
const chaosRuns: { title: string; options: ChaosRunOptions; report: ChaosRunReport }[] = [];
let batchChaos: { options: ChaosBatchesOptions; report: ChaosBatchesReport };
let batchChaosOutside: { options: ChaosBatchesOptions; report: ChaosBatchesReport };
try {
  Object.assign(process.env, stack.env, { RERANK_MODELS: FIXTURE_MODEL_SPEC, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { serviceRuntime } = await import('../../../shared/runtime/process-runtime.js');
  const runtime = await serviceRuntime();
  const common = { batchSizes: [10], pollers: 2, pollerConcurrency: 2, faultyReceives: 2, visibilityTimeoutSeconds: 3 } as const;

  console.log(`\n${ASYNC_JOBS} concurrent async jobs (50 documents, batch_size 10), no faults`);
  const rssBefore = mib(process.memoryUsage().rss);
  asyncRun = await runChaosJobs(stack, runtime, {
    ...common,
    seed: 1,
    jobs: ASYNC_JOBS,
    documents: [50, 50],
    poisonEvery: 0,
    sdk: NO_SDK_FAULTS,
    sdkPlacement: 'inside-retry',
    worker: NO_WORKER_FAULTS,
    maxReceiveCount: 3,
    stallTimeoutMs: 120_000,
  });
  asyncRss = { before: rssBefore, after: mib(process.memoryUsage().rss) };
  console.log(formatChaosSummary(asyncRun));

  const chaosBase = {
    ...common,
    jobs: CHAOS_JOBS,
    documents: [10, 60] as const,
    batchSizes: [5, 10, 20],
    poisonEvery: 6,
    worker: { crashBeforeWrite: 0.1, crashAfterWrite: 0.1, duplicateDelivery: 0.05 },
    pollers: 3,
    maxReceiveCount: 10,
    stallTimeoutMs: 120_000,
  };
  const modes: { title: string; options: ChaosRunOptions }[] = [
    {
      title: 'faults below the SDK retry, SDK default maxAttempts (3)',
      options: {
        ...chaosBase,
        seed: 101,
        sdk: { throttle: 0.1, transactionConflict: 0.15, lostResponse: 0.03, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'inside-retry',
      },
    },
    {
      title: 'faults above the SDK retry, SDK maxAttempts 1 (the application handles every fault)',
      options: {
        ...chaosBase,
        seed: 202,
        sdk: { throttle: 0.02, transactionConflict: 0.15, lostResponse: 0.01, dropDelete: 0.1, duplicateSend: 0.1 },
        sdkPlacement: 'outside-retry',
        sdkMaxAttempts: 1,
      },
    },
  ];
  for (const mode of modes) {
    console.log(`\nfault injection, ${CHAOS_JOBS} jobs: ${mode.title}`);
    const report = await runChaosJobs(stack, runtime, mode.options);
    console.log(formatChaosSummary(report));
    chaosRuns.push({ ...mode, report });
  }

  const batchOptions: ChaosBatchesOptions = {
    ...CHAOS_BATCHES,
    seed: 303,
    poisonedBatches: 2,
    sdk: { throttle: 0.05, transactionConflict: 0.1, lostResponse: 0.03, dropDelete: 0.1, duplicateSend: 0.1 },
    crashes: {
      planBefore: 0.3,
      planAfter: 0.3,
      chunkBefore: 0.1,
      chunkAfter: 0.1,
      finalizeBefore: 0.3,
      finalizeAfter: 0.3,
      redeliver: 0.1,
    },
    faultyReceives: 2,
    pollers: 3,
    pollerConcurrency: 2,
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 3,
    stallTimeoutMs: 120_000,
  };
  console.log(`\nchaos over batches: ${batchOptions.batches} batches x ${batchOptions.linesPerBatch} lines`);
  batchChaos = { options: batchOptions, report: await runChaosBatches(stack, batchOptions) };
  const batchTables = chaosBatchesTables(batchChaos.report);
  console.log([batchTables.outcomes, '', batchTables.faults, ...batchChaos.report.violations.map((v) => `- VIOLATION ${v}`)].join('\n'));
  // The application absorbs every fault itself: no SDK retry hides a lost response or a throttle.
  const outsideOptions: ChaosBatchesOptions = {
    ...batchOptions,
    seed: 404,
    sdk: { throttle: 0.02, transactionConflict: 0.1, lostResponse: 0.02, dropDelete: 0.1, duplicateSend: 0.1 },
    sdkPlacement: 'outside-retry',
    sdkMaxAttempts: 1,
    stallTimeoutMs: 60_000,
  };
  console.log(`\nchaos over batches, faults above the SDK retry (maxAttempts 1)`);
  batchChaosOutside = { options: outsideOptions, report: await runChaosBatches(stack, outsideOptions) };
  const outsideTables = chaosBatchesTables(batchChaosOutside.report);
  console.log(
    [outsideTables.outcomes, '', outsideTables.faults, ...batchChaosOutside.report.violations.map((v) => `- VIOLATION ${v}`)].join('\n'),
  );
  await runtime.scorers.closeAll();
} finally {
  await stack.stop();
}

// ---- report -------------------------------------------------------------------------------------------------
const loadTable = [
  '| dialect | connections | req/s | p50 ms | p99 ms | requests | non-2xx | errors | timeouts | server RSS after, MiB | peak RSS, MiB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...loadRows.map(
    (r) =>
      `| ${r.dialect} | ${r.connections} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.non2xx} | ${r.errors} | ${r.timeouts} | ${r.rssMiB.toFixed(0)} | ${r.peakRssMiB.toFixed(0)} |`,
  ),
].join('\n');
const asyncTables = chaosTables(asyncRun);
const chaosSections = chaosRuns.map(({ title, options, report }) => {
  const t = chaosTables(report);
  const rates = Object.entries({ ...options.sdk, ...options.worker })
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `### ${title}\n\nRates per call / delivery: ${rates}; every ${options.poisonEvery}th job poisoned; maxReceiveCount ${options.maxReceiveCount}, ` +
    `visibility timeout ${options.visibilityTimeoutSeconds} s, worker crashes on deliveries 1-${options.faultyReceives} only.\n\n${t.outcomes}\n\n${t.faults}\n` +
    (report.violations.length > 0 ? `\nViolations:\n${report.violations.map((v) => `- ${v}`).join('\n')}\n` : '') +
    (report.submitErrors.length > 0
      ? `\nSubmits that threw:\n${report.submitErrors.map((e) => `- ${e.message}${e.leftRunning ? ' (the job was left running)' : ''}`).join('\n')}\n`
      : '')
  );
});

const batchTables = chaosBatchesTables(batchChaos.report);
const batchRates = Object.entries({ ...batchChaos.options.sdk, ...batchChaos.options.crashes })
  .map(([k, v]) => `${k} ${v}`)
  .join(', ');
const outsideTables = chaosBatchesTables(batchChaosOutside.report);
const outsideViolations = batchChaosOutside.report.violations.map((v) => `- ${v}`).join('\n');
const batchViolations =
  batchChaos.report.violations.length > 0 ? `\nViolations:\n${batchChaos.report.violations.map((v) => `- ${v}`).join('\n')}\n` : '';

const report = `# Reliability report (\`npm run reliability${quick ? ' -- --quick' : ''}\`)

${new Date().toISOString()} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} vCPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.
Everything (server or workers, emulators and the load generator) shares this machine's CPUs: the figures are relative, not Lambda's.

## 1. HTTP load (\`npm start\` server, fixture model)

autocannon in-process, POST with a 10-document body (top 5, documents returned), per dialect at each concurrency;
${LOAD_REPETITIONS} run(s) of ${LOAD_SECONDS} s per cell after a 1 s warm-up; req/s and latencies are medians of the runs, counts are sums.
Server RSS idle before the load: ${idleRss.toFixed(0)} MiB. The service has no concurrency limit of its own (no 429s): requests queue
behind inference (which blocks the event loop), so latency grows with connections while throughput does not rise. The three dialects
run the same inference: differences between them at equal concurrency are mostly other load on the machine.

${loadTable}

## 2. ${ASYNC_JOBS} concurrent async jobs (DynamoDB Local + moto)

${ASYNC_JOBS} jobs of 50 documents, batch_size 10 (5 chunks each), submitted at once through JobCoordinator (DynamoDbJobStore + SqsTaskQueue);
${2} pollers x ${2} receive loops in this process run the real record handler (scoreChunkTask, fixture model, ONNX shares the event loop).
Job latency = submit returned to first poll (every 100 ms) that saw the job ended. Process RSS ${asyncRss.before.toFixed(0)} MiB before, ${asyncRss.after.toFixed(0)} MiB after.

${asyncTables.outcomes}

## 3. Fault injection at scale

The chaos harness of \`test/integration/faults/chaos-jobs.test.ts\` (scripts/measure/reliability/chaos-jobs-run.ts) with more jobs: SDK faults from a
middleware on the real DynamoDB and SQS clients, worker crashes around the write, duplicate deliveries and poison chunks. Invariant for every
accepted job: succeeded with exactly \`service.rerank\`'s result (same indices, scores, order, usage), or - poisoned jobs, and only they -
failed with a reason; none lost, none still running.

${chaosSections.join('\n')}

## 4. Chaos over batches (DynamoDB Local + moto)

scripts/measure/reliability/chaos-batches-run.ts (short form: \`test/integration/faults/chaos-batches.test.ts\`): ${batchChaos.options.batches} batches of
${batchChaos.options.linesPerBatch} lines (BM25 scorer; the first ${batchChaos.options.poisonedBatches} carry a line whose scoring fails on every delivery) for one key, through
the batch engine over DynamoDbBatchStore, S3FileStore, SqsTaskQueue and DynamoDbQuotaLedger built on SDK clients with the fault injector
(below the SDK retry), SQS pollers running the engine's worker routine (\`runEngineTaskWith\`) with crashes before and after plan, chunk
and finalize tasks, and the dead-letter path on the DLQ. Rates per call / delivery: ${batchRates}; maxReceiveCount ${batchChaos.options.maxReceiveCount},
visibility timeout ${batchChaos.options.visibilityTimeoutSeconds} s, crashes on deliveries 1-${batchChaos.options.faultyReceives} only. Invariant: every batch ends completed; every input line is in
the output or error file exactly once; completed lines equal a fault-free run of the same batches; only poison lines fail; the key's
ledger never passes running_batches (= the batch count) or stored_bytes (twice the fault-free output: a finalizer counts its lines and its
files both for a moment), and after the end holds 0 running batches and exactly the output and error files' count and bytes.

${batchTables.outcomes}

${batchTables.faults}
${batchViolations}
### faults above the SDK retry, SDK maxAttempts 1 (the engine absorbs every fault itself)

The same batches (seed ${batchChaosOutside.options.seed}) with ${Object.entries(batchChaosOutside.options.sdk)
  .map(([k, v]) => `${k} ${v}`)
  .join(', ')} raised above the SDK's
retry. Known engine gaps this mode shows (see the notes of issue 33): a finalizer that fails after closing its files leaves them (and
their quota holds) behind, and a batch claimed \`finalizing\` whose finalize task was not sent is never finalized.

${outsideTables.outcomes}

${outsideTables.faults}
${outsideViolations === '' ? '' : `\nViolations:\n${outsideViolations}\n`}`;
mkdirSync(join(ROOT, 'reliability'), { recursive: true });
writeFileSync(join(ROOT, 'reliability/report.md'), report);
console.log(`\n${loadTable}\n\nwrote reliability/report.md`);
