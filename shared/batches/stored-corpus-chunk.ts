import { createHash } from 'node:crypto';
import { RerankError } from '../core/rerank-error.js';
import type { DocumentAnalysis, PreparedQueries } from '../core/document-analysis.js';
import type { ScoreBatch } from '../core/scorer.js';
import { shardsOf, type BatchChunkTask } from './batch-model.js';
import { scoreShardGroup } from './corpus-query.js';
import { CorpusShardStore, type CorpusShardOptions } from './corpus-shards.js';
import type { ShardReady } from './span-analysis-reporter.js';

/** Groups of queries kept prepared (embedded): a group's tasks reach a worker one shard after another, so it is encoded about once. */
const PREPARED_GROUPS_KEPT = 64;

/** One line of a group over a stored corpus: its query, and whether it takes documents cut to the API's limit. */
export interface StoredCorpusLine {
  readonly query: string;
  readonly truncate?: boolean | undefined;
}

/**
 * Corpus chunks scored from their stored shards (analysed by the first chunk task to reach one): the same raw scores
 * and tokens the model's `score` gives the chunk's documents, without encoding them again. A group of lines reads
 * the shard once and scores it for all of them in one pass (one matrix product plus the lexical scores).
 */
export class StoredCorpusChunks {
  readonly shards: CorpusShardStore;
  readonly #maxDocumentChars: number;
  readonly #prepared = new Map<string, Promise<PreparedQueries>>();

  constructor(files: ConstructorParameters<typeof CorpusShardStore>[0], options: CorpusShardOptions) {
    this.shards = new CorpusShardStore(files, options);
    this.#maxDocumentChars = options.maxDocumentChars;
  }

  /**
   * Each line's scores for the task's shards (its span, or its own range as one shard), in the lines' order and joined
   * in document order: one chunk for the task. A shard not yet stored is analysed when reached. A line whose documents
   * pass the API's limit without `truncate` gets its refusal instead (the first; the others are scored). A shard that
   * cannot be read or analysed throws. `progress` hears of each shard as it is ready, and of a shard's documents as
   * they are analysed.
   */
  async scoreSpan(
    analysis: DocumentAnalysis,
    task: BatchChunkTask,
    corpus: { readonly fileId: string; readonly version: string },
    lines: readonly StoredCorpusLine[],
    ownerKeyId?: string,
    progress?: ShardReady,
  ): Promise<{ readonly results: (ScoreBatch | RerankError)[]; readonly analysed: boolean }> {
    const { corpusRange } = task;
    if (!corpusRange) throw new Error('corpus chunk without a corpus');
    const results = lines.map((): { scores: number[]; tokens: number } | RerankError => ({ scores: [], tokens: 0 }));
    let analysed = false;
    for (const shard of shardsOf({ ...task, corpusRange })) {
      const ref = {
        ...corpus,
        offset: shard.offset,
        count: shard.count,
        range: shard.range,
        ...(ownerKeyId === undefined ? {} : { ownerKeyId }),
      };
      const stored = await this.shards.shardWithSource(analysis, ref, {
        progress: progress && ((documents) => progress.shardAnalysing(documents)),
      });
      analysed ||= stored.analysed;
      await progress?.shardReady(shard.count, stored.analysed);
      const overlong = stored.content.firstOverlongLine;
      if (overlong !== undefined) {
        const refusal = new RerankError(
          'payload_too_large',
          `documents_file_id line ${overlong} is longer than ${this.#maxDocumentChars} characters; shorten it or send truncate: true`,
        );
        lines.forEach((line, i) => {
          if (!line.truncate && !(results[i] instanceof RerankError)) results[i] = refusal;
        });
      }
      // The lines still to score (a line refused on an earlier shard is not scored again).
      const scoring = results.flatMap((result, i) => (result instanceof RerankError ? [] : [{ result, query: lines[i]!.query }]));
      if (scoring.length === 0) continue;
      const scored = await scoreShardGroup(
        analysis,
        await this.#prepare(
          analysis,
          scoring.map((l) => l.query),
        ),
        stored.content,
      );
      scoring.forEach(({ result }, q) => {
        for (const score of scored.scores[q]!) result.scores.push(score);
        result.tokens += scored.tokens[q]!;
      });
    }
    return { results, analysed };
  }

  #prepare(analysis: DocumentAnalysis, queries: readonly string[]): Promise<PreparedQueries> {
    const key = createHash('sha256').update(analysis.digest).update(JSON.stringify(queries)).digest('hex');
    let prepared = this.#prepared.get(key);
    if (prepared) {
      this.#prepared.delete(key);
    } else {
      prepared = analysis.prepare(queries);
      // A failed encoding is not kept: the task's retry encodes again.
      prepared.catch(() => this.#prepared.delete(key));
    }
    this.#prepared.set(key, prepared);
    if (this.#prepared.size > PREPARED_GROUPS_KEPT) this.#prepared.delete(this.#prepared.keys().next().value as string);
    return prepared;
  }
}
