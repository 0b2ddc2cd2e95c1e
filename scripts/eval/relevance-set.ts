import { readFile } from 'node:fs/promises';

/** One evaluation query: candidates in a fixed (shuffled) order, relevant ones by position. */
export interface RelevanceQuery {
  /** The package whose short description is the query. */
  readonly id: string;
  readonly query: string;
  readonly documents: readonly string[];
  /** The package each document describes, same order as `documents`. */
  readonly packages: readonly string[];
  /** Positions in `documents` that are relevant (binary relevance). */
  readonly relevant: readonly number[];
}

/** First line of the JSONL file: where the set came from and how it was built. */
export interface RelevanceSetMeta {
  readonly [key: string]: unknown;
}

export interface RelevanceSet {
  readonly meta: RelevanceSetMeta;
  readonly queries: readonly RelevanceQuery[];
}

export function formatRelevanceSet(set: RelevanceSet): string {
  return [JSON.stringify({ meta: set.meta }), ...set.queries.map((q) => JSON.stringify(q))].join('\n') + '\n';
}

export async function readRelevanceSet(path: string): Promise<RelevanceSet> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  let meta: RelevanceSetMeta = {};
  const queries: RelevanceQuery[] = [];
  lines.forEach((line, i) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (i === 0 && typeof record['meta'] === 'object' && record['meta'] !== null) {
      meta = record['meta'] as RelevanceSetMeta;
      return;
    }
    const q = record as unknown as RelevanceQuery;
    if (typeof q.query !== 'string' || !Array.isArray(q.documents) || !Array.isArray(q.relevant)) {
      throw new Error(`${path}:${i + 1}: not a relevance query record`);
    }
    queries.push(q);
  });
  return { meta, queries };
}
