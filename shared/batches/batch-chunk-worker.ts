import { RerankError } from '../core/rerank-error.js';
import { scoredText } from '../core/rerank-request.js';
import type { AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { linesOf, type BatchChunkTask, type BatchRecord, type BatchRequestPlan } from './batch-model.js';
import { storedAnalysisFor } from './stored-analysis-for.js';
import { forEachBounded } from '../core/for-each-bounded.js';
import type { DocumentAnalysis } from '../core/document-analysis.js';
import { FileNotFoundError } from '../files/file-errors.js';
import { storeDerived } from './batch-quota.js';
import { recordScored, runChunk } from '../engine/request-run.js';
import { StoredCorpusChunks } from './stored-corpus-chunk.js';
import { spanAnalysisReporter } from './span-analysis-reporter.js';
import { BatchChunkTally } from '../observability/record-batch-metrics.js';
import { BatchLineReader } from './batch-line-reader.js';
import { BatchLineLane } from './batch-line-lane.js';

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
  readonly #reader: BatchLineReader;
  /**
   * Called when a request finished, so the engine can check whether the whole batch has: also by a redelivery of a task
   * whose first run kept the result but failed after it (a lost answer, a crash), or nobody would.
   */
  readonly #requestFinished: (batchId: string) => Promise<void>;
  /** Each line's run of its chunks: the engine's one run, with the line's finish and failure. */
  readonly #lane: BatchLineLane;
  /** Corpora analysed once per (file version, model) and stored beside the file; later lines score the stored shards. */
  readonly #stored: StoredCorpusChunks;

  constructor(deps: BatchEngineDeps, requestFinished: (batchId: string) => Promise<void>) {
    this.#deps = deps;
    this.#reader = new BatchLineReader(deps);
    this.#requestFinished = requestFinished;
    this.#lane = new BatchLineLane(deps, this.#reader, requestFinished);
    this.#stored = new StoredCorpusChunks(deps.files, {
      maxDocumentChars: deps.maxDocumentChars ?? Infinity,
      maxCorpusLineBytes: deps.limits.maxCorpusLineBytes,
      store: (ref, name, bytes) => storeDerived(deps.quota, deps.files, ref, name, bytes),
    });
  }

  /** The lines' side of the run, for the engine's dead-letter recovery of a chunk task. */
  get lane(): BatchLineLane {
    return this.#lane;
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
      const line = await this.#lane.unfinishedLine(batch, task.line);
      if (line === 'finished') return await this.#requestFinished(batch.id);
      return await this.#scoreTexts(batch, task, line.plan, tally);
    } finally {
      tally.record();
    }
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
      const found = await this.#lane.unfinishedLine(batch, line);
      if (found === 'finished') {
        finished = true;
        return;
      }
      const { plan } = found;
      let admitted: AdmittedLine;
      try {
        admitted = await this.#reader.readLine(batch, plan);
      } catch (error) {
        return this.#lane.fail(this.#lane.request(batch, plan), error);
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
      for (const member of pass) await this.#lane.fail(this.#lane.request(batch, member.plan), error);
      return;
    }
    await forEachBounded(pass, LINE_WRITES_IN_FLIGHT, async (member, i) => {
      const result = scored.results[i]!;
      if (result instanceof RerankError) return this.#lane.fail(this.#lane.request(batch, member.plan), result);
      // The shard's analysis is counted once, by the pass's first line; the others read it.
      if (result.scores.length !== task.count)
        throw new Error(`line ${member.plan.line}: ${result.scores.length} scores for ${task.count} documents`);
      const run = this.#lane.request(batch, member.plan, member.admitted, true);
      const recorded = await recordScored(this.#lane, run, { index: task.chunkIndex, offset: task.offset }, result);
      if (recorded) tally.add(scored.analysed && i === 0 ? 'analysed' : 'stored', task.count);
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
      admitted = read ?? (await this.#reader.readLine(batch, plan));
      texts = task.corpusRange
        ? await this.#reader.corpusTexts(task, plan, admitted)
        : admitted.request.documents.slice(task.offset, task.offset + task.count).map(scoredText);
    } catch (error) {
      return this.#lane.fail(this.#lane.request(batch, plan), error);
    }
    if (texts.length !== task.count)
      throw new Error(`chunk ${task.chunkIndex} of line ${task.line}: ${texts.length} documents for ${task.count}`);
    const { request } = admitted;
    const run = this.#lane.request(batch, plan, admitted, task.corpusRange !== undefined);
    const chunk = {
      index: task.chunkIndex,
      offset: task.offset,
      query: request.query,
      texts,
      instruction: request.prompt,
      maxDocumentTokens: request.maxTokensPerDocument,
      maxQueryTokens: request.maxTokensPerQuery,
      truncationSide: request.truncationSide,
    };
    if (await runChunk(this.#lane, run, chunk)) tally.add('encoded', task.count);
  }
}
