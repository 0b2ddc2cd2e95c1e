/**
 * `npm run scale-model`: predicts wall time and dollars of rerank jobs from 1k to 1M documents at worker
 * concurrency 10 / 100 / 1,000 and every Lambda memory size, from measurements only:
 *  - our scorer's pairs/s per thread count (bench/scoring-measurements.json, written by `npm run bench`),
 *  - the queue + store overhead per chunk and local job wall times (bench/jobs-measurements.json, `npm run bench:jobs`),
 *  - a stored corpus's analysis and query lines (bench/stored-corpus-measurements.json, scripts/measure/batches/profile-stored-line.ts),
 *  - each model's cold start (bench/cold-start-measurements.json, `npm run bench:cold-start`).
 * Writes bench/scale-model.md + bench/scale-model.svg and docs/cost.md's cost and corpus tables (between the
 * `scale-model:cost-table` and `scale-model:corpus-table` markers). No network, a second or two.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScoringMeasurements } from '../scoring/scoring-measurements.js';
import { LIMITS, MEMORY_SIZES_MB, PRICES, SERVICE } from './aws-limits.js';
import { documentsPerJob, predictJob, type JobPrediction, type JobScenario } from './job-simulation.js';
import { predictBatch, type BatchCallProfile } from './batch-simulation.js';
import { predictStoredCorpus, S3_GB_MONTH, type StoredCorpusMeasurements } from './stored-corpus-model.js';
import { lambdaThroughput, type LambdaThroughput, type MeasuredPoint } from './lambda-throughput.js';
import { logLogChartSvg } from './log-line-chart.js';
import { replaceBetweenMarkers } from './readme-section.js';
import { median } from '../scoring/bench-stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCUMENTS = [1_000, 10_000, 100_000, 1_000_000];
const CONCURRENCY = [10, 100, 1000];
/** The reranker the tables lead with: MiniLM-L6 int8, the usual production cross-encoder on CPU. */
const PRIMARY = { model: 'MiniLM-L6', variant: 'int8' };
const TABLE_MEMORY_MB = 3538;
const PLANNER_NOTE =
  'in SendMessageBatch calls of 10, 16 in flight, at the emulator median per call (moto answers slower than SQS: pessimistic)';

interface JobsMeasurements {
  readonly date: string;
  readonly cpus: number;
  readonly documents: number;
  readonly batchSize: number;
  readonly chunks: number;
  readonly syncMs: number;
  readonly overheadPerChunkMs: number;
  readonly jobs: { workers: number; wallMs: number }[];
}

/**
 * bench/jobs-measurements.json when present (bench:jobs writes it), else the figures of the committed
 * bench/jobs-report.md (runs made before bench:jobs wrote JSON): parsed, never retyped.
 */
function readJobsMeasurements(): JobsMeasurements {
  try {
    return readJson<JobsMeasurements>('bench/jobs-measurements.json', '`npm run bench:jobs`');
  } catch {
    const report = readFileSync(path.join(ROOT, 'bench/jobs-report.md'), 'utf8');
    const number = (pattern: RegExp): number => {
      const match = pattern.exec(report);
      if (match === null) throw new Error(`bench/jobs-report.md: no ${pattern.source}; run \`npm run bench:jobs\``);
      return Number(match[1]!.replace(/,/g, ''));
    };
    const documents = number(/(\d[\d,]*) documents of/);
    const batchSize = number(/batch_size (\d+)/);
    const jobs = [...report.matchAll(/^\| (\d+) \| ([\d.]+) s \|/gm)].map((m) => ({ workers: Number(m[1]), wallMs: Number(m[2]) * 1000 }));
    return {
      date: /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/m.exec(report)?.[1] ?? 'unknown',
      cpus: number(/(\d+) vCPUs/),
      documents,
      batchSize,
      chunks: Math.ceil(documents / batchSize),
      syncMs: number(/synchronous, one process, 1 thread \| ([\d.]+) s/) * 1000,
      overheadPerChunkMs: number(/per chunk \(1 consumer, no scoring\) \| ([\d.]+) ms/),
      jobs,
    };
  }
}

interface BatchAwsMeasurements {
  readonly date: string;
  readonly requests: number;
  readonly documents: number;
  readonly workers: number;
  readonly chunks: number;
  readonly barePairsPerSecond: number;
  readonly batchWallSeconds: number;
  readonly calls: BatchCallProfile;
}

/** bench/batch-aws-report.md (`npm run bench:batch:aws`): the batch pipeline's AWS calls on the emulators, parsed. */
function readBatchAwsMeasurements(): BatchAwsMeasurements {
  const report = readFileSync(path.join(ROOT, 'bench/batch-aws-report.md'), 'utf8');
  const number = (pattern: RegExp): number => {
    const match = pattern.exec(report);
    if (match === null) throw new Error(`bench/batch-aws-report.md: no ${pattern.source}; run \`npm run bench:batch:aws\``);
    return Number(match[1]!.replace(/,/g, ''));
  };
  const requests = number(/^(\d+) requests x \d+ documents/m);
  const documents = number(/^\d+ requests x (\d+) documents/m);
  const chunks = requests * Math.ceil(documents / SERVICE.chunkDocuments);
  const calls = new Map(
    [...report.matchAll(/^\| ((?:DynamoDB|S3|SQS) \w+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \|/gm)].map((m) => [
      m[1]!,
      { count: Number(m[2]), medianMs: Number(m[3]), totalS: Number(m[4]) },
    ]),
  );
  const call = (name: string) => calls.get(name) ?? { count: 0, medianMs: 0, totalS: 0 };
  const modeledApart = ['SQS SendMessageBatch', 'S3 PutObject', 'S3 HeadObject'];
  const workerSeconds = [...calls].filter(([name]) => !modeledApart.includes(name)).reduce((sum, [, c]) => sum + c.totalS, 0);
  return {
    date: /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/m.exec(report)?.[1] ?? 'unknown',
    requests,
    documents,
    workers: number(/(\d+) workers \(bare/),
    chunks,
    barePairsPerSecond: number(/^\| bare scorer \| [\d.]+ s \| (\d+) \|/m),
    batchWallSeconds: number(/^\| batch on emulators [^|]*\| ([\d.]+) s \|/m),
    calls: {
      workerCallSecondsPerChunk: workerSeconds / chunks,
      sendSeconds: call('SQS SendMessageBatch').medianMs / 1000,
      putSeconds: call('DynamoDB PutItem').medianMs / 1000,
      querySeconds: call('DynamoDB Query').medianMs / 1000,
      writeUnitsPerChunk:
        (call('DynamoDB PutItem').count +
          call('DynamoDB DeleteItem').count +
          call('DynamoDB UpdateItem').count +
          2 * call('DynamoDB TransactWriteItems').count) /
        chunks,
      readUnitsPerChunk: (call('DynamoDB GetItem').count + call('DynamoDB Query').count + call('DynamoDB BatchGetItem').count) / chunks,
      s3GetsPerChunk: call('S3 GetObject').count / chunks,
    },
  };
}

function readJson<T>(file: string, hint: string): T {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;
  } catch (error) {
    throw new Error(`cannot read ${file} (${(error as Error).message}); run ${hint} first`, { cause: error });
  }
}

/** bench/cold-start-measurements.json as the scale model reads it (written by `npm run bench:cold-start`). */
interface ColdStartMeasurements {
  readonly date: string;
  readonly uptimeBefore: string;
  readonly cells: readonly {
    readonly label: string;
    readonly threads: number;
    readonly build: string;
    readonly median: { readonly cpu: { readonly total: number }; readonly wall: { readonly total: number } };
  }[];
}

const COLD_STARTS = readJson<ColdStartMeasurements>('bench/cold-start-measurements.json', '`npm run bench:cold-start`');
/** The default model's row in bench/cold-start.md. */
const DEFAULT_MODEL_LABEL = 'default';

/**
 * Seconds from a fresh process to the first answer of a 10-document request (bench/cold-start.md): the CPU time of the
 * whole cold start at 1 thread, this build. A 1-vCPU function spends it as wall time; the bench's own wall figures also
 * hold the wait for a CPU on its shared machine. Lambda's sandbox start comes on top. Undefined for a shape not benched.
 */
function benchedColdStartSeconds(label: string): number | undefined {
  const cell = COLD_STARTS.cells.find(
    (c) => c.build === 'change' && c.threads === 1 && (c.label === label || c.label.startsWith(`${label} `)),
  );
  return cell === undefined ? undefined : cell.median.cpu.total / 1000;
}

const DEFAULT_MODEL_COLD_START_SECONDS = benchedColdStartSeconds(DEFAULT_MODEL_LABEL) ?? 2;
const money = (v: number): string =>
  v >= 100 ? `$${v.toFixed(0)}` : v >= 1 ? `$${v.toFixed(2)}` : v >= 0.01 ? `$${v.toFixed(3)}` : `$${v.toFixed(4)}`;
const duration = (s: number): string =>
  s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`;
const table = (header: string[], rows: (string | number)[][]): string =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

function points(scoring: ScoringMeasurements, model: string, variant: string): MeasuredPoint[] {
  return scoring.rows
    .filter((r) => r.model === model && r.variant === variant)
    .map((r) => ({ threads: r.threads, pairsPerSecond: r.pairsPerSecond }));
}

function coldStartSeconds(scoring: ScoringMeasurements, model: string, variant: string): number {
  return benchedColdStartSeconds(`${model} ${variant}`) ?? scoring.coldStart.find((c) => c.model === `${model} ${variant}`)?.seconds ?? 1;
}

function main(): void {
  const scoring = readJson<ScoringMeasurements>('bench/scoring-measurements.json', '`npm run bench`');
  const jobsBench = readJobsMeasurements();
  const overhead = jobsBench.overheadPerChunkMs / 1000;
  const series = [...new Set(scoring.rows.map((r) => `${r.model}|${r.variant}`))].map((k) => {
    const [model, variant] = k.split('|') as [string, string];
    return { model, variant, perMemory: MEMORY_SIZES_MB.map((mb) => lambdaThroughput(points(scoring, model, variant), mb)) };
  });
  const primary = series.find((s) => s.model === PRIMARY.model && s.variant === PRIMARY.variant) ?? series[0]!;
  const scenario = (t: LambdaThroughput, documents: number, concurrency: number, model: string, variant: string): JobScenario => ({
    documents,
    concurrency,
    memoryMb: t.memoryMb,
    architecture: 'arm64',
    pairsPerSecond: t.pairsPerSecond,
    overheadPerChunkSeconds: overhead,
    coldStartSeconds: coldStartSeconds(scoring, model, variant),
  });
  const predictions: { memoryMb: number; documents: number; concurrency: number; p: JobPrediction }[] = [];
  for (const t of primary.perMemory) {
    for (const documents of DOCUMENTS) {
      for (const concurrency of CONCURRENCY) {
        predictions.push({
          memoryMb: t.memoryMb,
          documents,
          concurrency,
          p: predictJob(scenario(t, documents, concurrency, primary.model, primary.variant)),
        });
      }
    }
  }

  // Check against the local jobs bench: same documents, chunk size and workers, its own per-pair time
  // (its synchronous run), no AWS limits; the machine's cores cap the workers that really run at once.
  const localPps = jobsBench.documents / (jobsBench.syncMs / 1000);
  const check = jobsBench.jobs.map((j) => {
    const p = predictJob({
      documents: jobsBench.documents,
      concurrency: Math.min(j.workers, jobsBench.cpus),
      memoryMb: 1769,
      architecture: 'x86_64',
      pairsPerSecond: localPps,
      overheadPerChunkSeconds: overhead,
      coldStartSeconds: 0,
      chunkDocuments: jobsBench.batchSize,
      unlimited: true,
    });
    return { workers: j.workers, predicted: p.wallSeconds, measured: j.wallMs / 1000 };
  });

  // Batches: a 1M-document corpus for one query, and 10,000 queries of 100 inline documents, at each concurrency.
  const batchAws = readBatchAwsMeasurements();
  const tableThroughput = primary.perMemory.find((t) => t.memoryMb === TABLE_MEMORY_MB)!;
  const batchScenarios = [
    { name: '1 query over a 1,000,000-document corpus', requests: 1, documentsPerRequest: 1_000_000, corpus: true },
    { name: '10,000 queries x 100 documents', requests: 10_000, documentsPerRequest: 100, corpus: false },
  ];
  // The fastest measured model too: the faster the scoring, the sooner the planner and the store bind.
  const fastest = series.reduce((best, s) =>
    (s.perMemory.find((t) => t.memoryMb === TABLE_MEMORY_MB)?.pairsPerSecond ?? 0) >
    (best.perMemory.find((t) => t.memoryMb === TABLE_MEMORY_MB)?.pairsPerSecond ?? 0)
      ? s
      : best,
  );
  const batchModels = fastest === primary ? [primary] : [primary, fastest];
  const batchRows = batchModels.flatMap((m) =>
    batchScenarios.flatMap((b) =>
      CONCURRENCY.map((concurrency) => {
        const p = predictBatch({
          ...b,
          concurrency,
          memoryMb: TABLE_MEMORY_MB,
          pairsPerSecond: (m.perMemory.find((t) => t.memoryMb === TABLE_MEMORY_MB) ?? tableThroughput).pairsPerSecond,
          coldStartSeconds: coldStartSeconds(scoring, m.model, m.variant),
          calls: batchAws.calls,
        });
        const pairs = b.requests * b.documentsPerRequest;
        return { ...b, model: `${m.model} ${m.variant}`, concurrency, p, perMillionPairs: (p.cost.total / pairs) * 1e6 };
      }),
    ),
  );
  // The emulator run itself, predicted: its requests, its workers, the bare scorer's pace per worker, no AWS limits.
  const batchCheck = predictBatch({
    requests: batchAws.requests,
    documentsPerRequest: batchAws.documents,
    corpus: false,
    concurrency: batchAws.workers,
    memoryMb: 1769,
    pairsPerSecond: batchAws.barePairsPerSecond / batchAws.workers,
    coldStartSeconds: 0,
    calls: batchAws.calls,
    unlimited: true,
  });

  // A corpus analysed once, then query lines over it (the default model; issue 34), at each concurrency.
  const stored = readJson<StoredCorpusMeasurements>(
    'bench/stored-corpus-measurements.json',
    'scripts/measure/batches/profile-stored-line.ts with PROFILE_WRITE=1',
  );
  const corpusScenarios = [
    { name: 'analysis, once (every document encoded, its shards stored)', lines: 0, analysis: true },
    { name: '1 query line alone', lines: 1, analysis: false },
    { name: '1,000 query lines (grouped 64 a task)', lines: 1_000, analysis: false },
  ];
  const corpusRows = corpusScenarios.map((c) => ({
    ...c,
    byConcurrency: CONCURRENCY.map((concurrency) =>
      predictStoredCorpus(stored, batchAws.calls, {
        documents: 1_000_000,
        lines: c.lines,
        concurrency,
        coldStartSeconds: DEFAULT_MODEL_COLD_START_SECONDS,
        analysis: c.analysis,
      }),
    ),
  }));
  const storedGb = ((stored.storedBytes / stored.documents) * 1e6) / 1e9;
  const corpusTable = [
    `Generated by \`npm run scale-model\` from scripts/measure/batches/profile-stored-line.ts (${stored.date.slice(0, 10)}, ${stored.machine}, 1-minute load ` +
      `${stored.load[0].toFixed(1)}-${stored.load[1].toFixed(1)}): ${stored.documents.toLocaleString('en-US')} short documents analysed in ${duration(stored.analysisMs / 1000)} ` +
      `(${Math.round(stored.documents / (stored.analysisMs / 1000))} documents/s on ${stored.cpus} vCPUs), a line alone ${(median(stored.oneLineMs) / 1000).toFixed(2)} s (median of ${stored.oneLineMs.length}), ` +
      `${stored.lines.toLocaleString('en-US')} lines ${duration(stored.manyLinesMs / 1000)}, peak RSS ${stored.peakRssMb} MB. On AWS: batch workers of 1,769 MB (one vCPU, x86 prices), ` +
      `compute as measured per document and per line, the emulator run's AWS calls per line and span, the SQS ramp, a cold start of ${DEFAULT_MODEL_COLD_START_SECONDS.toFixed(2)} s (measured: bench/cold-start.md, ` +
      `the default models at 1 thread, ${COLD_STARTS.date.slice(0, 10)}). Stored: ${storedGb.toFixed(1)} GB per million documents (~${money(storedGb * S3_GB_MONTH)} a month on S3, counted against the key's stored bytes).`,
    '',
    table(
      ['1,000,000 documents, default model', 'concurrency 10', 'concurrency 100', 'concurrency 1,000'],
      corpusRows.map((r) => [
        r.name,
        ...r.byConcurrency.map((p) => `${duration(p.wallSeconds)}, ${money(p.cost.total)} (${p.tasks.toLocaleString('en-US')} tasks)`),
      ]),
    ),
    '',
    table(
      ['at concurrency 100, of which', 'compute', 'SQS', 'DynamoDB', 'S3'],
      corpusRows.map((r) => {
        const c = r.byConcurrency[1]!.cost;
        return [r.name, money(c.compute), money(c.queue), money(c.store), money(c.files)];
      }),
    ),
  ].join('\n');

  const svg = logLogChartSvg(`Predicted job wall time and cost, ${primary.model} ${primary.variant} (from measured per-pair time)`, [
    {
      title: `Wall time at ${TABLE_MEMORY_MB} MB (2 vCPUs)`,
      xLabel: 'documents per job (log)',
      yLabel: 'wall time, s (log)',
      lines: CONCURRENCY.map((c) => ({
        label: `concurrency ${c}`,
        points: predictions
          .filter((r) => r.memoryMb === TABLE_MEMORY_MB && r.concurrency === c)
          .map((r) => ({ x: r.documents, y: r.p.wallSeconds })),
      })),
      marks: [{ label: '15 min', y: 900 }],
    },
    {
      title: 'Cost of 1M documents by memory size (concurrency 100)',
      xLabel: 'Lambda memory, MB (log)',
      yLabel: 'dollars per 1M documents (log)',
      lines: series.map((s) => ({
        label: `${s.model} ${s.variant}`,
        points: s.perMemory.map((t) => ({ x: t.memoryMb, y: predictJob(scenario(t, 1_000_000, 100, s.model, s.variant)).cost.total })),
      })),
    },
  ]);
  writeFileSync(path.join(ROOT, 'bench', 'scale-model.svg'), svg);

  const loads = scoring.loadAverage1m.map((l) => `${l.threads} thr ${l.start.toFixed(1)} -> ${l.end.toFixed(1)}`).join(', ');
  const cores = Number(scoring.machine.split(' x ')[0]);
  // Above one runnable process per core the bench shared its cores: then its pairs/s understate a dedicated vCPU.
  const overloaded = scoring.loadAverage1m.some((l) => Math.max(l.start, l.end) > cores);
  const loadNote = overloaded
    ? 'every process got a fraction of a core, so these pairs/s are far below a dedicated vCPU and the dollars far above. ' +
      'Re-run `npm run bench -- --threads 1,2` and `npm run scale-model` on a quiet machine (or the target) before quoting them.'
    : 'below one runnable process per core, so the figures are close to dedicated vCPUs of this x86 machine (Graviton differs: ' +
      "measure on the target). Memory sizes above this machine's cores are extrapolated from the measured scaling.";
  const throughputRows = series.flatMap((s) =>
    s.perMemory.map((t) => {
      const gbSecondsPerThousand = (1000 / t.pairsPerSecond) * (t.memoryMb / 1024);
      return [
        `${s.model} ${s.variant}`,
        t.memoryMb,
        t.vcpus.toFixed(2),
        t.threads,
        t.pairsPerSecond.toFixed(1),
        t.basis,
        gbSecondsPerThousand.toFixed(1),
        money(gbSecondsPerThousand * 1000 * PRICES.lambdaGbSecond.arm64),
        money(gbSecondsPerThousand * 1000 * PRICES.lambdaGbSecond.x86_64),
      ];
    }),
  );
  const perJob = documentsPerJob(SERVICE.documentBytes);
  const report = [
    '# Cost and scale model (`npm run scale-model`)',
    '',
    `Generated ${new Date().toISOString().slice(0, 16)} UTC by scripts/measure/scale/run-scale-model.ts from measurements only:`,
    '',
    `- per-pair scoring time per thread count: bench/scoring-measurements.json (\`${scoring.source}\`, ${scoring.date.slice(0, 16)}, ${scoring.machine}; ` +
      `1-minute load average ${loads}: a shared, noisy machine, so absolute figures are pessimistic);`,
    `- queue + store + merge overhead per chunk: ${jobsBench.overheadPerChunkMs.toFixed(1)} ms (bench/jobs-measurements.json, \`npm run bench:jobs\`, ${jobsBench.date.slice(0, 16)}, ` +
      'DynamoDB Local + moto on loopback; on AWS each call is a network round trip, similar order);',
    `- prices and limits: scripts/measure/scale/aws-limits.ts (us-east-1 list prices; arm64 compute unless stated).`,
    '',
    `Model: a job of D documents is ${SERVICE.chunkDocuments}-document chunks (RERANK_DEFAULT_BATCH_SIZE); each worker Lambda scores one chunk in ` +
      '`overhead + 64 / pairs_per_second`; the workers available at time t are min(concurrency asked, account limit, the SQS ramp of 5 + 300/minute); ' +
      "the chunk rate is capped by DynamoDB (every chunk puts its scores and counts once on its counter, 4 WCU on the counter's partition - one per 64 chunks " +
      'of a job, up to 16 - at 1,000 WCU/s per partition, 4,000 WCU/s for a new on-demand table); plus one cold start (bench/cold-start.md: node start, bundle import, model load and a first request, CPU time at 1 thread) and the last chunk. Memory above 1,769 MB buys vCPUs; scoring uses ' +
      'one session per vCPU (chooseExecutionPlan). Thread counts the bench did not measure are extrapolated from the measured marginal scaling (marked).',
    '',
    '![scale model](scale-model.svg)',
    '',
    '## Throughput and compute cost per Lambda memory size',
    '',
    table(
      ['model', 'memory MB', 'vCPUs', 'threads', 'pairs/s', 'basis', 'GB-s per 1k pairs', '$ per 1M pairs arm64', '$ per 1M pairs x86'],
      throughputRows,
    ),
    '',
    `Compute only, and the speed is this x86 machine's: Graviton (arm64, Lambda's default) runs int8 through different kernels (no VNNI; ` +
      'the dot-product instructions of Neoverse cores), so measure `npm run bench` on the target before trusting the arm64 column.',
    '',
    `## Jobs: ${primary.model} ${primary.variant}, wall time and total cost (compute + init + requests + SQS + DynamoDB + API)`,
    '',
    table(
      [
        'documents',
        'memory MB',
        'concurrency',
        'jobs',
        'chunks',
        'peak workers',
        'wall time',
        'total $',
        '$ per 1k docs',
        'compute share',
        'binding limits and what the design does',
      ],
      predictions.map((r) => [
        r.documents.toLocaleString('en-US'),
        r.memoryMb,
        r.concurrency,
        r.p.jobs,
        r.p.chunks.toLocaleString('en-US'),
        Math.round(r.p.peakConcurrency),
        duration(r.p.wallSeconds),
        money(r.p.cost.total),
        money((r.p.cost.total / r.documents) * 1000),
        `${Math.round((r.p.cost.compute / r.p.cost.total) * 100)}%`,
        r.p.binding.join('; ') || 'none (scoring-bound)',
      ]),
    ),
    '',
    '## Where limits bind, and what the design does',
    '',
    `- **6 MB request body** (Lambda payload): at ~${SERVICE.documentBytes} B per document one request carries ${perJob.toLocaleString('en-US')} documents ` +
      `(RERANK_MAX_DOCUMENTS caps at ${SERVICE.maxDocumentsPerJob.toLocaleString('en-US')}); larger sets get 413 and the client submits several jobs - which also spreads ` +
      'the DynamoDB writes over several partition keys. Results come back paged, ranked, without document text unless asked.',
    `- **400 KB DynamoDB item**: documents and results are stored in pages under it (byte-pages.ts); a chunk's scores are 8 bytes each. Never binds.`,
    `- **SQS**: standard queues have no practical request-rate limit; a chunk message over ${LIMITS.sqsMessageBytes / 2 ** 20} MiB is halved by planChunks. The event source ` +
      'adds up to 300 workers a minute, so a 1,000-worker fleet takes ~3 minutes to form: short jobs never see their full concurrency, the queue holds the backlog.',
    "- **DynamoDB per-partition rate**: a job's chunks are recorded as a batch line's are (the ChunkLedger): scores put and counted once on one of the " +
      "job's counters, one per 64 chunks on its own partition (up to 16), never on the job's META item (which took one transaction per chunk before: ~250 " +
      'chunks/s per job, with conflicts). A 100-chunk job writes on 2 partitions (~500 chunks/s), a 6,400-chunk one (batch_size 1) on 16 (~4,000); the ' +
      "table's initial 4,000 WCU/s (~1,000 chunks/s) binds first. A larger batch_size (fewer, longer chunks) is the lever; it binds only with fast models.",
    '- **Account concurrency** (1,000 by default, shared with the API function): concurrency 1,000 uses all of it; ask AWS for more and reserve concurrency ' +
      'for the API so a big job cannot starve interactive requests.',
    '',
    `## Batches at ${TABLE_MEMORY_MB} MB: wall time and total cost (compute + requests + SQS + DynamoDB + S3)`,
    '',
    `Per chunk of ${SERVICE.chunkDocuments} documents the batch worker makes the AWS calls \`npm run bench:batch:aws\` counted on the emulators ` +
      `(${batchAws.date.slice(0, 16)}: ${(batchAws.calls.workerCallSecondsPerChunk * 1000).toFixed(0)} ms of calls, ${batchAws.calls.writeUnitsPerChunk.toFixed(1)} DynamoDB writes, ` +
      `${batchAws.calls.readUnitsPerChunk.toFixed(1)} reads, ${batchAws.calls.s3GetsPerChunk.toFixed(1)} S3 GETs); the planner (one invocation) sends tasks ${PLANNER_NOTE}; ` +
      'scripts/measure/scale/batch-simulation.ts has the flow.',
    '',
    table(
      [
        'model',
        'batch',
        'concurrency',
        'chunks',
        'peak workers',
        'wall time',
        'total $',
        '$ per 1M pairs',
        'compute share',
        'binding limits and what the design does',
      ],
      batchRows.map((r) => [
        r.model,
        r.name,
        r.concurrency,
        r.p.chunks.toLocaleString('en-US'),
        Math.round(r.p.peakConcurrency),
        duration(r.p.wallSeconds),
        money(r.p.cost.total),
        money(r.perMillionPairs),
        `${Math.round((r.p.cost.compute / r.p.cost.total) * 100)}%`,
        r.p.binding.join('; ') || 'none (scoring-bound)',
      ]),
    ),
    '',
    `Check against the emulator run (${batchAws.requests} requests x ${batchAws.documents} documents, ${batchAws.workers} workers at the bare scorer's ` +
      `${(batchAws.barePairsPerSecond / batchAws.workers).toFixed(0)} pairs/s each, no AWS limits): predicted ${duration(batchCheck.wallSeconds)}, measured ` +
      `${duration(batchAws.batchWallSeconds)} (${(batchAws.batchWallSeconds / batchCheck.wallSeconds).toFixed(2)}x): the emulators and the workers share this machine's cores.`,
    '',
    '## A corpus analysed once, then queries over it (default model)',
    '',
    corpusTable,
    '',
    '## Check against `npm run bench:jobs` (this machine)',
    '',
    `Same job (${jobsBench.documents.toLocaleString('en-US')} documents, ${jobsBench.batchSize} per chunk, the fixture model at its measured ` +
      `${localPps.toFixed(0)} pairs/s on one thread), no AWS limits, workers capped at the machine's ${jobsBench.cpus} cores:`,
    '',
    table(
      ['workers', 'predicted', 'measured', 'measured / predicted'],
      check.map((c) => [c.workers, duration(c.predicted), duration(c.measured), `${(c.measured / c.predicted).toFixed(2)}x`]),
    ),
    '',
    'The local run is slower than predicted when its workers share the cores with DynamoDB Local, moto and the coordinator (they do here); ' +
      "on Lambda each worker has its own vCPUs and the store is a service, so the gap is this machine's, not the model's.",
    '',
  ].join('\n');
  writeFileSync(path.join(ROOT, 'bench', 'scale-model.md'), report);

  const readmePath = path.join(ROOT, 'docs', 'cost.md');
  const costTable = [
    `Generated by \`npm run scale-model\` from \`npm run bench\` (${scoring.date.slice(0, 10)}, ${scoring.machine}) and \`npm run bench:jobs\`; ` +
      'details, limits and the plot in [bench/scale-model.md](../bench/scale-model.md). ' +
      `**The bench ran at a 1-minute load average of ${loads}** on ${cores} cores: ${loadNote}`,
    '',
    table(
      ['model shape', 'memory', 'pairs/s', 'GB-s per 1,000 pairs', 'compute per 1M pairs arm64 / x86'],
      series.flatMap((s) =>
        s.perMemory
          .filter((t) => t.memoryMb === 1769 || t.memoryMb === TABLE_MEMORY_MB || t.memoryMb === 10240)
          .map((t) => {
            const gbs = (1000 / t.pairsPerSecond) * (t.memoryMb / 1024);
            return [
              `${s.model}, ${s.variant}`,
              `${t.memoryMb} MB${t.basis === 'extrapolated' ? ' (extrapolated)' : ''}`,
              t.pairsPerSecond.toFixed(1),
              gbs.toFixed(1),
              `${money(gbs * 1000 * PRICES.lambdaGbSecond.arm64)} / ${money(gbs * 1000 * PRICES.lambdaGbSecond.x86_64)}`,
            ];
          }),
      ),
    ),
    '',
    table(
      [`${primary.model} ${primary.variant} job at ${TABLE_MEMORY_MB} MB`, 'concurrency 10', 'concurrency 100', 'concurrency 1,000'],
      DOCUMENTS.map((d) => [
        `${d.toLocaleString('en-US')} documents`,
        ...CONCURRENCY.map((c) => {
          const r = predictions.find((x) => x.memoryMb === TABLE_MEMORY_MB && x.documents === d && x.concurrency === c)!;
          return `${duration(r.p.wallSeconds)}, ${money(r.p.cost.total)}`;
        }),
      ]),
    ),
    '',
    table(
      [`${primary.model} ${primary.variant} batch at ${TABLE_MEMORY_MB} MB`, 'concurrency 10', 'concurrency 100', 'concurrency 1,000'],
      batchScenarios.map((b) => [
        b.name,
        ...CONCURRENCY.map((c) => {
          const r = batchRows.find((x) => x.model === `${primary.model} ${primary.variant}` && x.name === b.name && x.concurrency === c)!;
          return `${duration(r.p.wallSeconds)}, ${money(r.p.cost.total)} (${money(r.perMillionPairs)} per 1M pairs)`;
        }),
      ]),
    ),
  ].join('\n');
  const withCost = replaceBetweenMarkers(readFileSync(readmePath, 'utf8'), 'scale-model:cost-table', costTable);
  writeFileSync(readmePath, replaceBetweenMarkers(withCost, 'scale-model:corpus-table', corpusTable));
  console.log('wrote bench/scale-model.md, bench/scale-model.svg and the docs/cost.md cost and corpus tables');
  for (const c of check)
    console.log(`bench:jobs check, ${c.workers} worker(s): predicted ${duration(c.predicted)}, measured ${duration(c.measured)}`);
}

main();
