/**
 * Fills eval/.cache with a bi-encoder's embedding of every query and document of every set (so fitting
 * and `npm run eval` read them instead of recomputing); the cache file is the model's own (keyed by its
 * digest). Optional: both embed what is missing themselves.
 *   npx tsx scripts/eval/embed-sets.ts [model folder, default models/use-lite] [source split, e.g. info train: only that split]
 */
import { basename } from 'node:path';
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { EMBEDDING_CACHE_DIR, USE_LITE_FOLDER, allSplits, readSourceSplit } from './eval-sources.js';
import type { SplitName } from './pooled-set.js';
import { EmbeddingCache } from './embedding-cache.js';

const folder = process.argv[2] ?? USE_LITE_FOLDER;
const cache = await EmbeddingCache.forModel(EMBEDDING_CACHE_DIR, folder);
const model = await loadOnnxBiEncoder({ id: basename(folder), folder });
const [source, split] = process.argv.slice(3);
const splits = source === undefined ? await allSplits() : [await readSourceSplit(source, (split ?? 'train') as SplitName)];
const texts = splits.flatMap((s) => s.queries.flatMap((q) => [q.query, ...q.documents]));
const started = performance.now();
await cache.fill(model, texts, 256, (done, total) =>
  console.log(`${done}/${total} embedded, ${((performance.now() - started) / done).toFixed(0)} ms/text`),
);
console.log(`${cache.size} embeddings of ${folder} (model digest ${cache.digest.slice(0, 16)}) in ${EMBEDDING_CACHE_DIR}`);
await model.close();
