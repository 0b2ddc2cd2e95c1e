/**
 * How far fine-tuning carries to text it never saw: the cosine-alone MRR@10 of each cross-fit copy (fine-tuned
 * without one source, by `npm run model:train-default`) on the TRAIN split of that source, beside the original
 * USE-lite's on the same queries. Reads train splits only (no eval split, no man pages); embeddings come from
 * eval/.cache (keyed by each model's digest) and are embedded when missing.
 *   npx tsx scripts/eval/cross-fit-transfer.ts [--held-out-models models/.build/use-lite-tuned/without-{source}]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scorer } from '../../shared/core/scorer.js';
import { loadCachedBiEncoder } from './eval-scorers.js';
import { TRAINING_SOURCES, USE_LITE_FOLDER, readSourceSplit, type SourceSplit } from './eval-sources.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { 'held-out-models': { type: 'string', default: 'models/.build/use-lite-tuned/without-{source}' } },
});

/** MRR@10 of the one relevant candidate, ties counted against it (as fit-default-fusion.ts counts them). */
async function meanReciprocalRank(scorer: Scorer, split: SourceSplit): Promise<number> {
  let total = 0;
  for (const q of split.queries) {
    const { scores } = await scorer.score(q.query, q.documents);
    const relevant = q.relevant[0]!;
    const rank = 1 + scores.filter((v, i) => i !== relevant && v >= scores[relevant]!).length;
    total += rank <= 10 ? 1 / rank : 0;
  }
  return total / split.queries.length;
}

const original = await loadCachedBiEncoder('use-lite', USE_LITE_FOLDER);
for (const source of TRAINING_SOURCES) {
  const folder = resolve(ROOT, values['held-out-models'].replaceAll('{source}', source));
  const copy = await loadCachedBiEncoder(`without-${source}`, folder);
  const split = await readSourceSplit(source, 'train');
  const [before, after] = [await meanReciprocalRank(original, split), await meanReciprocalRank(copy, split)];
  console.log(
    `${source} train (${split.queries.length} queries), cosine alone MRR@10: original ${before.toFixed(3)}, copy fine-tuned without ${source} ${after.toFixed(3)} (${after >= before ? '+' : ''}${(after - before).toFixed(3)})`,
  );
  await copy.close?.();
}
await original.close?.();
