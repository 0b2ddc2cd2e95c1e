import { forEachBounded } from '../core/for-each-bounded.js';
import { RerankError } from '../core/rerank-error.js';
import { FileNotFoundError } from '../files/file-errors.js';
import { keepResult } from './keep-result.js';
import { updateBatch } from './update-batch.js';
import { logger } from '../observability/logger.js';
import { RefusedLineError, admitBatchLine, type AdmittedLine } from './admit-batch-line.js';
import { BadInputLineError } from './batch-input-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchChunkTask, BatchRecord, BatchRequestPlan, BatchTask } from './batch-model.js';
import { failedLine } from './batch-output-lines.js';
import { planCorpusChunks, type CorpusPlan } from './corpus-chunks.js';
import { CorpusLineGroups, corpusSpans, groupLinesFor, ledgerScoresOfLine, type CorpusSpan } from './corpus-line-groups.js';
import { storedAnalysisFor } from './stored-analysis-for.js';
import { DOCUMENTS_FILE_ID, corpusDeletedError } from './corpus-reference.js';
import { expectAnalysisOnce } from './corpus-analysis-ledger.js';
import { estimatePairCost } from './estimate-pair-cost.js';
import { isBlankLine, readJsonlLines } from './jsonl-lines.js';
import { QueuedPairs, failOverQueuedPairs } from './queued-pairs.js';

/** Request plans written at once before their tasks are sent (the SDK's 50 sockets leave room for the sends). */
export const PLAN_WRITES = 32;
/** The batch's status is re-read this often, so a cancel stops planning soon. */
const CHECK_STATUS_EVERY_LINES = 256;

type CorpusOutcome = CorpusPlan | RerankError | FileNotFoundError;

/**
 * How a planning run ended: the whole file is planned; it stopped (cancelled, expired or failed while validating);
 * or its slice of time ran out, and it queued the next plan task, which resumes at its checkpoint.
 */
export type PlanningOutcome = 'planned' | 'stopped' | 'continued';

/** The inline documents cut by estimated cost: [offset, count] slices. */
function inlineChunks(admitted: AdmittedLine, deps: BatchEngineDeps): { offset: number; count: number }[] {
  const { limits } = deps;
  const queryChars = admitted.request.query.length;
  const slices: { offset: number; count: number }[] = [];
  let current: { offset: number; count: number; cost: number } | undefined;
  admitted.request.documents.forEach((document, index) => {
    const cost = estimatePairCost(queryChars, document.text.length);
    if (current && (current.cost + cost > limits.chunkCost || current.count >= limits.maxChunkDocuments)) {
      slices.push({ offset: current.offset, count: current.count });
      current = undefined;
    }
    current ??= { offset: index, count: 0, cost: 0 };
    current.count++;
    current.cost += cost;
  });
  if (current) slices.push({ offset: current.offset, count: current.count });
  return slices;
}

/** Each custom_id seen so far and the line that first carried it (the line a duplicate is told to look at). */
type CustomIdLines = Map<string, number>;

/** What one planning run keeps across lines: corpora read once, custom ids seen, corpus analyses named to the ledger. */
interface PlanningRun {
  readonly corpora: Map<string, Promise<CorpusOutcome>>;
  readonly customIds: CustomIdLines;
  readonly analyses: Set<string>;
}

/**
 * A custom_id an earlier line carries refuses this line alone, naming that line: unlike OpenAI, which refuses the whole
 * file, the batch goes on (docs/api.md).
 */
function refuseDuplicate(customIds: CustomIdLines, customId: string): void {
  const earlier = customIds.get(customId);
  if (earlier === undefined) return;
  throw new BadInputLineError(
    'duplicate_custom_id',
    `custom_id "${customId}" is already used by line ${earlier}; each must be unique (only this line is refused, the batch goes on)`,
    customId,
  );
}

/**
 * The planner: streams the input file once, admits each line with the route's own admission, records each
 * request and sends chunk tasks that carry references (line number; corpus byte ranges), never documents.
 * Bad lines become error-file lines naming the line. Runs after create has answered.
 */
export class BatchPlanner {
  readonly #deps: BatchEngineDeps;

  constructor(deps: BatchEngineDeps) {
    this.#deps = deps;
  }

  /**
   * Plans the batch from its checkpoint for at most `limits.planSliceSeconds`, then hands over to a fresh plan task
   * (checkpointed first): one invocation never plans a whole 200 MB input, so none runs into the worker's timeout.
   */
  async plan(batch: BatchRecord): Promise<PlanningOutcome> {
    const { store, files, limits } = this.#deps;
    const sliceEnds = performance.now() + limits.planSliceSeconds * 1000;
    const input = await files.get(batch.inputFileId);
    if (!input || input.version !== batch.inputFileVersion) {
      await this.#failBatch(batch, 'file_not_found', `input file ${batch.inputFileId} is gone or was replaced since the batch was created`);
      return 'stopped';
    }
    // A run after a failure resumes at the checkpoint: the lines before it are recorded and their tasks sent.
    const from = batch.planCheckpoint;
    const run: PlanningRun = { corpora: new Map(), customIds: await this.#customIdsBefore(batch.id, from?.nextLine), analyses: new Set() };
    let pending: BatchTask[] = [];
    let plans: BatchRequestPlan[] = [];
    // Lines over one stored corpus are scored a group at a time, one task per shard for the group.
    const groups = new CorpusLineGroups(batch.id);
    // Plans are written together before their tasks are sent (a worker reads its line's plan), PLAN_WRITES at a time:
    // one write per line in turn held a 10,000-line batch's planning to its writes' latency. A round gathers
    // limits.planFlushTasks tasks: its sends go SENDS_IN_FLIGHT (sqs-task-queue.ts) at a time, so rounds of 64 left most idle.
    const writePlans = async () => {
      await forEachBounded(plans, PLAN_WRITES, (plan) => this.#deps.store.putRequest(batch.id, plan));
      plans = [];
    };
    // The key's queued pairs are reserved for the round's lines before their tasks are sent; false = the batch ended.
    const queued = new QueuedPairs(this.#deps, batch);
    const flush = async (): Promise<boolean> => {
      // Open groups go out with this round: everything recorded before a checkpoint has its tasks sent.
      pending.push(...groups.drain());
      await writePlans();
      const refused = await queued.reserve();
      if (refused) await failOverQueuedPairs(this.#deps, batch, refused);
      else if (pending.length > 0) await this.#deps.queue.send(pending, { tenant: batch.ownerKeyId });
      pending = [];
      return refused === undefined;
    };
    let total = from?.total ?? 0;
    const source =
      from === undefined
        ? files.read(batch.inputFileId)
        : files.read(batch.inputFileId, { start: Math.min(from.nextByte, input.bytes), end: input.bytes });
    const reading = {
      maxLineBytes: limits.maxLineBytes,
      ...(from === undefined ? {} : { startByte: Math.min(from.nextByte, input.bytes), firstLine: from.nextLine }),
    };
    for await (const line of readJsonlLines(source, reading)) {
      // Every line counts here, blank and too-long ones too (line numbers are file-global): 100 MiB of empty lines
      // once skipped the limit, the cancel check and the slice's end, and planned for 132 s.
      if (line.line > limits.maxLinesPerBatch) {
        await this.#failBatch(
          batch,
          'too_many_lines',
          `the input file has more than ${limits.maxLinesPerBatch} lines (blank ones included), the limit per batch`,
          line.line,
        );
        return 'stopped';
      }
      const checkpointLine = line.line % CHECK_STATUS_EVERY_LINES === 0;
      if (checkpointLine && (await store.get(batch.id))?.status !== 'validating') {
        // Cancelled or expired: the lines planned so far are recorded (the finalizer writes them as not run), none sent.
        await writePlans();
        return 'stopped';
      }
      if (line.tooLong) {
        total++;
        await keepResult(
          this.#deps,
          batch,
          failedLine(line.line, undefined, { code: 'line_too_long', message: `the line is longer than ${limits.maxLineBytes} bytes` }),
        );
      } else if (!isBlankLine(line.bytes)) {
        total++;
        const planned = await this.#planLine(batch, line.line, line.range, line.bytes, run);
        if (planned) {
          queued.add(line.line, planned.plan.candidates.count);
          plans.push(planned.plan);
          pending.push(...planned.tasks);
          if (planned.group) pending.push(...groups.add(planned.group.key, line.line, planned.group.spans, planned.group.maxLines));
        }
      }
      if (
        pending.length >= limits.planFlushTasks ||
        plans.length >= limits.planFlushTasks ||
        (checkpointLine && performance.now() >= sliceEnds)
      ) {
        if (!(await flush())) return 'stopped';
        // Everything up to this line is recorded and sent: a later failure resumes after it (and a cancel stops here).
        const checkpoint = { nextByte: line.range.end + 1, nextLine: line.line + 1, total, queuedPairs: queued.total };
        if ((await store.update(batch.id, ['validating'], { planCheckpoint: checkpoint, total })) === undefined) return 'stopped';
        if (performance.now() >= sliceEnds) {
          // Out of time: the next plan task resumes at this checkpoint. Sent after the checkpoint is written, so a
          // failed send retries this task from the same place (a duplicate plan task re-plans lines idempotently).
          await this.#deps.queue.send([{ kind: 'plan', batchId: batch.id }], { tenant: batch.ownerKeyId });
          logger.info('batch planning continues in the next task', { batchId: batch.id, nextLine: checkpoint.nextLine });
          return 'continued';
        }
      }
    }
    if ((pending.length > 0 || plans.length > 0) && !(await flush())) return 'stopped';
    const now = nowSeconds(this.#deps);
    const started = await store.update(batch.id, ['validating'], { status: 'in_progress', inProgressAt: now, total, planned: true });
    logger.info('batch planned', { batchId: batch.id, requests: total });
    return started === undefined ? 'stopped' : 'planned';
  }

  /**
   * The custom ids of the lines recorded before `line`, planned or refused (a resumed run must still refuse their
   * duplicates): a refused line's id is on its error line.
   */
  async #customIdsBefore(batchId: string, line: number | undefined): Promise<CustomIdLines> {
    const ids: CustomIdLines = new Map();
    if (line === undefined) return ids;
    const first = (customId: string, at: number) => ids.set(customId, Math.min(ids.get(customId) ?? at, at));
    for await (const request of this.#deps.store.readRequests(batchId)) if (request.line < line) first(request.customId, request.line);
    for await (const result of this.#deps.store.readResults(batchId)) {
      if (result.line >= line || result.outcome !== 'failed') continue;
      const customId = (JSON.parse(result.jsonl) as { custom_id?: unknown }).custom_id;
      if (typeof customId === 'string') first(customId, result.line);
    }
    return ids;
  }

  /** One line: admitted -> its request plan and chunk tasks (the caller writes and sends them); refused -> its error line. */
  async #planLine(
    batch: BatchRecord,
    lineNumber: number,
    range: { start: number; end: number },
    bytes: Buffer,
    run: PlanningRun,
  ): Promise<
    { plan: BatchRequestPlan; tasks: BatchChunkTask[]; group?: { key: string; spans: readonly CorpusSpan[]; maxLines: number } } | undefined
  > {
    const { customIds } = run;
    try {
      const admitted = admitBatchLine(bytes, batch.endpoint, this.#deps.admission);
      refuseDuplicate(customIds, admitted.customId);
      customIds.set(admitted.customId, lineNumber);
      const chunkModel = admitted.plan.fusion?.chunkModel ?? admitted.plan.model;
      const { limits } = this.#deps;
      const base = { batchId: batch.id, line: lineNumber, kind: 'chunk' as const };
      if (admitted.corpusFileId === undefined) {
        const slices = inlineChunks(admitted, this.#deps);
        const plan: BatchRequestPlan = {
          line: lineNumber,
          customId: admitted.customId,
          range,
          candidates: { kind: 'inline', count: admitted.request.documents.length },
          chunkModel,
          chunkCount: slices.length,
        };
        return { plan, tasks: slices.map((slice, chunkIndex) => ({ ...base, chunkIndex, ...slice })) };
      }
      const corpus = await this.#corpus(batch, admitted, run.corpora);
      const plan = (chunkCount: number): BatchRequestPlan => ({
        line: lineNumber,
        customId: admitted.customId,
        range,
        candidates: { kind: 'corpus', fileId: corpus.file.id, version: corpus.file.version, count: corpus.count },
        chunkModel,
        chunkCount,
      });
      const stored = storedAnalysisFor(this.#deps, admitted, chunkModel) !== undefined;
      if (stored) await expectAnalysisOnce(this.#deps.analysis, batch.id, corpus, chunkModel, run.analyses);
      // Scored from the stored analysis: its tasks are its group's (same corpus version, same model), one per span of shards.
      if (limits.corpusGroupLines > 1 && stored) {
        const spans = corpusSpans(corpus.chunks, limits.corpusShardsPerTask);
        const maxLines = groupLinesFor(ledgerScoresOfLine(corpus.count, spans.length, admitted.request.topN), limits.corpusGroupLines);
        return {
          plan: plan(spans.length),
          tasks: [],
          group: { key: `${corpus.file.id}\n${corpus.file.version}\n${chunkModel}`, spans, maxLines },
        };
      }
      return {
        plan: plan(corpus.chunks.length),
        tasks: corpus.chunks.map((chunk, chunkIndex) => ({
          ...base,
          chunkIndex,
          offset: chunk.offset,
          count: chunk.count,
          corpusRange: chunk.range,
        })),
      };
    } catch (error) {
      // A custom_id belongs to the first line that carries it, even when that line is refused: a later line reusing
      // it is a duplicate, so one id names one line of the input (and one of the output or error file).
      if (error instanceof BadInputLineError || error instanceof RefusedLineError) {
        if (error.customId !== undefined && !customIds.has(error.customId)) customIds.set(error.customId, lineNumber);
      }
      await keepResult(this.#deps, batch, refusedLineResult(lineNumber, error));
      return undefined;
    }
  }

  /** The corpus' chunk plan, read once per planning run however many lines share it; checks the line may use it. */
  async #corpus(batch: BatchRecord, admitted: AdmittedLine, corpora: Map<string, Promise<CorpusOutcome>>): Promise<CorpusPlan> {
    const fileId = admitted.corpusFileId as string;
    let outcome = corpora.get(fileId);
    if (!outcome) {
      outcome = planCorpusChunks(this.#deps.files, fileId, batch.ownerKeyId, this.#deps.limits).catch((error: unknown) => {
        if (error instanceof RerankError || error instanceof FileNotFoundError) return error;
        throw error;
      });
      corpora.set(fileId, outcome);
    }
    const corpus = await outcome;
    if (corpus instanceof RerankError) throw new RefusedLineError(admitted.customId, admitted.dialect, corpus);
    if (corpus instanceof FileNotFoundError) throw corpusDeletedError(admitted.customId, fileId);
    const { maxCorpusResultsWithoutTopN } = this.#deps.limits;
    if (admitted.request.topN === undefined && corpus.count > maxCorpusResultsWithoutTopN) {
      const error = new RerankError(
        'invalid_request',
        `top_n is required: ${DOCUMENTS_FILE_ID} has ${corpus.count} documents, and without top_n a line returns every result only up to ${maxCorpusResultsWithoutTopN}`,
        { param: 'top_n' },
      );
      throw new RefusedLineError(admitted.customId, admitted.dialect, error);
    }
    const { topN } = admitted.request;
    if (topN !== undefined && topN > maxCorpusResultsWithoutTopN && corpus.count > maxCorpusResultsWithoutTopN) {
      // One output line holds at most this many results (it is one JSON line in one file, and one heap in memory).
      const error = new RerankError('invalid_request', `top_n is at most ${maxCorpusResultsWithoutTopN} for a ${DOCUMENTS_FILE_ID} line`, {
        param: 'top_n',
      });
      throw new RefusedLineError(admitted.customId, admitted.dialect, error);
    }
    if (admitted.plan.fusion && !this.#deps.setFusionFor?.(admitted.plan.model)) {
      const error = new RerankError(
        'invalid_request',
        `model '${admitted.plan.model}' fuses by rank over the candidate set, which needs every score at once: with ${DOCUMENTS_FILE_ID} use a min-max hybrid or list the documents`,
        { param: DOCUMENTS_FILE_ID },
      );
      throw new RefusedLineError(admitted.customId, admitted.dialect, error);
    }
    return corpus;
  }

  async #failBatch(batch: BatchRecord, code: string, message: string, line?: number): Promise<void> {
    const now = nowSeconds(this.#deps);
    await updateBatch(this.#deps, batch.id, ['validating'], {
      status: 'failed',
      failedAt: now,
      planned: true,
      errors: [{ code, message, ...(line === undefined ? {} : { line }) }],
    });
    logger.warn('batch failed validation', { batchId: batch.id, code });
  }
}

/** The error-file line for a line that is not a request, or that its route refused (with the route's error reply). */
export function refusedLineResult(line: number, error: unknown) {
  if (error instanceof BadInputLineError) return failedLine(line, error.customId, { code: error.code, message: error.message });
  if (error instanceof RefusedLineError) {
    const requestId = `batch-line-${line}`;
    const reply = error.dialect.formatError(error.refusal, { requestId, now: Math.floor(Date.now() / 1000) });
    return failedLine(
      line,
      error.customId,
      { code: error.refusal.kind, message: error.refusal.publicMessage },
      { statusCode: reply.status, requestId, body: reply.body },
    );
  }
  // Anything else the line caused (never a bug: those throw and the task is retried) fails that line alone.
  if (error instanceof RerankError) return failedLine(line, undefined, { code: error.kind, message: error.publicMessage });
  throw error;
}
