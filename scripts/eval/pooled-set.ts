import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RelevanceQuery } from './relevance-set.js';

export type SplitName = 'train' | 'eval';

/**
 * A relevance set stored compactly: each document once, queries pointing at candidates by index.
 * Gzipped JSON, so several sources stay within a few MB in git.
 */
export interface PooledSet {
  readonly meta: Readonly<Record<string, unknown>>;
  readonly documents: readonly string[];
  readonly queries: ReadonlyArray<{
    readonly id: string;
    readonly split: SplitName;
    readonly query: string;
    /** Indices into `documents`, in candidate order. */
    readonly candidates: readonly number[];
    /** Positions in `candidates` that are relevant. */
    readonly relevant: readonly number[];
  }>;
}

export const encodePooledSet = (set: PooledSet): Buffer => gzipSync(JSON.stringify(set), { level: 9 });

export function readPooledSet(path: string): PooledSet {
  const set = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as PooledSet;
  if (!Array.isArray(set.documents) || !Array.isArray(set.queries)) throw new Error(`${path}: not a pooled relevance set`);
  return set;
}

/** The queries of one split, with their candidate texts expanded (RelevanceQuery.packages holds the document indices). */
export function pooledSplit(set: PooledSet, split: SplitName): RelevanceQuery[] {
  return set.queries
    .filter((q) => q.split === split)
    .map((q) => ({
      id: q.id,
      query: q.query,
      documents: q.candidates.map((i) => set.documents[i]!),
      packages: q.candidates.map(String),
      relevant: [...q.relevant],
    }));
}

/** First `maxWords` whitespace-separated words: USE-lite reads 128 tokens, and the committed sets stay small. */
export const firstWords = (text: string, maxWords: number): string =>
  text
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, maxWords)
    .join(' ');
