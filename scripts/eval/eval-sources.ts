import { join, resolve } from 'node:path';
import { pooledSplit, readPooledSet, type SplitName } from './pooled-set.js';
import { readRelevanceSet, type RelevanceQuery } from './relevance-set.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const USE_LITE_FOLDER = join(ROOT, 'models/use-lite');
/** USE-lite fine-tuned on the training sources (scripts/model/fine-tune-use/). */
export const USE_LITE_TUNED_FOLDER = join(ROOT, 'models/use-lite-tuned');
/** The bi-encoder the default model `use-lite-bm25` fuses (its spec in shared/config/service-config.ts). */
export const DEFAULT_BI_ENCODER = 'use-lite' as 'use-lite' | 'use-lite-tuned';
/** Bi-encoder embeddings per model digest (embedding-cache.ts), not committed. */
export const EMBEDDING_CACHE_DIR = join(ROOT, 'eval/.cache');

/** Sources trained and tuned on (train split) and reported on (eval split). */
export const TRAINING_SOURCES = ['debian', 'info', 'wordnet'] as const;
/** Never trained or tuned on: reported separately as the unseen check. */
export const UNSEEN_SOURCES = ['man'] as const;

export interface SourceSplit {
  readonly source: string;
  readonly split: SplitName;
  readonly queries: readonly RelevanceQuery[];
}

/**
 * One source's split. Debian's eval split is the original committed set (eval/debian-descriptions.jsonl);
 * every other split comes from eval/sets/<source>.json.gz (scripts/eval/build-source-sets.ts).
 */
export async function readSourceSplit(source: string, split: SplitName): Promise<SourceSplit> {
  if (source === 'debian' && split === 'eval') {
    return { source, split, queries: (await readRelevanceSet(join(ROOT, 'eval/debian-descriptions.jsonl'))).queries };
  }
  return { source, split, queries: pooledSplit(readPooledSet(join(ROOT, `eval/sets/${source}.json.gz`)), split) };
}

export async function allSplits(): Promise<SourceSplit[]> {
  return Promise.all([
    ...TRAINING_SOURCES.flatMap((s) => [readSourceSplit(s, 'train'), readSourceSplit(s, 'eval')]),
    ...UNSEEN_SOURCES.map((s) => readSourceSplit(s, 'eval')),
  ]);
}
