import { RerankError } from '../core/rerank-error.js';
import type { DocumentAnalysis, PreparedQueries } from '../core/document-analysis.js';
import type { ScoreBatch } from '../core/scorer.js';
import type { BatchChunkTask, BatchRequestPlan } from './batch-model.js';
import { scoreShardGroup } from './corpus-query.js';
import { CorpusShardStore, type CorpusShardOptions } from './corpus-shards.js';

/** Queries kept prepared (embedded): a line's chunks reach a worker together, so its query is encoded about once. */
const PREPARED_QUERIES_KEPT = 64;

/**
 * Corpus chunks scored from their stored shards (analysed by the first chunk task to reach one): the same raw scores
 * and tokens the model's `score` gives the chunk's documents, without encoding them again.
 */
export class StoredCorpusChunks {
  readonly shards: CorpusShardStore;
  readonly #maxDocumentChars: number;
  readonly #prepared = new Map<string, Promise<PreparedQueries>>();

  constructor(files: ConstructorParameters<typeof CorpusShardStore>[0], options: CorpusShardOptions) {
    this.shards = new CorpusShardStore(files, options);
    this.#maxDocumentChars = options.maxDocumentChars;
  }

  /** A document past the API's limit is refused to a line without `truncate`, as the chunk's own read refuses it. */
  async score(
    analysis: DocumentAnalysis,
    task: BatchChunkTask,
    plan: BatchRequestPlan,
    request: { readonly query: string; readonly truncate?: boolean | undefined },
    ownerKeyId?: string,
  ): Promise<ScoreBatch & { readonly analysed: boolean }> {
    if (plan.candidates.kind !== 'corpus' || !task.corpusRange) throw new Error('corpus chunk without a corpus');
    const ref = {
      fileId: plan.candidates.fileId,
      version: plan.candidates.version,
      offset: task.offset,
      count: task.count,
      range: task.corpusRange,
      ...(ownerKeyId === undefined ? {} : { ownerKeyId }),
    };
    const { content, analysed } = await this.shards.shardWithSource(analysis, ref);
    if (content.firstOverlongLine !== undefined && !request.truncate) {
      throw new RerankError('payload_too_large', `documents_file_id line ${content.firstOverlongLine} is longer than ${this.#maxDocumentChars} characters; shorten it or send truncate: true`);
    }
    const scored = await scoreShardGroup(analysis, await this.#prepare(analysis, request.query), content);
    return { scores: Array.from(scored.scores[0]!), tokens: scored.tokens[0]!, analysed };
  }

  #prepare(analysis: DocumentAnalysis, query: string): Promise<PreparedQueries> {
    const key = `${analysis.digest}\n${query}`;
    let prepared = this.#prepared.get(key);
    if (prepared) {
      this.#prepared.delete(key);
    } else {
      prepared = analysis.prepare([query]);
      // A failed encoding is not kept: the task's retry encodes again.
      prepared.catch(() => this.#prepared.delete(key));
    }
    this.#prepared.set(key, prepared);
    if (this.#prepared.size > PREPARED_QUERIES_KEPT) this.#prepared.delete(this.#prepared.keys().next().value as string);
    return prepared;
  }
}
