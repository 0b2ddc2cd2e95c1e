/**
 * Fits the two logistic models that put lexical and hybrid scores on the P(relevant) scale, on the
 * TRAIN splits of the training sources only (Debian descriptions, info manuals, WordNet glosses; the
 * eval splits share no query with them, and man pages are never read here):
 *
 * - shared/scoring/lexical/bm25-calibration.ts: `bm25` = sigmoid(w . lexical features + b)
 * - (the `use-lite-bm25` default's fusion is fitted by fit-default-fusion.ts, by leave-one-source-out CV)
 *
 * The one hyperparameter, the BM25 saturation k of s / (s + k), is chosen per model by 3-fold
 * cross-validation over train queries (log loss). Deterministic: same data, same weights.
 *
 *   npm run eval:fit          (needs models/use-lite; embeddings cached in eval/.cache)
 */
import { writeFile } from 'node:fs/promises';
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { HYBRID_FEATURE_NAMES, hybridFeatureVector } from '../../shared/scoring/hybrid/fusion-features.js';
import { defaultBackground } from '../../shared/scoring/lexical/background-idf.js';
import { LEXICAL_FEATURE_NAMES, lexicalFeatures, type LexicalFeatures } from '../../shared/scoring/lexical/lexical-features.js';
import { tokenizeLexical } from '../../shared/scoring/lexical/lexical-tokenizer.js';
import type { LogisticModel } from '../../shared/scoring/logistic-model.js';
import { EmbeddingCache } from './embedding-cache.js';
import { fitBm25Calibration } from './fit-bm25-calibration.js';
import { EMBEDDING_CACHE_DIR, TRAINING_SOURCES, USE_LITE_FOLDER, readSourceSplit } from './eval-sources.js';
import { fitConditionalLogit, fitLogistic, logLoss, meanReciprocalRank } from './logistic-fit.js';

const SATURATIONS = [1, 2, 4, 8, 16, 32, 64];
const LAMBDA = 1;
const FOLDS = 3;

interface Pair {
  readonly label: number;
  readonly lexical: LexicalFeatures;
  readonly cosine: number;
}

const background = defaultBackground();
const cache = await EmbeddingCache.forModel(EMBEDDING_CACHE_DIR, USE_LITE_FOLDER);
const model = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_FOLDER });
const useLite = cache.scorer(model);

const trainQueries: { fold: number; pairs: Pair[] }[] = [];
let queryIndex = 0;
for (const source of TRAINING_SOURCES) {
  const { queries } = await readSourceSplit(source, 'train');
  for (const q of queries) {
    const cosines = (await useLite.score(q.query, q.documents)).scores;
    const queryTerms = tokenizeLexical(q.query);
    const pairs = q.documents.map((d, i) => ({
      label: q.relevant.includes(i) ? 1 : 0,
      lexical: lexicalFeatures(queryTerms, tokenizeLexical(d), background),
      cosine: cosines[i]!,
    }));
    trainQueries.push({ fold: queryIndex % FOLDS, pairs });
    queryIndex++;
  }
  console.log(`${source}: ${queries.length} train queries`);
}
cache.save();
await model.close();

/**
 * Per k: 3-fold cross-validated MRR@10 of a listwise fit (train folds -> held-out fold, grouped by query).
 * The best k's weights are refitted on every train query, then calibrated: a one-feature logistic
 * regression (Platt scaling) of relevance on w . x gives P(relevant) = sigmoid(a (w . x) + b), which
 * keeps the order the listwise fit learned and makes the value a probability.
 */
function choose(
  name: string,
  names: readonly string[],
  vector: (p: Pair, saturation: number) => number[],
): { weights: number[]; bias: number; saturation: number; cvMrr: number } {
  let best: { saturation: number; cvMrr: number } | undefined;
  for (const saturation of SATURATIONS) {
    const groups = trainQueries.map((q) => ({
      fold: q.fold,
      rows: q.pairs.map((p) => vector(p, saturation)),
      relevant: q.pairs.findIndex((p) => p.label === 1),
    }));
    let mrr = 0;
    for (let fold = 0; fold < FOLDS; fold++) {
      const w = fitConditionalLogit(
        groups.filter((g) => g.fold !== fold),
        LAMBDA,
      );
      const held = groups.filter((g) => g.fold === fold);
      mrr += meanReciprocalRank(w, held) * held.length;
    }
    const cvMrr = mrr / groups.length;
    console.log(`${name}: k = ${saturation}: cross-validated MRR@10 ${cvMrr.toFixed(4)}`);
    if (best === undefined || cvMrr > best.cvMrr) best = { saturation, cvMrr };
  }
  const { saturation } = best!;
  const groups = trainQueries.map((q) => ({
    rows: q.pairs.map((p) => vector(p, saturation)),
    relevant: q.pairs.findIndex((p) => p.label === 1),
  }));
  const w = fitConditionalLogit(groups, LAMBDA);
  // The query's length is the same for all its candidates, so the listwise fit cannot weigh it; the
  // calibration step does (longer queries match less of a relevant document), without changing any order.
  const queryLength = names.indexOf('logQueryTerms');
  const z = groups.flatMap((g) => g.rows.map((row) => [row.reduce((sum, v, j) => sum + w[j]! * v, 0), row[queryLength]!]));
  const labels = trainQueries.flatMap((q) => q.pairs.map((p) => p.label));
  const platt = fitLogistic(z, labels, 0);
  console.log(`${name}: calibrated log loss on train ${logLoss(platt, z, labels).toFixed(4)}`);
  const weights = w.map((v, j) => v * platt.weights[0]! + (j === queryLength ? platt.weights[1]! : 0));
  return { weights, bias: platt.bias, ...best! };
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;
const fittedOn = `${queryIndex * 20} pairs (${queryIndex} train queries x 20 candidates) from ${TRAINING_SOURCES.join(', ')}; scripts/eval/fit-fusion.ts`;

async function emit(
  path: string,
  constant: string,
  what: string,
  features: readonly string[],
  chosen: { weights: readonly number[]; bias: number; saturation: number; cvMrr: number },
): Promise<void> {
  const fitted: LogisticModel = {
    features,
    weights: chosen.weights.map(round),
    bias: round(chosen.bias),
    saturation: chosen.saturation,
    fittedOn: `${fittedOn}; listwise fit, k by 3-fold CV (MRR@10 ${chosen.cvMrr.toFixed(3)}), Platt-calibrated`,
  };
  await writeFile(
    path,
    `// GENERATED by scripts/eval/fit-fusion.ts (npm run eval:fit) - do not edit; refit instead.\n` +
      `import type { LogisticModel } from '../logistic-model.js';\n\n/** ${what} */\nexport const ${constant}: LogisticModel = ${JSON.stringify(fitted, null, 2)};\n`,
  );
  console.log(
    `wrote ${path}: ${features.map((f, i) => `${f} ${fitted.weights[i]}`).join(', ')}, bias ${fitted.bias}, k ${fitted.saturation}`,
  );
}

// The same fit as fit-default-fusion.ts's per-fold bm25 (fit-bm25-calibration.ts), on every train query.
const bm25 = fitBm25Calibration(
  trainQueries.map((q) => ({ lexical: q.pairs.map((p) => p.lexical), relevant: q.pairs.findIndex((p) => p.label === 1) })),
  (k, cvMrr) => console.log(`bm25: k = ${k}: cross-validated MRR@10 ${cvMrr.toFixed(4)}`),
);
console.log(`bm25: calibrated log loss on train ${bm25.logLoss.toFixed(4)}`);
await emit(
  'shared/scoring/lexical/bm25-calibration.ts',
  'BM25_CALIBRATION',
  'P(relevant) from lexical features alone: the `bm25` model.',
  LEXICAL_FEATURE_NAMES,
  bm25,
);
// The default's fusion is chosen by leave-one-source-out CV and uses the bm25 model's logit: refit it after bm25.
console.log('in-source fit of the hybrid above is for comparison only; the served default fusion comes from');
console.log('  npx tsx scripts/eval/fit-default-fusion.ts --model models/use-lite --write   (run it after refitting bm25)');
choose('use-lite-bm25 (in-source folds, not written)', HYBRID_FEATURE_NAMES, (p, k) => hybridFeatureVector(p.lexical, p.cosine, k));
