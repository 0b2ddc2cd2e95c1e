import { RerankError } from '../core/rerank-error.js';
import { UnknownModelError } from '../core/scorer-registry.js';
import { scoredText } from '../core/rerank-request.js';
import { admitBatchLine, type AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { linesOf, type BatchChunkTask, type BatchRecord, type BatchRequestPlan } from './batch-model.js';
import { storedAnalysisFor } from './stored-analysis-for.js';
import { forEachBounded } from '../core/for-each-bounded.js';
import type { DocumentAnalysis } from '../core/document-analysis.js';
import { failedLine, fileGoneLine } from './batch-output-lines.js';
import { FileNotFoundError } from '../files/file-errors.js';
import { refusedLineResult } from './batch-planner.js';
import { buildRequestResult } from './batch-request-result.js';
import { parseCorpusDocument } from './corpus-reference.js';
import { readJsonlLines } from './jsonl-lines.js';
import { readFileSlice } from './read-file-slice.js';
import { keepResult } from './keep-result.js';
import { storeDerived } from './batch-quota.js';
import { recordChunk, scoreChunk } from '../engine/chunk-scoring.js';
import { pruneChunkScores } from '../engine/rank-chunk-scores.js';
import { StoredCorpusChunks } from './stored-corpus-chunk.js';
import { spanAnalysisReporter } from './span-analysis-reporter.js';
import type { ScoreBatch } from '../core/scorer.js';
import { BatchChunkTally } from '../observability/record-batch-metrics.js';
import type { BatchChunkSource } from '../observability/batch-metric-names.js';

/**
 * Admitted lines kept by this worker: a line's chunks arrive together (the planner sends them in order), and a
 * group's lines come with every shard of the group, so a line is read and parsed about once, not once per chunk (its
 * cost stays linear in its size). Bounded by count and by the lines' bytes (an inline line can be megabytes).
 */
const ADMITTED_LINES_KEPT = 256;
const ADMITTED_BYTES_KEPT = 32 * 1024 * 1024;
/** Lines a grouped task reads (plan, result, line) at once, and records at once: its group's reads overlap. */
const LINE_READS_IN_FLIGHT = 16;
const LINE_WRITES_IN_FLIGHT = 8;

/** A line of a group scored from the stored analysis of its corpus. */
interface StoredMember {
  readonly plan: BatchRequestPlan;
  readonly admitted: AdmittedLine;
  readonly analysis: DocumentAnalysis;
  readonly corpus: { readonly fileId: string; readonly version: string };
}

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
  readonly #admitted = new Map<string, { admitted: AdmittedLine; bytes: number }>();
  #admittedBytes = 0;
  readonly #reading = new Map<string, Promise<{ admitted: AdmittedLine; bytes: number }>>();
  /** Corpora analysed once per (file version, model) and stored beside the file; later lines score the stored shards. */
  readonly #stored: StoredCorpusChunks;

  constructor(deps: BatchEngineDeps, requestFinished: (batchId: string) => Promise<void>) {
    this.#deps = deps;
    this.#requestFinished = requestFinished;
    this.#stored = new StoredCorpusChunks(deps.files, {
      maxDocumentChars: deps.maxDocumentChars ?? Infinity,
      maxCorpusLineBytes: deps.limits.maxCorpusLineBytes,
      store: (ref, name, bytes) => storeDerived(deps.quota, deps.files, ref, name, bytes),
    });
  }

  async score(task: BatchChunkTask): Promise<void> {
    const { store } = this.#deps;
    const batch = await store.get(task.batchId);
    // A cancelled, expired or failed batch's chunks are acknowledged unscored.
    if (!batch || !SCORING.includes(batch.status)) return;
    // The task's recorded chunks, counted once it ends (one metric set per source, not one per line).
    const tally = new BatchChunkTally();
    try {
      if (task.corpusRange) return await this.#scoreCorpusLines(batch, task, tally);
      const line = await this.#unfinishedLine(batch, task.line);
      if (line === 'finished') return await this.#requestFinished(batch.id);
      return await this.#scoreTexts(batch, task, line.plan, tally);
    } finally {
      tally.record();
    }
  }

  /**
   * The line's plan, or 'finished' when its result is kept already: a redelivery of a task whose first run kept the
   * result but failed after it (a lost answer, a crash) still checks whether the batch is done, or nobody would.
   */
  async #unfinishedLine(batch: BatchRecord, line: number): Promise<{ plan: BatchRequestPlan } | 'finished'> {
    const plan = await this.#deps.store.getRequest(batch.id, line);
    if (!plan) throw new Error(`batch ${batch.id}: no request plan for line ${line}`);
    return (await this.#deps.store.getResult(batch.id, line)) ? 'finished' : { plan };
  }

  /**
   * A corpus shard, or a span of them, for the task's lines (a group, or one line): the lines scored from the stored
   * analysis read each shard once and are scored together; each line's scores are recorded as its own chunk, so its result is the one it
   * would have alone. A line that cannot use the stored analysis scores the shard's texts on its own.
   */
  async #scoreCorpusLines(batch: BatchRecord, task: BatchChunkTask, tally: BatchChunkTally): Promise<void> {
    const members: StoredMember[] = [];
    let finished = false;
    await forEachBounded(linesOf(task), LINE_READS_IN_FLIGHT, async (line) => {
      const found = await this.#unfinishedLine(batch, line);
      if (found === 'finished') {
        finished = true;
        return;
      }
      const { plan } = found;
      let admitted: AdmittedLine;
      try {
        admitted = await this.#readLine(batch, plan);
      } catch (error) {
        return this.#failRequest(batch, plan, error);
      }
      const analysis = storedAnalysisFor(this.#deps, admitted, plan.chunkModel);
      if (analysis && plan.candidates.kind === 'corpus') members.push({ plan, admitted, analysis, corpus: plan.candidates });
      else await this.#scoreTexts(batch, { ...task, line }, plan, tally, admitted);
    });
    // One pass per model and corpus version (a group is planned as one; a redelivery across a deploy could differ).
    const passes = new Map<string, StoredMember[]>();
    for (const member of members.sort((a, b) => a.plan.line - b.plan.line)) {
      const key = `${member.analysis.digest}\n${member.plan.chunkModel}\n${member.corpus.fileId}\n${member.corpus.version}`;
      passes.set(key, [...(passes.get(key) ?? []), member]);
    }
    for (const pass of passes.values()) await this.#scoreStoredPass(batch, task, pass, tally);
    if (finished) await this.#requestFinished(batch.id);
  }

  /** One span of shards scored for lines of one model over one corpus version; each line's scores recorded as its chunk. */
  async #scoreStoredPass(batch: BatchRecord, task: BatchChunkTask, pass: readonly StoredMember[], tally: BatchChunkTally): Promise<void> {
    const [first] = pass as [StoredMember];
    let scored;
    try {
      scored = await this.#stored.scoreSpan(
        first.analysis,
        task,
        first.corpus,
        pass.map((m) => m.admitted.request),
        batch.ownerKeyId,
        spanAnalysisReporter(this.#deps, batch.id, task, { ...first.corpus, model: first.plan.chunkModel }),
      );
    } catch (error) {
      // The shard's documents are not a corpus the lines can use (a document line too long to read, the key's stored
      // bytes full, the file deleted meanwhile): every line fails.
      if (!(error instanceof RerankError || error instanceof FileNotFoundError)) throw error;
      for (const member of pass) await this.#failRequest(batch, member.plan, error);
      return;
    }
    await forEachBounded(pass, LINE_WRITES_IN_FLIGHT, async (member, i) => {
      const result = scored.results[i]!;
      if (result instanceof RerankError) return this.#failRequest(batch, member.plan, result);
      // The shard's analysis is counted once, by the pass's first line; the others read it.
      await this.#record(
        batch,
        { ...task, line: member.plan.line },
        member.plan,
        member.admitted,
        result,
        scored.analysed && i === 0 ? 'analysed' : 'stored',
        tally,
      );
    });
  }

  /** A line's chunk from its texts: the line's own documents, or the corpus slice read by byte range. */
  async #scoreTexts(
    batch: BatchRecord,
    task: BatchChunkTask,
    plan: BatchRequestPlan,
    tally: BatchChunkTally,
    read?: AdmittedLine,
  ): Promise<void> {
    let admitted: AdmittedLine;
    let texts: string[];
    try {
      admitted = read ?? (await this.#readLine(batch, plan));
      texts = task.corpusRange
        ? await this.#corpusTexts(task, plan, admitted)
        : admitted.request.documents.slice(task.offset, task.offset + task.count).map(scoredText);
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
    const scored = await scoreChunk(
      scorer,
      {
        query: request.query,
        texts,
        instruction: request.prompt,
        maxDocumentTokens: request.maxTokensPerDocument,
        maxQueryTokens: request.maxTokensPerQuery,
        truncationSide: request.truncationSide,
      },
      label,
    );
    // A corpus fused over the whole set: the lexical part is per document too, so it is scored here, fused at the end.
    const setFusion = task.corpusRange && admitted.plan.fusion ? this.#deps.setFusionFor?.(admitted.plan.model) : undefined;
    const lexical = setFusion ? (await setFusion.lexical.score(request.query, texts)).scores : undefined;
    await this.#record(batch, task, plan, admitted, { ...scored, ...(lexical ? { lexical } : {}) }, 'encoded', tally);
  }

  /** Records the line's chunk once; the call that completes the line writes its result. */
  async #record(
    batch: BatchRecord,
    task: BatchChunkTask,
    plan: BatchRequestPlan,
    admitted: AdmittedLine,
    scored: ScoreBatch & { readonly lexical?: readonly number[] },
    source: BatchChunkSource,
    tally: BatchChunkTally,
  ): Promise<void> {
    const label = `chunk ${task.chunkIndex} of line ${task.line}`;
    if (scored.scores.length !== task.count) throw new Error(`${label}: ${scored.scores.length} scores for ${task.count} documents`);
    const { request, plan: line } = admitted;
    // A line fused over its whole set needs every score at its end; any other keeps only what can reach its top_n.
    const pruned =
      line.fusion || scored.lexical
        ? undefined
        : pruneChunkScores(scored.scores, { activation: line.activation, topN: request.topN, threshold: request.threshold });
    const scores = {
      chunkIndex: task.chunkIndex,
      offset: task.offset,
      tokens: scored.tokens,
      ...(pruned ?? { scores: scored.scores }),
      ...(scored.lexical ? { lexical: scored.lexical } : {}),
    };
    const recorded = await recordChunk(this.#deps.store, { owner: batch.id, line: task.line, chunkCount: plan.chunkCount }, scores);
    if (recorded.recorded) tally.add(source, task.count);
    if (recorded.complete) await this.#finishRequest(batch, plan, admitted);
  }

  /** The request's chunks are all in: its output line (or, if building it failed, its error line). */
  async #finishRequest(batch: BatchRecord, plan: BatchRequestPlan, admitted: AdmittedLine): Promise<void> {
    const batchId = batch.id;
    let result;
    try {
      result = await buildRequestResult(this.#deps, batchId, plan, admitted);
    } catch (error) {
      if (!(error instanceof RerankError || error instanceof FileNotFoundError)) throw error;
      return this.#failRequest(batch, plan, error);
    }
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batchId, plan.line, plan.chunkCount);
    await this.#requestFinished(batchId);
  }

  /** A request that cannot be scored gets its error line now; retrying cannot help it. */
  async #failRequest(batch: BatchRecord, plan: BatchRequestPlan, error: unknown): Promise<void> {
    const batchId = batch.id;
    const result =
      error instanceof FileNotFoundError
        ? fileGoneLine(plan.line, plan.customId, error.fileId)
        : error instanceof RerankError
          ? failedLine(plan.line, plan.customId, { code: error.status >= 500 ? 'server_error' : error.kind, message: error.publicMessage })
          : refusedLineResult(plan.line, error);
    if (await keepResult(this.#deps, batch, result)) await this.#deps.store.deleteChunkScores(batchId, plan.line, plan.chunkCount);
    await this.#requestFinished(batchId);
  }

  /** The input line, read back by its byte range and admitted again (the same admission as the planner's). */
  async #readLine(batch: BatchRecord, plan: BatchRequestPlan): Promise<AdmittedLine> {
    const key = `${batch.id}\n${batch.inputFileVersion}\n${plan.line}`;
    const kept = this.#admitted.get(key);
    if (kept) {
      // Re-inserted: the Map's first entry is the least recently used.
      this.#admitted.delete(key);
      this.#admitted.set(key, kept);
      return kept.admitted;
    }
    // The runners take a line's (or a group's) first tasks at once: one read and admission serves them all.
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = readFileSlice(this.#deps.files, batch.inputFileId, plan.range)
        .then((bytes) => ({ admitted: admitBatchLine(bytes, batch.endpoint, this.#deps.admission), bytes: bytes.length }))
        .finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    const read = await reading;
    const { admitted } = read;
    if (!this.#admitted.has(key)) {
      this.#admitted.set(key, read);
      this.#admittedBytes += read.bytes;
    }
    for (const [oldest, entry] of this.#admitted) {
      if (this.#admitted.size <= ADMITTED_LINES_KEPT && this.#admittedBytes <= ADMITTED_BYTES_KEPT) break;
      this.#admitted.delete(oldest);
      this.#admittedBytes -= entry.bytes;
    }
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
          throw new RerankError(
            'payload_too_large',
            `documents_file_id line ${line.line} is longer than ${max} characters; shorten it or send truncate: true`,
          );
        }
        text = text.slice(0, max);
      }
      texts.push(text);
    }
    if (texts.length !== task.count) throw new Error(`corpus chunk ${task.chunkIndex}: ${texts.length} documents for ${task.count}`);
    return texts;
  }
}
