/**
 * What a model keeps of each document of a corpus so that a query never encodes a document again: fp32 vectors
 * (a bi-encoder's embeddings) and/or the lexical statistics BM25 reads (per-document term counts and lengths; the
 * IDF stays the fixed background table, applied at query time). One shard is a contiguous range of documents.
 */
export interface DocumentShard {
  readonly count: number;
  /** Model tokens read per document: usage counts them as the synchronous path does. */
  readonly tokens: Uint32Array;
  /** Row-major count x dimensions embeddings; absent for a model without a dense side. */
  readonly vectors?: { readonly dimensions: number; readonly data: Float32Array };
  readonly lexical?: LexicalShard;
}

/** A shard's term counts as a shard-local inverted index: term i's postings are [starts[i], starts[i + 1]). */
export interface LexicalShard {
  readonly terms: readonly string[];
  readonly starts: Uint32Array;
  readonly documents: Uint32Array;
  readonly counts: Uint32Array;
  /** Each document's length in lexical terms. */
  readonly lengths: Uint32Array;
}

/** A group of queries made ready once (embedded, tokenized) and scored against every shard of a corpus. */
export interface PreparedQueries {
  readonly count: number;
  /** Model tokens of each query (a chunk's usage counts its query once, as Scorer.score does). */
  readonly tokens: readonly number[];
  readonly vectors?: readonly Float32Array[];
  readonly lexicalTerms?: readonly (readonly string[])[];
}

/**
 * Hears how many of a shard's documents an analysis has done so far, as the work moves (after each model run or
 * slice of texts: a few dozen to a few hundred documents apart), and is awaited before the work goes on. The listener
 * decides what to write and how often.
 */
export type AnalysisProgress = (documents: number) => Promise<void>;

/** A scorer's document side, for scorers whose score of a document depends on it and the query alone. */
export interface DocumentAnalysis {
  /** Digest of everything the stored form depends on (weights, tokenizer, format): stored shards are reused only under it. */
  readonly digest: string;
  analyse(texts: readonly string[], signal?: AbortSignal, progress?: AnalysisProgress): Promise<DocumentShard>;
  prepare(queries: readonly string[], signal?: AbortSignal): Promise<PreparedQueries>;
  /** scores[q][d]: exactly the raw scores Scorer.score gives query q and the shard's documents. */
  scoreShard(queries: PreparedQueries, shard: DocumentShard): Promise<Float64Array[]>;
}
