import { createHash } from 'node:crypto';
import type { AnalysisProgress, DocumentAnalysis, DocumentShard, PreparedQueries } from '../../core/document-analysis.js';
import type { BackgroundStatistics } from '../lexical/background-idf.js';
import type { LexicalFeatures } from '../lexical/lexical-features.js';
import { tokenizeLexical, type LexicalTokenizerOptions } from '../lexical/lexical-tokenizer.js';
import { shardCosines } from './dense-shard.js';
import { analyseLexicalShard, lexicalShardFeatures } from './lexical-shard.js';

/** A model's dense side: texts -> fp32 embeddings and the tokens it read (a bi-encoder). */
export interface DenseSide {
  /** Digest of the weights and tokenizer. */
  readonly digest: string;
  readonly dimensions: number;
  /** `progress` hears the texts embedded so far after each model run. */
  encode(
    texts: readonly string[],
    signal?: AbortSignal,
    progress?: AnalysisProgress,
  ): Promise<{ embeddings: Float32Array[]; tokens: number[] }>;
}

/** A model's lexical side: the tokenizer's settings (what the stored counts depend on) and the background statistics. */
export interface LexicalSide {
  readonly digest: string;
  readonly tokenizer: LexicalTokenizerOptions;
  readonly background: () => BackgroundStatistics;
}

/** A DocumentAnalysis built from sides, which a hybrid can take apart and combine again. */
export interface StoredAnalysis extends DocumentAnalysis {
  readonly dense?: DenseSide;
  readonly lexical?: LexicalSide;
}

/** Raises the score of one (query, document) from its cosine (NaN without a dense side) and lexical features. */
export type CombineSides = (cosine: number, features: LexicalFeatures | undefined) => number;

/** Bumped when the stored form changes, so shards written by an older format are never read as this one. */
const STORED_FORM_VERSION = 'stored-analysis-v1';

export const digestOf = (...parts: readonly string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex');

/**
 * The document side of a scorer whose score of a document depends on the document and the query alone: `analyse`
 * keeps what the model reads of each document (fp32 embeddings, lexical counts), `scoreShard` scores a group of
 * queries against a shard with the same arithmetic as the scorer's own `score` (`combine` is that scorer's last step).
 */
export function createStoredAnalysis(sides: {
  readonly dense?: DenseSide;
  readonly lexical?: LexicalSide;
  readonly combine: CombineSides;
}): StoredAnalysis {
  const { dense, lexical, combine } = sides;
  if (!dense && !lexical) throw new Error('a stored analysis needs a dense or a lexical side');
  // What is stored depends on the sides alone (a refitted fusion reads the same shards).
  const digest = digestOf(STORED_FORM_VERSION, dense?.digest ?? '-', lexical?.digest ?? '-');
  return {
    digest,
    ...(dense ? { dense } : {}),
    ...(lexical ? { lexical } : {}),
    async analyse(texts: readonly string[], signal?: AbortSignal, progress?: AnalysisProgress): Promise<DocumentShard> {
      const encoded = dense ? await dense.encode(texts, signal, progress) : undefined;
      const vectors =
        encoded && dense ? { dimensions: dense.dimensions, data: concatRows(encoded.embeddings, dense.dimensions) } : undefined;
      // Beside a dense side the lexical counts take a sliver of the time: the encoding's progress is the shard's.
      const counted = lexical ? await analyseLexicalShard(texts, lexical.tokenizer, dense ? undefined : progress) : undefined;
      return {
        count: texts.length,
        tokens: Uint32Array.from(encoded?.tokens ?? texts.map(() => 0)),
        ...(vectors ? { vectors } : {}),
        ...(counted ? { lexical: counted } : {}),
      };
    },
    async prepare(queries: readonly string[], signal?: AbortSignal): Promise<PreparedQueries> {
      const encoded = dense ? await dense.encode(queries, signal) : undefined;
      return {
        count: queries.length,
        tokens: encoded?.tokens ?? queries.map(() => 0),
        ...(encoded ? { vectors: encoded.embeddings } : {}),
        ...(lexical ? { lexicalTerms: queries.map((q) => tokenizeLexical(q, lexical.tokenizer)) } : {}),
      };
    },
    async scoreShard(queries: PreparedQueries, shard: DocumentShard): Promise<Float64Array[]> {
      if (dense && (!shard.vectors || !queries.vectors)) throw new Error('a dense model scores a shard without vectors');
      if (lexical && (!shard.lexical || !queries.lexicalTerms)) throw new Error('a lexical model scores a shard without term counts');
      const cosines = dense ? await shardCosines(queries.vectors!, shard.vectors!.data, shard.vectors!.dimensions) : undefined;
      const background = lexical?.background();
      return Array.from({ length: queries.count }, (_, q) => {
        const features = lexical ? lexicalShardFeatures(queries.lexicalTerms![q]!, shard.lexical!, background!) : undefined;
        const scores = new Float64Array(shard.count);
        for (let d = 0; d < shard.count; d++) scores[d] = combine(cosines ? cosines[q]![d]! : Number.NaN, features?.[d]);
        return scores;
      });
    },
  };
}

function concatRows(rows: readonly Float32Array[], dimensions: number): Float32Array {
  const data = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => data.set(row, i * dimensions));
  return data;
}
