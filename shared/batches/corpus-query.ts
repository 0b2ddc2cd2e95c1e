import type { DocumentAnalysis, PreparedQueries } from '../core/document-analysis.js';
import type { ScoreActivation } from '../core/rerank-request.js';
import type { CorpusChunk } from './corpus-chunks.js';
import type { CorpusShardStore } from './corpus-shards.js';
import { TopNSelection } from '../engine/top-n-selection.js';

/** One query of a group over a corpus, with what its top-n heap ranks by (normalizeResults' rules). */
export interface CorpusQuery {
  readonly query: string;
  readonly topN: number;
  readonly activation: ScoreActivation;
  readonly threshold?: number;
}

/** A query's survivors in index order (for normalizeResults), and the tokens the synchronous path would count. */
export interface CorpusQueryResult {
  readonly indices: number[];
  readonly rawScores: number[];
  readonly tokens: number;
}

/** Raw scores of one shard for a prepared group, with each query's tokens for the shard (its own + the documents'). */
export async function scoreShardGroup(
  analysis: DocumentAnalysis,
  queries: PreparedQueries,
  content: { shard: Parameters<DocumentAnalysis['scoreShard']>[1] },
): Promise<{ scores: Float64Array[]; tokens: number[] }> {
  const scores = await analysis.scoreShard(queries, content.shard);
  let documentTokens = 0;
  for (const t of content.shard.tokens) documentTokens += t;
  return { scores, tokens: queries.tokens.map((t) => t + documentTokens) };
}

/**
 * A group of queries over one stored corpus: the queries are prepared (embedded) once, then each shard is read once
 * and scored for the whole group (a matrix product plus the lexical scores, the model's own fusion), its scores
 * streamed into one top-n heap per query. Memory: one shard and the heaps, whatever the corpus' size.
 */
export async function queryStoredCorpus(
  shards: CorpusShardStore,
  analysis: DocumentAnalysis,
  corpus: { readonly fileId: string; readonly version: string; readonly chunks: readonly CorpusChunk[] },
  queries: readonly CorpusQuery[],
  signal?: AbortSignal,
): Promise<CorpusQueryResult[]> {
  const prepared = await analysis.prepare(
    queries.map((q) => q.query),
    signal,
  );
  const selections = queries.map((q) => new TopNSelection({ capacity: q.topN, activation: q.activation, threshold: q.threshold }));
  const tokens = queries.map(() => 0);
  for (const chunk of corpus.chunks) {
    signal?.throwIfAborted();
    const content = await shards.shard(analysis, { fileId: corpus.fileId, version: corpus.version, ...chunk }, signal);
    const scored = await scoreShardGroup(analysis, prepared, content);
    scored.scores.forEach((row, q) => {
      const selection = selections[q]!;
      for (let d = 0; d < row.length; d++) selection.offer(chunk.offset + d, row[d]!);
      tokens[q]! += scored.tokens[q]!;
    });
  }
  return selections.map((selection, q) => ({ ...selection.selected(), tokens: tokens[q]! }));
}
