import { RerankError } from '../core/rerank-error.js';
import type { Scorer } from '../core/scorer.js';
import { ChunkDeadLetteredError, chunkDeadLettered, type OwnerLane, type RunRequest } from '../engine/request-run.js';
import { FileNotFoundError } from '../files/file-errors.js';
import type { AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchLineReader } from './batch-line-reader.js';
import { linesOf, type BatchChunkTask, type BatchRecord, type BatchRequestPlan } from './batch-model.js';
import { failedLine, fileGoneLine } from './batch-output-lines.js';
import { refusedLineResult } from './refused-line-result.js';
import { buildRequestResult } from './batch-request-result.js';
import { keepResult } from './keep-result.js';

/** A batch line as the engine's run of its chunks sees it. */
export interface LineRun extends RunRequest {
  readonly batch: BatchRecord;
  readonly plan: BatchRequestPlan;
  /** The line as admitted, once read (the dead-letter recovery reads it only to finish). */
  readonly admitted?: AdmittedLine;
  /** The chunk is a corpus slice: a set fused at the end scores its lexical part beside the model. */
  readonly corpus?: boolean;
}

/**
 * The batches' side of the engine's one run (OwnerLane): a line is one request whose finish keeps its result line (its
 * chunks merged), and whose failure keeps an error line; either then lets the engine check whether the whole batch is
 * done. A line's result is kept once (keepResult), whatever the deliveries.
 */
export class BatchLineLane implements OwnerLane<LineRun> {
  readonly #deps: BatchEngineDeps;
  readonly #reader: BatchLineReader;
  /** Called when a request finished, so the engine can check whether the whole batch has. */
  readonly #requestFinished: (batchId: string) => Promise<void>;

  constructor(deps: BatchEngineDeps, reader: BatchLineReader, requestFinished: (batchId: string) => Promise<void>) {
    this.#deps = deps;
    this.#reader = reader;
    this.#requestFinished = requestFinished;
  }

  get chunks(): BatchEngineDeps['store'] {
    return this.#deps.store;
  }

  scorerFor(modelId: string): Scorer {
    return this.#deps.scorerFor(modelId);
  }

  /** The line as a request of the run: pruned to its top_n unless fused over its whole set. */
  request(batch: BatchRecord, plan: BatchRequestPlan, admitted?: AdmittedLine, corpus = false): LineRun {
    const prune =
      admitted && !admitted.plan.fusion
        ? { activation: admitted.plan.activation, topN: admitted.request.topN, threshold: admitted.request.threshold }
        : undefined;
    return {
      batch,
      plan,
      ...(admitted ? { admitted } : {}),
      corpus,
      ledger: { owner: batch.id, line: plan.line, chunkCount: plan.chunkCount },
      model: plan.chunkModel,
      prune,
      label: `line ${plan.line} of batch ${batch.id}`,
    };
  }

  async lexicalOf(run: LineRun, query: string, texts: readonly string[]): Promise<readonly number[] | undefined> {
    const fusion = run.corpus && run.admitted?.plan.fusion ? this.#deps.setFusionFor?.(run.admitted.plan.model) : undefined;
    return fusion && (await fusion.lexical.score(query, [...texts])).scores;
  }

  /** The line's plan, or 'finished' when its result is kept already. */
  async unfinishedLine(batch: BatchRecord, line: number): Promise<{ plan: BatchRequestPlan } | 'finished'> {
    const plan = await this.#deps.store.getRequest(batch.id, line);
    if (!plan) throw new Error(`batch ${batch.id}: no request plan for line ${line}`);
    return (await this.#deps.store.getResult(batch.id, line)) ? 'finished' : { plan };
  }

  /** Every chunk of the line is in: its output line (or, if building it failed, its error line). */
  async finish(run: LineRun): Promise<void> {
    const { batch, plan } = run;
    let result;
    try {
      const admitted = run.admitted ?? (await this.#reader.readLine(batch, plan));
      result = await buildRequestResult(this.#deps, batch.id, plan, admitted);
    } catch (error) {
      if (!(error instanceof RerankError || error instanceof FileNotFoundError)) throw error;
      return this.fail(run, error);
    }
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batch.id, plan.line, plan.chunkCount);
    await this.#requestFinished(batch.id);
  }

  /** A line that cannot be scored gets its error line now; retrying cannot help it. */
  async fail(run: LineRun, error: unknown): Promise<void> {
    const { batch, plan } = run;
    const { line, customId } = plan;
    const result =
      error instanceof ChunkDeadLetteredError
        ? failedLine(line, customId, { code: 'server_error', message: 'scoring failed after retries' })
        : error instanceof FileNotFoundError
          ? fileGoneLine(line, customId, error.fileId)
          : error instanceof RerankError
            ? failedLine(line, customId, { code: error.status >= 500 ? 'server_error' : error.kind, message: error.publicMessage })
            : refusedLineResult(line, error);
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batch.id, line, plan.chunkCount);
    await this.#requestFinished(batch.id);
  }

  /** A chunk task that failed every delivery: the engine's one recovery for each of its lines (one finished keeps its result). */
  async deadLettered(task: BatchChunkTask, reason: string): Promise<void> {
    const batch = await this.#deps.store.get(task.batchId);
    if (!batch) return;
    for (const line of linesOf(task)) {
      const plan = await this.#deps.store.getRequest(task.batchId, line);
      if (plan) await chunkDeadLettered(this, this.request(batch, plan), task.chunkIndex, reason);
    }
  }
}
