import { RerankError } from '../core/rerank-error.js';
import { UnknownModelError } from '../core/scorer-registry.js';
import { admitBatchLine, type AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchChunkTask, BatchRecord, BatchRequestPlan } from './batch-model.js';
import { failedLine } from './batch-output-lines.js';
import { refusedLineResult } from './batch-planner.js';
import { buildRequestResult } from './batch-request-result.js';
import { parseCorpusDocument } from './corpus-reference.js';
import { readJsonlLines } from './jsonl-lines.js';
import { readFileSlice } from './read-file-slice.js';
import { keepResult } from './keep-result.js';
import { chargeDerived } from './batch-quota.js';
import { recordChunk, scoreChunk } from '../jobs/chunk-scoring.js';
import { StoredCorpusChunks } from './stored-corpus-chunk.js';
import type { ScoreBatch } from '../core/scorer.js';
import { recordBatchChunk } from '../observability/record-batch-metrics.js';

/**
 * Admitted lines kept by this worker: a line's chunks arrive together (the planner sends them in order), so a
 * long line is read and parsed about once, not once per chunk (its cost stays linear in its size).
 */
const ADMITTED_LINES_KEPT = 4;

/** Statuses in which chunks are still worth scoring. */
const SCORING: readonly string[] = ['validating', 'in_progress'];

/**
 * A chunk task: read the line (and the corpus slice) by byte range, score with the Scorer port, record the
 * scores once; the worker whose chunk completes a request writes that request's output line.
 */
export class BatchChunkWorker {
  readonly #deps: BatchEngineDeps;
  /** Called when a request finished, so the engine can check whether the whole batch has. */
  readonly #requestFinished: (batchId: string) => Promise<void>;
  readonly #admitted = new Map<string, AdmittedLine>();
  /** Corpora analysed once per (file version, model) and stored beside the file; later lines score the stored shards. */
  readonly #stored: StoredCorpusChunks;

  constructor(deps: BatchEngineDeps, requestFinished: (batchId: string) => Promise<void>) {
    this.#deps = deps;
    this.#requestFinished = requestFinished;
    this.#stored = new StoredCorpusChunks(deps.files, {
      maxDocumentChars: deps.maxDocumentChars ?? Infinity,
      maxCorpusLineBytes: deps.limits.maxCorpusLineBytes,
      charge: (ref, name, bytes) => chargeDerived(deps.quota, deps.files, ref, name, bytes),
    });
  }

  async score(task: BatchChunkTask): Promise<void> {
    const { store } = this.#deps;
    const batch = await store.get(task.batchId);
    // A cancelled, expired or failed batch's chunks are acknowledged unscored.
    if (!batch || !SCORING.includes(batch.status)) return;
    const plan = await store.getRequest(batch.id, task.line);
    if (!plan) throw new Error(`batch ${batch.id}: no request plan for line ${task.line}`);
    // Already finished: a redelivery of a task whose first run kept the result but failed after it (a lost answer, a
    // crash) still checks whether the batch is done, or nobody would.
    if (await store.getResult(batch.id, task.line)) return this.#requestFinished(batch.id);
    let admitted: AdmittedLine;
    let texts: string[] = [];
    let stored: (ScoreBatch & { readonly analysed: boolean }) | undefined;
    try {
      admitted = await this.#readLine(batch, plan);
      // A model with a document side scores a corpus from its stored analysis (a set-fused hybrid needs its parts apart).
      // The stored analysis is of whole documents: a line that cuts them (max_tokens_per_doc) scores its texts as sync does.
      const cut = admitted.request.maxTokensPerDocument !== undefined;
      const analysis = task.corpusRange && !admitted.plan.fusion && !cut ? this.#documentAnalysis(plan.chunkModel) : undefined;
      if (analysis) stored = await this.#stored.score(analysis, task, plan, admitted.request, batch.ownerKeyId);
      else texts = task.corpusRange ? await this.#corpusTexts(task, plan, admitted) : admitted.request.documents.slice(task.offset, task.offset + task.count).map((d) => d.text);
    } catch (error) {
      return this.#failRequest(batch, plan, error);
    }
    let scorer;
    try {
      scorer = this.#deps.scorerFor(plan.chunkModel);
    } catch (error) {
      if (!(error instanceof UnknownModelError)) throw error;
      return this.#failRequest(batch, plan, new RerankError('internal', `model '${plan.chunkModel}' is not loaded by the workers`));
    }
    const { request } = admitted;
    const label = `chunk ${task.chunkIndex} of line ${task.line}`;
    const scored = stored ?? (await scoreChunk(scorer, { query: request.query, texts, instruction: request.prompt, maxDocumentTokens: request.maxTokensPerDocument }, label));
    if (scored.scores.length !== task.count) throw new Error(`${label}: ${scored.scores.length} scores for ${task.count} documents`);
    // A corpus fused over the whole set: the lexical part is per document too, so it is scored here, fused at the end.
    const setFusion = task.corpusRange && admitted.plan.fusion ? this.#deps.setFusionFor?.(admitted.plan.model) : undefined;
    const lexical = setFusion ? (await setFusion.lexical.score(request.query, texts)).scores : undefined;
    const scores = { chunkIndex: task.chunkIndex, offset: task.offset, scores: scored.scores, tokens: scored.tokens, ...(lexical ? { lexical } : {}) };
    const recorded = await recordChunk(store, { owner: batch.id, line: task.line, chunkCount: plan.chunkCount }, scores);
    if (recorded.recorded) recordBatchChunk(stored ? (stored.analysed ? 'analysed' : 'stored') : 'encoded', task.count);
    if (recorded.complete) await this.#finishRequest(batch, plan, admitted);
  }

  #documentAnalysis(modelId: string) {
    try {
      return this.#deps.scorerFor(modelId).documentAnalysis;
    } catch (error) {
      if (error instanceof UnknownModelError) return undefined;
      throw error;
    }
  }

  /** The request's chunks are all in: its output line (or, if building it failed, its error line). */
  async #finishRequest(batch: BatchRecord, plan: BatchRequestPlan, admitted: AdmittedLine): Promise<void> {
    const batchId = batch.id;
    let result;
    try {
      result = await buildRequestResult(this.#deps, batchId, plan, admitted);
    } catch (error) {
      if (!(error instanceof RerankError)) throw error;
      return this.#failRequest(batch, plan, error);
    }
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batchId, plan.line, plan.chunkCount);
    await this.#requestFinished(batchId);
  }

  /** A request that cannot be scored gets its error line now; retrying cannot help it. */
  async #failRequest(batch: BatchRecord, plan: BatchRequestPlan, error: unknown): Promise<void> {
    const batchId = batch.id;
    const result =
      error instanceof RerankError
        ? failedLine(plan.line, plan.customId, { code: error.status >= 500 ? 'server_error' : error.kind, message: error.publicMessage })
        : refusedLineResult(plan.line, error);
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batchId, plan.line, plan.chunkCount);
    await this.#requestFinished(batchId);
  }

  /** The input line, read back by its byte range and admitted again (the same admission as the planner's). */
  async #readLine(batch: BatchRecord, plan: BatchRequestPlan): Promise<AdmittedLine> {
    const key = `${batch.id}\n${batch.inputFileVersion}\n${plan.line}`;
    const kept = this.#admitted.get(key);
    if (kept) return kept;
    const bytes = await readFileSlice(this.#deps.files, batch.inputFileId, plan.range);
    const admitted = admitBatchLine(bytes, batch.endpoint, this.#deps.admission);
    this.#admitted.set(key, admitted);
    // Oldest first out: a Map iterates in insertion order.
    if (this.#admitted.size > ADMITTED_LINES_KEPT) this.#admitted.delete(this.#admitted.keys().next().value as string);
    return admitted;
  }

  /** The chunk's corpus documents, read by byte range; a too-long one is cut when the line says `truncate`, refused otherwise. */
  async #corpusTexts(task: BatchChunkTask, plan: BatchRequestPlan, admitted: AdmittedLine): Promise<string[]> {
    if (plan.candidates.kind !== 'corpus' || !task.corpusRange) throw new Error('corpus chunk without a corpus');
    const max = this.#deps.maxDocumentChars ?? Infinity;
    const texts: string[] = [];
    const lines = readJsonlLines(this.#deps.files.read(plan.candidates.fileId, task.corpusRange), {
      maxLineBytes: this.#deps.limits.maxCorpusLineBytes,
      startByte: task.corpusRange.start,
      firstLine: task.offset + 1,
    });
    for await (const line of lines) {
      if (!line.bytes) throw new RerankError('invalid_request', `documents_file_id line ${line.line} is too long`);
      let text = parseCorpusDocument(line.bytes, line.line).text;
      if (text.length > max) {
        if (!admitted.request.truncate) {
          throw new RerankError('payload_too_large', `documents_file_id line ${line.line} is longer than ${max} characters; shorten it or send truncate: true`);
        }
        text = text.slice(0, max);
      }
      texts.push(text);
    }
    if (texts.length !== task.count) throw new Error(`corpus chunk ${task.chunkIndex}: ${texts.length} documents for ${task.count}`);
    return texts;
  }
}
