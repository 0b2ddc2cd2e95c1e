import { DynamoDbBatchStore } from '../../../shared/adapters/dynamodb/dynamodb-batch-store.js';
import { DynamoDbQuotaLedger } from '../../../shared/adapters/dynamodb/dynamodb-quota-ledger.js';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { isTerminal, type BatchTask } from '../../../shared/batches/batch-model.js';
import { RerankService } from '../../../shared/core/rerank-service.js';
import { createScorerRegistry } from '../../../shared/core/scorer-registry.js';
import type { QuotaCounter, QuotaLedger } from '../../../shared/quota/quota-ledger.js';
import { createBatchEngine } from '../../../shared/runtime/create-batch-engine.js';
import { ExpiryDriver } from './chaos-batch-endings.js';
import { chaosBatchLines, poisonableScorer, type BatchesWork, type Line } from './chaos-batch-lines.js';
import type { ChaosEnv, ChaosLaneRun } from './chaos-run.js';
import { FileWrites } from './file-writes.js';

/** The finalize lease of the chaos runs: the sweep (every 2 s) re-sends a lost finalize after it. */
const SWEEP_LEASE_SECONDS = 10;

type Usage = Record<'running_batches' | 'stored_bytes' | 'files', number>;

/** One batch after the run, read on the clean clients. */
export interface BatchResult {
  readonly id: string;
  readonly lines: readonly string[];
  readonly status: string;
  readonly errorCodes: string;
  readonly output: Line[];
  readonly errors: Line[];
  /** Bytes of its output and error files, and of the output file alone. */
  readonly bytes: number;
  readonly outputBytes: number;
  /** The files the record names, and the key's listed output and error files under the batch's names (ids). */
  readonly named: { readonly output?: string | undefined; readonly error?: string | undefined };
  readonly listed: { readonly output: readonly string[]; readonly error: readonly string[] };
}

/** How a lane's batches are driven: the key, its stored-bytes limit, and whether they expire while running. */
export interface BatchesLaneSetup {
  readonly owner: string;
  readonly storedBytes: number;
  readonly expiry: boolean;
}

export interface BatchesLaneResult {
  readonly batches: readonly BatchResult[];
  /** Highest usage seen on the key's ledger (after every reservation and at every poll). */
  readonly quotaMax: Usage;
  readonly quotaAfter: Readonly<Record<QuotaCounter, number>>;
  readonly filesAfter: { readonly count: number; readonly bytes: number };
  /** Output and error files: most writers of one file at once, and writers opened again after a failed finalizer. */
  readonly writes: { readonly maxConcurrent: number; readonly rewrites: number };
}

/** The key's ledger on the faulty client, with a read of the truth after every reservation that took something. */
function observedLedger(env: ChaosEnv, owner: string, quotaMax: Usage) {
  const truth = new DynamoDbQuotaLedger(env.stack.dynamodb, env.stack.tableName);
  const observe = async () => {
    const usage = await truth.usage(owner);
    for (const c of ['running_batches', 'stored_bytes', 'files'] as const) quotaMax[c] = Math.max(quotaMax[c], usage[c]);
  };
  const inner = new DynamoDbQuotaLedger(env.dynamodb, env.stack.tableName);
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
  return { ledger, observe, truth };
}

function chaosEngine(
  env: ChaosEnv,
  ledger: QuotaLedger,
  files: S3FileStore,
  work: BatchesWork,
  storedBytes: number,
  expiry: ExpiryDriver | undefined,
): BatchEngine {
  const registry = createScorerRegistry([expiry ? expiry.gate.wrap(poisonableScorer()) : poisonableScorer()]);
  return createBatchEngine({
    store: new DynamoDbBatchStore(env.dynamodb, env.stack.tableName),
    files,
    queue: new SqsTaskQueue<BatchTask>(env.sqs, env.queueUrl, 'batch'),
    scorerFor: (id) => registry.get(id),
    // A short lease: the sweep re-sends a finalize whose send was lost within seconds, not 20 minutes.
    limits: { ...DEFAULT_BATCH_LIMITS, chunkCost: 60, maxRunningBatches: work.batches, finalizeLeaseSeconds: SWEEP_LEASE_SECONDS },
    quota: ledger,
    storage: { stored_bytes: storedBytes },
    service: new RerankService({ catalog: registry }),
    plan: { syncMaxDocuments: 256, syncMaxChars: 2_000_000, defaultBatchSize: 8 },
    requestLimits: { maxDocuments: 1_000, maxBatchSize: 100, maxQueryChars: 1_000, maxDocumentChars: 10_000 },
    ...(expiry ? { nowMs: expiry.nowMs } : {}),
  });
}

/**
 * The batches lane: `work.batches` batches for one key through the batch engine over DynamoDbBatchStore, S3FileStore,
 * the shared task queue and DynamoDbQuotaLedger on the faulty clients, with the expiry sweep (which re-sends a lost
 * finalize) every 2 s; the result is read on clean clients.
 */
export function batchesLane(env: ChaosEnv, work: BatchesWork, setup: BatchesLaneSetup) {
  const { owner } = setup;
  const quotaMax: Usage = { running_batches: 0, stored_bytes: 0, files: 0 };
  const { ledger, observe, truth } = observedLedger(env, owner, quotaMax);
  const writes = new FileWrites();
  const expiry = setup.expiry ? new ExpiryDriver(env.counts) : undefined;
  const files = writes.watch(new S3FileStore(env.s3, env.stack.filesBucket)) as S3FileStore;
  const engine = chaosEngine(env, ledger, files, work, setup.storedBytes, expiry);
  const cleanFiles = new S3FileStore(env.stack.s3, env.stack.filesBucket);
  const truthStore = new DynamoDbBatchStore(env.stack.dynamodb, env.stack.tableName);
  let created: { id: string; lines: string[] }[] = [];
  let sweep: NodeJS.Timeout | undefined;
  const create = async (b: number) => {
    const lines = chaosBatchLines(b, work);
    const writer = await cleanFiles.openWriter({ ownerKeyId: owner, filename: `b${b}.jsonl`, purpose: 'batch', maxBytes: 1 << 24 });
    await writer.write(Buffer.from(lines.join('\n') + '\n'));
    const input = await writer.close();
    // A create is a client call: one that failed is retried by the client with the same Idempotency-Key.
    for (let attempt = 1; ; attempt++) {
      try {
        const request = { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' } as const;
        const view = await engine.create(owner, request, `${env.runId}-${b}`);
        return { id: view.batch.id, lines };
      } catch (error) {
        env.counts.add(`client: create retried (${(error as Error).name})`);
        if (attempt >= 10) throw error;
      }
    }
  };
  const lane: ChaosLaneRun = {
    owners: { batches: async () => engine },
    start: async () => {
      // The schedule that recovers a lost finalize send (the batch worker's expiry sweep on AWS).
      sweep = setInterval(() => void engine.expireDue().catch(() => env.counts.add('sweep: failed (faulted call)')), 2_000);
      created = await Promise.all(Array.from({ length: work.batches }, (_, b) => create(b)));
    },
    progress: async () => {
      await observe();
      const records = await Promise.all(created.map((c) => truthStore.get(c.id)));
      if (created.length === work.batches) expiry?.step(records);
      const ended = records.filter((r) => r !== undefined && isTerminal(r.status)).length;
      const counted = await Promise.all(
        records.map((r) => (r && !isTerminal(r.status) ? truthStore.countResults(r.id) : { completed: 0, failed: 0 })),
      );
      const done = counted.reduce((a, c) => a + c.completed + c.failed, 0);
      // An ended batch whose running-hold release failed gives the hold back on its finalize task's retry or redelivery
      // (batch-finalizer.ts), after the end is visible: the lane is done once every hold is back, and one never given
      // back stalls the run (a violation) instead of being read while its release is still on its way.
      const holding = ended === work.batches ? (await truth.usage(owner)).running_batches : undefined;
      const waiting = holding ? `, ${holding} running holds not yet given back` : '';
      return {
        done: ended === work.batches && holding === 0,
        progress: `${ended}/${work.batches} batches ended${waiting}; ${done} lines done in the others`,
      };
    },
    stopped: () => {
      clearInterval(sweep);
      expiry?.stop();
    },
  };
  const result = async (): Promise<BatchesLaneResult> => {
    await observe();
    const filesAfter = { count: 0, bytes: 0 };
    const batches: BatchResult[] = [];
    const listed = await listedBatchFiles(cleanFiles, owner);
    for (const c of created) {
      const record = await truthStore.get(c.id);
      const [output, errors] = [await readLines(cleanFiles, record?.outputFileId), await readLines(cleanFiles, record?.errorFileId)];
      for (const f of [record?.outputFileId, record?.errorFileId]) if (f !== undefined) filesAfter.count++;
      filesAfter.bytes += output.bytes + errors.bytes;
      batches.push({
        id: c.id,
        lines: c.lines,
        status: record?.status ?? 'missing',
        errorCodes: (record?.errors ?? []).map((e) => e.code).join(', '),
        output: output.lines,
        errors: errors.lines,
        bytes: output.bytes + errors.bytes,
        outputBytes: output.bytes,
        named: { output: record?.outputFileId, error: record?.errorFileId },
        listed: { output: listed.get(`${c.id}_output.jsonl`) ?? [], error: listed.get(`${c.id}_error.jsonl`) ?? [] },
      });
    }
    const quotaAfter = await truth.usage(owner);
    return { batches, quotaMax, quotaAfter, filesAfter, writes: { maxConcurrent: writes.maxConcurrent, rewrites: writes.rewrites } };
  };
  return { lane, result };
}

async function readLines(files: S3FileStore, fileId: string | undefined): Promise<{ lines: Line[]; bytes: number }> {
  if (fileId === undefined) return { lines: [], bytes: 0 };
  const chunks: Buffer[] = [];
  for await (const chunk of files.read(fileId)) chunks.push(Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString('utf8');
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
  return { lines, bytes: Buffer.byteLength(text) };
}

/** The key's batch output and error files as listed, by file name (a copy left behind would show as a second id). */
async function listedBatchFiles(files: S3FileStore, owner: string): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  let after: string | undefined;
  for (;;) {
    const page = await files.list(owner, { limit: 100, purpose: 'batch_output', ...(after === undefined ? {} : { after }) });
    for (const f of page.files) byName.set(f.filename, [...(byName.get(f.filename) ?? []), f.id]);
    if (!page.hasMore || page.files.length === 0) return byName;
    after = page.files.at(-1)?.id;
  }
}
