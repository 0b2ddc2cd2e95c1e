import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { createChunkQueues } from '../../emulators/create-chunk-queues.js';
import { startSqsPoller, type SqsPoller } from '../../emulators/sqs-poller.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { isTerminal, type BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeEngineTask } from '../../../shared/engine/engine-task.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import type { QuotaCounter, QuotaLedger } from '../../../shared/quota/quota-ledger.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { deadLetterEngineTaskWith, perRecord, runEngineTaskWith, type EngineOwners } from '../../../shared/runtime/engine-task-handlers.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import type { LocalAwsStack } from '../../emulators/local-aws-stack.js';
import { localAwsConfig } from '../../emulators/local-aws-config.js';
import { hashSeed, seededRandom } from '../../eval/seeded-random.js';
import { StalledError, waitForProgress } from '../../support/wait-for-progress.js';
import { DELIVERY_HOLD_SECONDS, RunningDeliveries } from './delivery-hold.js';
import { FaultCounts } from './fault-counts.js';
import { FileWrites } from './file-writes.js';

/** The finalize lease of the chaos runs: the sweep (every 2 s) re-sends a lost finalize after it. */
const SWEEP_LEASE_SECONDS = 10;
import { NO_SDK_FAULTS, injectSdkFaults, type SdkFaultRates } from './sdk-fault-injector.js';

/** Per delivery of a task of that kind, on deliveries up to `faultyReceives`: the worker dies before or after running it. */
export interface TaskCrashRates {
  readonly planBefore: number;
  readonly planAfter: number;
  readonly chunkBefore: number;
  readonly chunkAfter: number;
  readonly finalizeBefore: number;
  readonly finalizeAfter: number;
  /** The task's message is sent to the queue once more (an independent second delivery). */
  readonly redeliver: number;
}

export const NO_TASK_CRASHES: TaskCrashRates = {
  planBefore: 0,
  planAfter: 0,
  chunkBefore: 0,
  chunkAfter: 0,
  finalizeBefore: 0,
  finalizeAfter: 0,
  redeliver: 0,
};

export interface ChaosBatchesOptions {
  readonly seed: number;
  readonly batches: number;
  readonly linesPerBatch: number;
  /** How many batches (the first ones) carry one line whose scoring throws on every delivery. */
  readonly poisonedBatches: number;
  readonly sdk: SdkFaultRates;
  /** Where the SDK faults are raised (see SdkFaultOptions.placement); absent = inside-retry. */
  readonly sdkPlacement?: 'inside-retry' | 'outside-retry';
  /** The SDK clients' maxAttempts (absent = the SDK default of 3). */
  readonly sdkMaxAttempts?: number;
  readonly crashes: TaskCrashRates;
  readonly faultyReceives: number;
  readonly pollers: number;
  readonly pollerConcurrency: number;
  readonly maxReceiveCount: number;
  readonly visibilityTimeoutSeconds: number;
  readonly stallTimeoutMs: number;
  /** Told the progress whenever it moves (a long run shows it is alive). */
  readonly onProgress?: (progress: string) => void;
}

export interface BatchVerdict {
  readonly id: string;
  readonly status: string;
  readonly lines: number;
  readonly completed: number;
  readonly failed: number;
  readonly lost: number;
  readonly duplicated: number;
  /** Completed lines whose response differs from the fault-free run's. */
  readonly differing: number;
  readonly violation: string | undefined;
}

export interface ChaosBatchesReport {
  readonly verdicts: readonly BatchVerdict[];
  readonly faults: FaultCounts;
  readonly deliveries: number;
  /** Highest usage seen on the chaos key's ledger (after every reservation and at every poll) and its limits. */
  readonly quotaMax: Readonly<Record<'running_batches' | 'stored_bytes' | 'files', number>>;
  readonly quotaLimit: Readonly<Record<'running_batches' | 'stored_bytes', number>>;
  /** After the end: the ledger's usage and what the batches' output and error files hold. */
  readonly quotaAfter: Readonly<Record<QuotaCounter, number>>;
  readonly filesAfter: { readonly count: number; readonly bytes: number };
  /** First create to last batch ended, in ms; and the fault-free reference run's. */
  readonly wallMs: number;
  readonly cleanWallMs: number;
  readonly violations: readonly string[];
  /** Output and error files: most writers of one file at once, and writers opened again after a failed finalizer. */
  readonly writes: { readonly maxConcurrent: number; readonly rewrites: number };
}

const POISON = 'poison query that always fails';
const WORDS = 'neural ranking search python queue lambda gradient library panda bamboo river coffee attention retry'.split(' ');

class InjectedCrash extends Error {
  override readonly name = 'InjectedCrash';
}

/** The lines of batch `b`: rerank requests of 5-30 documents over the BM25 scorer; a poisoned batch's line 3 always fails. */
export function chaosBatchLines(b: number, options: Pick<ChaosBatchesOptions, 'linesPerBatch' | 'poisonedBatches'>): string[] {
  return Array.from({ length: options.linesPerBatch }, (_, i) => {
    const seed = b * 131 + i + 1;
    const query = b < options.poisonedBatches && i === 3 ? POISON : `${WORDS[seed % WORDS.length]} ${WORDS[(seed * 7) % WORDS.length]}`;
    const documents = Array.from({ length: 5 + (seed % 26) }, (_, d) =>
      Array.from({ length: 3 + ((d * seed) % 9) }, (_, j) => WORDS[(d * 5 + j * seed) % WORDS.length]).join(' '),
    );
    return JSON.stringify({
      custom_id: `b${b}-line-${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: { model: 'bm25', query, documents, top_n: 5, return_documents: i % 2 === 0 },
    });
  });
}

/** The BM25 scorer, except that the poison query throws on every call (a line no redelivery can help). */
function poisonableScorer(): Scorer {
  const scorer = createBm25Scorer({ id: 'bm25' });
  return {
    ...scorer,
    id: scorer.id,
    score: async (query, documents, options) => {
      if (query === POISON) throw new Error('poison line: scoring always fails');
      return scorer.score(query, documents, options);
    },
  };
}

type Line = { custom_id: string; response: { status_code: number; body: Record<string, unknown> } | null; error: unknown };

interface RunResult {
  readonly batches: {
    id: string;
    lines: readonly string[];
    status: string;
    errorCodes: string;
    output: Line[];
    errors: Line[];
    outputFileId?: string;
    errorFileId?: string;
  }[];
  readonly faults: FaultCounts;
  readonly deliveries: number;
  readonly quotaMax: Record<'running_batches' | 'stored_bytes' | 'files', number>;
  readonly quotaAfter: Record<QuotaCounter, number>;
  readonly filesAfter: { count: number; bytes: number };
  readonly wallMs: number;
  readonly stalled: string | undefined;
  readonly writes: { readonly maxConcurrent: number; readonly rewrites: number };
}

/**
 * One run of `batches` batches on the emulators: the batch engine over DynamoDbBatchStore, S3FileStore,
 * SqsTaskQueue and DynamoDbQuotaLedger built on SDK clients with the fault injector, SQS pollers running the engine's
 * worker routine (runEngineTaskWith) with crashes around each task, and a dead-letter poller running its dead-letter path.
 */
async function runOnce(
  stack: LocalAwsStack,
  options: ChaosBatchesOptions,
  owner: string,
  limits: { stored_bytes: number },
): Promise<RunResult> {
  const faultRandom = seededRandom(hashSeed(`chaos-batches-${owner}`, options.seed));
  const counts = new FaultCounts();
  const runId = `chaos-batches-${options.seed}-${owner}-${Date.now().toString(36)}`;
  const queues = await createChunkQueues(stack.sqs, runId, {
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
  });
  const config = (endpoint: string | undefined) => ({
    ...localAwsConfig(endpoint as string),
    ...(options.sdkMaxAttempts === undefined ? {} : { maxAttempts: options.sdkMaxAttempts }),
  });
  const dynamodb = new DynamoDBClient(config(stack.env['AWS_ENDPOINT_URL_DYNAMODB']));
  const sqs = new SQSClient(config(stack.env['AWS_ENDPOINT_URL_SQS']));
  const s3 = new S3Client({ ...config(stack.env['AWS_ENDPOINT_URL_S3']), forcePathStyle: true });
  const placement = options.sdkPlacement ?? 'inside-retry';
  for (const client of [dynamodb, sqs, s3]) injectSdkFaults(client, { rates: options.sdk, random: faultRandom, counts, placement });

  // The truth is read on the emulator's clean clients, so checking never injects a fault.
  const truth = new DynamoDbQuotaLedger(stack.dynamodb, stack.tableName);
  const quotaMax = { running_batches: 0, stored_bytes: 0, files: 0 };
  const observe = async () => {
    const usage = await truth.usage(owner);
    for (const c of ['running_batches', 'stored_bytes', 'files'] as const) quotaMax[c] = Math.max(quotaMax[c], usage[c]);
  };
  const inner = new DynamoDbQuotaLedger(dynamodb, stack.tableName);
  // Every reservation that took something is followed by a read of the usage, so a peak between polls is seen too.
  const ledger: QuotaLedger = {
    reserve: async (key, hold, l) => {
      const took = await inner.reserve(key, hold, l);
      if (key === owner) await observe();
      return took;
    },
    replace: async (key, from, to, l) => {
      const took = await inner.replace(key, from, to, l);
      if (key === owner) await observe();
      return took;
    },
    release: (key, id) => inner.release(key, id),
    releaseExpired: (key, now) => inner.releaseExpired(key, now),
    releaseWhere: (key, prefix) => inner.releaseWhere(key, prefix),
    usage: (key) => inner.usage(key),
  };

  const writes = new FileWrites();
  const files = writes.watch(new S3FileStore(s3, stack.filesBucket));
  const registry = createScorerRegistry([poisonableScorer()]);
  const engine: BatchEngine = createBatchEngine({
    store: new DynamoDbBatchStore(dynamodb, stack.tableName),
    files,
    queue: new SqsTaskQueue<BatchTask>(sqs, queues.queueUrl, 'batch'),
    scorerFor: (id) => registry.get(id),
    // A short lease: the sweep below re-sends a finalize whose send was lost within seconds, not 20 minutes.
    limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 60, maxRunningBatches: options.batches, finalizeLeaseSeconds: SWEEP_LEASE_SECONDS },
    quota: ledger,
    storage: limits,
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: 8 },
    requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
  });
  const owners: EngineOwners = { batches: async () => engine };

  let deliveries = 0;
  const { crashes } = options;
  const crashRate = {
    plan: [crashes.planBefore, crashes.planAfter],
    chunk: [crashes.chunkBefore, crashes.chunkAfter],
    finalize: [crashes.finalizeBefore, crashes.finalizeAfter],
  } as const;
  // The engine's worker routine as a Lambda runs it (one record at a time, ReportBatchItemFailures), with the worker
  // dying before or after a task on its first `faultyReceives` deliveries, so every healthy task has clean ones left.
  const runRecord = async (body: string, receiveCount: number): Promise<void> => {
    const message = decodeEngineTask(body);
    if (message.of !== 'batch') throw new Error('a job task on the batch lane');
    const kind = message.task.kind;
    counts.add(receiveCount > 1 ? 'observed: redelivery (receive count > 1)' : 'observed: first delivery');
    const faulty = receiveCount <= options.faultyReceives;
    if (faulty && faultRandom() < crashes.redeliver) {
      counts.add('worker: task sent once more (second delivery)');
      await stack.sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: body }));
    }
    if (faulty && faultRandom() < crashRate[kind][0]) {
      counts.add(`crash: ${kind} task, before it ran`);
      throw new InjectedCrash(`${kind} crashed before running`);
    }
    await runEngineTaskWith(body, owners);
    if (faulty && faultRandom() < crashRate[kind][1]) {
      counts.add(`crash: ${kind} task, after it ran (before the delete)`);
      throw new InjectedCrash(`${kind} crashed after running`);
    }
  };
  const onError = (error: unknown) => counts.add(`poller: error reported by the loop (${(error as Error).name})`);
  const running = new RunningDeliveries(counts);
  const pollers: SqsPoller[] = Array.from({ length: options.pollers }, () =>
    startSqsPoller({
      client: sqs,
      queueUrl: queues.queueUrl,
      batchSize: 5,
      waitTimeSeconds: 1,
      concurrency: options.pollerConcurrency,
      retryDelaySeconds: 0,
      holdSeconds: DELIVERY_HOLD_SECONDS,
      onError,
      handler: perRecord(async (record) => {
        deliveries++;
        await running.track(record.messageId, () => runRecord(record.body, Number(record.attributes.ApproximateReceiveCount)));
      }),
    }),
  );
  pollers.push(
    startSqsPoller({
      client: sqs,
      queueUrl: queues.dlqUrl,
      batchSize: 10,
      waitTimeSeconds: 1,
      retryDelaySeconds: 0,
      holdSeconds: DELIVERY_HOLD_SECONDS,
      onError,
      handler: perRecord(async (record) => {
        counts.add('dead-letter: task moved to the DLQ');
        await deadLetterEngineTaskWith(record.body, record.messageId, owners);
      }),
    }),
  );

  // The schedule that recovers a lost finalize send (the batch worker's expiry sweep on AWS).
  const sweep = setInterval(() => void engine.expireDue().catch(() => counts.add('sweep: failed (faulted call)')), 2_000);
  const cleanFiles = new S3FileStore(stack.s3, stack.filesBucket);
  const started = performance.now();
  const created = await Promise.all(
    Array.from({ length: options.batches }, async (_, b) => {
      const lines = chaosBatchLines(b, options);
      const writer = await cleanFiles.openWriter({ ownerKeyId: owner, filename: `b${b}.jsonl`, purpose: 'batch', maxBytes: 1 << 24 });
      await writer.write(Buffer.from(lines.join('\n') + '\n'));
      const input = await writer.close();
      // A create is a client call: one that failed is retried by the client with the same Idempotency-Key.
      for (let attempt = 1; ; attempt++) {
        try {
          const view = await engine.create(
            owner,
            { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' },
            `${runId}-${b}`,
          );
          return { id: view.batch.id, lines };
        } catch (error) {
          counts.add(`client: create retried (${(error as Error).name})`);
          if (attempt >= 10) throw error;
        }
      }
    }),
  );

  // Settle on the truth (a clean store): wait while any batch's status or counts move, or deliveries happen.
  const truthStore = new DynamoDbBatchStore(stack.dynamodb, stack.tableName);
  let stalled: string | undefined;
  let lastProgress = '';
  try {
    await waitForProgress(
      async () => {
        await observe();
        const records = await Promise.all(created.map((c) => truthStore.get(c.id)));
        const ended = records.filter((r) => r !== undefined && isTerminal(r.status)).length;
        const counted = await Promise.all(
          records.map((r) => (r && !isTerminal(r.status) ? truthStore.countResults(r.id) : { completed: 0, failed: 0 })),
        );
        const progress = `${ended}/${created.length} batches ended; ${counted.reduce((a, c) => a + c.completed + c.failed, 0)} lines done in the others; ${deliveries} deliveries`;
        if (progress !== lastProgress) options.onProgress?.(`${owner}: ${progress}`);
        lastProgress = progress;
        return { done: ended === created.length, progress, value: undefined };
      },
      { stallMs: options.stallTimeoutMs, pollMs: 200, what: `chaos batches (${owner})` },
    );
  } catch (error) {
    if (!(error instanceof StalledError)) throw error;
    stalled = error.message;
  }
  const wallMs = performance.now() - started;
  clearInterval(sweep);
  await Promise.all(pollers.map((p) => p.stop()));
  await observe();

  const read = async (fileId: string | undefined): Promise<{ lines: Line[]; bytes: number }> => {
    if (fileId === undefined) return { lines: [], bytes: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of cleanFiles.read(fileId)) chunks.push(Buffer.from(chunk));
    const text = Buffer.concat(chunks).toString('utf8');
    return {
      lines: text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Line),
      bytes: Buffer.byteLength(text),
    };
  };
  const filesAfter = { count: 0, bytes: 0 };
  const batches: RunResult['batches'] = [];
  for (const c of created) {
    const record = await truthStore.get(c.id);
    const [output, errors] = [await read(record?.outputFileId), await read(record?.errorFileId)];
    for (const f of [record?.outputFileId, record?.errorFileId]) if (f !== undefined) filesAfter.count++;
    filesAfter.bytes += output.bytes + errors.bytes;
    batches.push({
      id: c.id,
      lines: c.lines,
      status: record?.status ?? 'missing',
      errorCodes: (record?.errors ?? []).map((e) => e.code).join(', '),
      output: output.lines,
      errors: errors.lines,
      ...(record?.outputFileId ? { outputFileId: record.outputFileId } : {}),
      ...(record?.errorFileId ? { errorFileId: record.errorFileId } : {}),
    });
  }
  const quotaAfter = await truth.usage(owner);
  dynamodb.destroy();
  sqs.destroy();
  s3.destroy();
  return {
    batches,
    faults: counts,
    deliveries,
    quotaMax,
    quotaAfter,
    filesAfter,
    wallMs,
    stalled,
    writes: { maxConcurrent: writes.maxConcurrent, rewrites: writes.rewrites },
  };
}

/** A completed line's response without its per-run ids, to compare with the fault-free run. */
function responseOf(line: Line): unknown {
  if (!line.response) return undefined;
  const { id: _id, ...body } = line.response.body;
  return { status: line.response.status_code, body };
}

/**
 * Batches under faults on DynamoDB Local + moto, checked against a fault-free run of the same batches: every batch
 * ends; every input line is in the output or the error file exactly once; every completed line equals the fault-free
 * run's; the poison lines (and only they) end in the error file; the key's ledger never passes its limits, and after
 * the end holds no running batch and exactly the bytes and files the batches' output and error files hold.
 */
export async function runChaosBatches(stack: LocalAwsStack, options: ChaosBatchesOptions): Promise<ChaosBatchesReport> {
  const unbounded = { stored_bytes: Number.MAX_SAFE_INTEGER };
  const clean = await runOnce(stack, { ...options, sdk: NO_SDK_FAULTS, crashes: NO_TASK_CRASHES }, `clean-${options.seed}`, unbounded);
  const reference = new Map(clean.batches.flatMap((b) => b.output.map((l) => [l.custom_id, responseOf(l)] as const)));
  // Room for every output once, plus one batch's worth twice: while a finalizer hands its lines' bytes to its files,
  // both count for a moment (transferToFiles), which the limit must allow without failing a batch that fits.
  const cleanBytes = clean.filesAfter.bytes;
  const quotaLimit = { running_batches: options.batches, stored_bytes: Math.ceil(cleanBytes * 2) };
  const chaos = await runOnce(stack, options, `chaos-${options.seed}`, { stored_bytes: quotaLimit.stored_bytes });

  const violations: string[] = [];
  if (clean.stalled) violations.push(`fault-free run: ${clean.stalled}`);
  if (chaos.stalled) violations.push(`chaos run: ${chaos.stalled}`);
  const verdicts = chaos.batches.map((b): BatchVerdict => {
    const seen = new Map<string, number>();
    for (const l of [...b.output, ...b.errors]) seen.set(l.custom_id, (seen.get(l.custom_id) ?? 0) + 1);
    const expected = b.lines.map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    const lost = expected.filter((id) => !seen.has(id)).length;
    const duplicated =
      [...seen.values()].reduce((a, n) => a + Math.max(0, n - 1), 0) + [...seen.keys()].filter((id) => !expected.includes(id)).length;
    const differing = b.output.filter((l) => !isDeepStrictEqual(responseOf(l), reference.get(l.custom_id))).length;
    const poisoned = b.lines.flatMap((l) =>
      (JSON.parse(l) as { custom_id: string; body: { query: string } }).body.query === POISON
        ? [(JSON.parse(l) as { custom_id: string }).custom_id]
        : [],
    );
    const failedIds = b.errors.map((l) => l.custom_id).sort();
    let violation: string | undefined;
    if (!isTerminal(b.status as never)) violation = `did not end: ${b.status}`;
    else if (b.status !== 'completed') violation = `ended ${b.status} (${b.errorCodes}), not completed`;
    else if (lost > 0 || duplicated > 0) violation = `${lost} lines lost, ${duplicated} duplicated`;
    else if (differing > 0) violation = `${differing} completed lines differ from the fault-free run`;
    else if (!isDeepStrictEqual(failedIds, poisoned.sort()))
      violation = `error file holds ${JSON.stringify(failedIds)}, expected the poison lines ${JSON.stringify(poisoned)}`;
    return {
      id: b.id,
      status: b.status,
      lines: b.lines.length,
      completed: b.output.length,
      failed: b.errors.length,
      lost,
      duplicated,
      differing,
      violation,
    };
  });
  violations.push(...verdicts.filter((v) => v.violation).map((v) => `${v.id}: ${v.violation}`));
  if (chaos.quotaMax.running_batches > quotaLimit.running_batches)
    violations.push(`running_batches reached ${chaos.quotaMax.running_batches} > ${quotaLimit.running_batches}`);
  // Line charges are checked against the limit atomically; a finalizer then gives a batch's output its file holds before
  // it releases the line holds (shared/batches/batch-quota.ts: over-counting for a moment, never under), so the counter
  // may show the batches' output twice while they end - at most the outputs once more, never stored bytes past the quota.
  const transferSlack = cleanBytes;
  if (chaos.quotaMax.stored_bytes > quotaLimit.stored_bytes + transferSlack) {
    violations.push(
      `stored_bytes reached ${chaos.quotaMax.stored_bytes} > ${quotaLimit.stored_bytes} + ${transferSlack} (the outputs counted twice while finalizers move them)`,
    );
  }
  // One finalizer at a time per batch (the lease): a file is never written by two at once.
  if (chaos.writes.maxConcurrent > 1) violations.push(`a batch's output or error file had ${chaos.writes.maxConcurrent} writers at once`);
  if (chaos.quotaAfter.running_batches !== 0)
    violations.push(`after the end the key still holds ${chaos.quotaAfter.running_batches} running batches`);
  if (chaos.quotaAfter.stored_bytes !== chaos.filesAfter.bytes)
    violations.push(`after the end the ledger holds ${chaos.quotaAfter.stored_bytes} stored bytes, the files ${chaos.filesAfter.bytes}`);
  if (chaos.quotaAfter.files !== chaos.filesAfter.count)
    violations.push(`after the end the ledger holds ${chaos.quotaAfter.files} files, the batches have ${chaos.filesAfter.count}`);
  return {
    verdicts,
    faults: chaos.faults,
    deliveries: chaos.deliveries,
    quotaMax: chaos.quotaMax,
    quotaLimit,
    quotaAfter: chaos.quotaAfter,
    filesAfter: chaos.filesAfter,
    wallMs: chaos.wallMs,
    cleanWallMs: clean.wallMs,
    violations,
    writes: chaos.writes,
  };
}

/** The run's figures as markdown: outcomes and quota, then the faults injected per kind. */
export function chaosBatchesTables(report: ChaosBatchesReport): { outcomes: string; faults: string } {
  const v = report.verdicts;
  const sum = (f: (x: BatchVerdict) => number) => v.reduce((a, x) => a + f(x), 0);
  const rows: [string, string | number][] = [
    ['batches', v.length],
    [
      'ended (terminal status) / completed',
      `${v.filter((x) => isTerminal(x.status as never)).length} / ${v.filter((x) => x.status === 'completed').length}`,
    ],
    ['input lines', sum((x) => x.lines)],
    ['lines in output / error files', `${sum((x) => x.completed)} / ${sum((x) => x.failed)}`],
    ['lost lines', sum((x) => x.lost)],
    ['duplicated lines', sum((x) => x.duplicated)],
    ['completed lines differing from the fault-free run', sum((x) => x.differing)],
    ['task deliveries', report.deliveries],
    [
      'running_batches: max seen / limit / after the end',
      `${report.quotaMax.running_batches} / ${report.quotaLimit.running_batches} / ${report.quotaAfter.running_batches}`,
    ],
    [
      'stored_bytes: max seen / limit / after the end',
      `${report.quotaMax.stored_bytes} / ${report.quotaLimit.stored_bytes} / ${report.quotaAfter.stored_bytes}`,
    ],
    [
      'output + error files: count / bytes (ledger after: files / bytes)',
      `${report.filesAfter.count} / ${report.filesAfter.bytes} (${report.quotaAfter.files} / ${report.quotaAfter.stored_bytes})`,
    ],
    [
      'output / error files: most writers of one file at once / rewrites after a failed finalizer',
      `${report.writes.maxConcurrent} / ${report.writes.rewrites}`,
    ],
    ['invariant violations', report.violations.length],
    [
      'wall time, first create to last batch ended (fault-free run)',
      `${(report.wallMs / 1000).toFixed(1)} s (${(report.cleanWallMs / 1000).toFixed(1)} s)`,
    ],
  ];
  const outcomes = ['| outcome | value |', '| --- | --- |', ...rows.map(([k, n]) => `| ${k} | ${n} |`)].join('\n');
  const faults = [
    '| injected fault / observed | count |',
    '| --- | --- |',
    ...report.faults.entries().map(([k, n]) => `| ${k} | ${n} |`),
  ].join('\n');
  return { outcomes, faults };
}
