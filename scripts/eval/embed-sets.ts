/**
 * Fills eval/.cache/use-lite-embeddings.json with the USE-lite embedding of every query and document of
 * every set (so fitting and `npm run eval` read them instead of recomputing). Optional: both embed
 * what is missing themselves.   npx tsx scripts/eval/embed-sets.ts
 */
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { EMBEDDING_CACHE_PATH, USE_LITE_FOLDER, allSplits } from './eval-sources.js';
import { EmbeddingCache } from './embedding-cache.js';

const cache = new EmbeddingCache(EMBEDDING_CACHE_PATH);
const model = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_FOLDER });
const texts = (await allSplits()).flatMap((s) => s.queries.flatMap((q) => [q.query, ...q.documents]));
const started = performance.now();
await cache.fill(model, texts, 256, (done, total) => console.log(`${done}/${total} embedded, ${((performance.now() - started) / done).toFixed(0)} ms/text`));
console.log(`${cache.size} embeddings in ${EMBEDDING_CACHE_PATH}`);
await model.close();
