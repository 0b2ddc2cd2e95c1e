/**
 * `npm run reliability` (`-- --quick` for a short pass, `-- --lane jobs|batches|both` for the chaos lanes, default
 * both): the figures behind the reliability note.
 *  1. HTTP load: `npm start`'s server (fixture model) under autocannon at 1, 4, 16 and 64 connections per dialect,
 *     10-document requests: throughput, p50/p99 latency, non-2xx, errors, server RSS.
 *  2. 100 concurrent async jobs (50 documents, batch_size 10) on DynamoDB Local + moto with in-process pollers
 *     running the real worker path: time until all succeeded, per-job latency p50/p99, failures.
 *  3. The chaos harness (chaos-lanes.ts) over the chosen lanes at once on one task queue, per fault mode: 200 jobs
 *     and 6 batches x 20 lines; SDK faults, worker crashes around every task kind, second deliveries, poison work;
 *     every job equal to the synchronous answer or failed for its poison, every batch line exactly once and equal
 *     to a fault-free run, quotas held, never two writers of one batch file at once. Then, in each fault mode, batches
 *     that end early while lines are in flight: by their key's stored-bytes quota, and by expiry (the engine's clock
 *     moved past the completion window while a line of each is held): one output file per batch, every line once.
 * Prints the tables and writes reliability/report.md. Machines are noisy: load figures are medians of repetitions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { startLocalAwsStack } from '../../emulators/local-aws-stack.js';
import { startDevServer } from '../../../test/support/start-dev-server.js';
import { runChaosLanes, type ChaosOptions, type ChaosReport } from './chaos-lanes.js';
import { NO_TASK_CRASHES } from './chaos-run.js';
import { chaosHeadline, chaosTables, formatChaosSummary } from './chaos-summary.js';
import { runHttpLoad, processMemoryMiB, type LoadRow } from './http-load.js';
import { laneArgument, reliabilityModes } from './reliability-modes.js';
import { NO_SDK_FAULTS } from './sdk-fault-injector.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const quick = process.argv.includes('--quick');
if (process.argv.includes('--help')) {
  console.log('usage: npm run reliability [-- --quick] [--lane jobs|batches|both]   writes reliability/report.md');
  process.exit(0);
}
const lane = laneArgument(process.argv);
const CONNECTIONS = [1, 4, 16, 64];
const LOAD_SECONDS = quick ? 2 : 5;
const LOAD_REPETITIONS = quick ? 1 : 3;
const ASYNC_JOBS = quick ? 30 : 100;
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

// ---- 2 + 3. async jobs and the chaos lanes on the emulators ----------------------------------------------------
const stack = await startLocalAwsStack();
let asyncRun: ChaosReport | undefined;
let asyncRss = { before: 0, after: 0 };
const chaosRuns: { title: string; options: ChaosOptions; report: ChaosReport }[] = [];
try {
  Object.assign(process.env, stack.env, { RERANK_MODELS: FIXTURE_MODEL_SPEC, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { serviceRuntime } = await import('../../../shared/runtime/process-runtime.js');
  const runtime = await serviceRuntime();
  if (lane !== 'batches') {
    console.log(`\n${ASYNC_JOBS} concurrent async jobs (50 documents, batch_size 10), no faults`);
    const rssBefore = mib(process.memoryUsage().rss);
    asyncRun = await runChaosLanes(stack, runtime, {
      lane: 'jobs',
      seed: 1,
      jobs: { jobs: ASYNC_JOBS, documents: [50, 50], batchSizes: [10], poisonEvery: 0 },
      sdk: NO_SDK_FAULTS,
      crashes: NO_TASK_CRASHES,
      faultyReceives: 2,
      pollers: 2,
      pollerConcurrency: 2,
      maxReceiveCount: 3,
      visibilityTimeoutSeconds: 3,
      stallTimeoutMs: 120_000,
    });
    asyncRss = { before: rssBefore, after: mib(process.memoryUsage().rss) };
    console.log(formatChaosSummary(asyncRun));
  }
  for (const mode of reliabilityModes(lane, quick, (p) => console.log(`  ${p}`))) {
    console.log(`\nchaos, lane ${lane}: ${mode.title}`);
    const report = await runChaosLanes(stack, runtime, mode.options);
    console.log(formatChaosSummary(report));
    chaosRuns.push({ ...mode, report });
  }
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
const chaosSections = chaosRuns.map(({ title, options, report }) => {
  const t = chaosTables(report);
  const rates = Object.entries({ ...options.sdk, ...options.crashes })
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const work = [
    options.jobs &&
      `${options.jobs.jobs} jobs of ${options.jobs.documents.join('-')} documents (every ${options.jobs.poisonEvery}th poisoned)`,
    options.batches &&
      `${options.batches.batches} batches x ${options.batches.linesPerBatch} lines (the first ${options.batches.poisonedBatches} with a poison line)`,
  ]
    .filter(Boolean)
    .join(' and ');
  const errors = report.jobs?.submitErrors ?? [];
  return (
    `### ${title}\n\n${chaosHeadline(report)}.\n\n${work}; rates per call / delivery: ${rates}; maxReceiveCount ${options.maxReceiveCount}, ` +
    `visibility timeout ${options.visibilityTimeoutSeconds} s, worker crashes on deliveries 1-${options.faultyReceives} only.\n\n${t.outcomes}\n\n${t.faults}\n` +
    (report.violations.length > 0 ? `\nViolations:\n${report.violations.map((v) => `- ${v}`).join('\n')}\n` : '') +
    (errors.length > 0
      ? `\nSubmits that threw:\n${errors.map((e) => `- ${e.message}${e.leftRunning ? ' (the job was left running)' : ''}`).join('\n')}\n`
      : '')
  );
});
const asyncSection = asyncRun
  ? `## 2. ${ASYNC_JOBS} concurrent async jobs (DynamoDB Local + moto)

${ASYNC_JOBS} jobs of 50 documents, batch_size 10 (5 chunks each), submitted at once through JobCoordinator (DynamoDbJobStore + SqsTaskQueue);
2 pollers x 2 receive loops in this process run the engine's worker routine (fixture model, ONNX shares the event loop).
Job latency = submit returned to first poll (every 200 ms) that saw the job ended. Process RSS ${asyncRss.before.toFixed(0)} MiB before, ${asyncRss.after.toFixed(0)} MiB after.

${chaosTables(asyncRun).outcomes}
`
  : '## 2. Async jobs\n\nNot run (`--lane batches`).\n';

const report = `# Reliability report (\`npm run reliability -- --lane ${lane}${quick ? ' --quick' : ''}\`)

${new Date().toISOString()} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} vCPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.
Everything (server or workers, emulators and the load generator) shares this machine's CPUs: the figures are relative, not Lambda's.

## 1. HTTP load (\`npm start\` server, fixture model)

autocannon in-process, POST with a 10-document body (top 5, documents returned), per dialect at each concurrency;
${LOAD_REPETITIONS} run(s) of ${LOAD_SECONDS} s per cell after a 1 s warm-up; req/s and latencies are medians of the runs, counts are sums.
Server RSS idle before the load: ${idleRss.toFixed(0)} MiB. The service has no concurrency limit of its own (no 429s): requests queue
behind inference (which blocks the event loop), so latency grows with connections while throughput does not rise. The three dialects
run the same inference: differences between them at equal concurrency are mostly other load on the machine.

${loadTable}

${asyncSection}
## 3. Chaos over the async engine's lanes (\`--lane ${lane}\`, DynamoDB Local + moto)

One harness (scripts/measure/reliability/chaos-lanes.ts; short forms: test/integration/faults/chaos-jobs.test.ts and chaos-batches.test.ts)
drives the chosen lanes at once on one task queue: jobs through JobCoordinator (DynamoDbJobStore), batches through the batch engine
(DynamoDbBatchStore, S3FileStore, DynamoDbQuotaLedger), all on SDK clients with a fault middleware (throttles, transaction conflicts,
lost responses, dropped deletes, duplicated sends), and SQS pollers running the engine's worker routine (\`runEngineTaskWith\`) with the
worker dying before or after every task kind, second deliveries, poison work, and the dead-letter path on the DLQ. A poller keeps the
messages it holds invisible while they run (on AWS the visibility timeout is 6x the worker's timeout). Invariant: every accepted job
succeeded with exactly \`service.rerank\`'s result or - poisoned jobs, and only they - failed with a reason; every batch ends completed,
every input line is in the output or error file exactly once and equal to a fault-free run of the same batches, only poison lines fail;
the key's ledger never passes running_batches or stored_bytes (twice the fault-free output: a finalizer counts its lines and its files both
for a moment) and after the end holds 0 running batches and exactly the files' count and bytes; a batch file never has two writers at once,
and the key lists one output file per batch, the one the batch names. The runs whose batches end early (their key's quota at half the
smallest batch's fault-free output; or the engine's clock moved past the completion window while one line of each batch is held in
flight, let go once every batch's end is claimed) expect every batch \`failed\` (quota_exceeded) or \`expired\`, the lines not run in
the error file under \`batch_failed\` / \`batch_expired\`, every line once, and in the quota case output files within the quota.

${chaosSections.join('\n')}
`;
mkdirSync(join(ROOT, 'reliability'), { recursive: true });
writeFileSync(join(ROOT, 'reliability/report.md'), report);
console.log(`\n${loadTable}\n\nwrote reliability/report.md`);
