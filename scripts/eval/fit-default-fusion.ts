/**
 * Fits the default model's fusion (shared/scoring/hybrid/use-lite-fusion.ts) for a bi-encoder, choosing
 * its features, L2 penalty and BM25 saturation by LEAVE-ONE-SOURCE-OUT cross-validation: fit on the train
 * splits of two training sources, score the third's train split, for each of debian, info and wordnet.
 * A choice must generalize to a source it was not fitted on, which in-source folds do not show.
 *
 * Fully nested: per fold, bm25 itself (its IDF table and its calibration, held-out-lexical-side.ts) is
 * refitted without the held-out source, so the held-out source's bm25 baseline and its bm25Logit feature
 * are out of sample too; the served bm25 saw all three sources' documents and labels.
 *
 * Rule: among the candidates whose held-out MRR@10 is at least the fold's `bm25` model's on EVERY held-out
 * source, the best mean held-out MRR@10; if none qualifies, the one whose worst source loses least to
 * bm25 (the report says so). The chosen candidate is refitted on all three train splits (listwise
 * conditional logit for the order, then Platt scaling with the query length for P(relevant)).
 * Never reads an eval split or the man pages. Deterministic. Writes eval/fusion-cv.md.
 *
 * Writes the fit to <model folder>/fusion.json, to --fit-out <file.json>, or with --write to
 * shared/scoring/hybrid/use-lite-fusion.ts (the served default's fusion: only when the default's spec names that
 * bi-encoder; `--model models/use-lite --write` is how today's default fusion was fitted). The committed
 * models/use-lite never gets a fusion.json: without --write it needs --fit-out (fusion-fit-target.ts).
 *
 *   npx tsx scripts/eval/fit-default-fusion.ts [--model models/use-lite-tuned] [--held-out-models <pattern>] [--write | --fit-out <file.json>]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { fusionFeatureVector } from '../../shared/scoring/hybrid/fusion-features.js';
import { defaultBackground } from '../../shared/scoring/lexical/background-idf.js';
import { BM25_CALIBRATION } from '../../shared/scoring/lexical/bm25-calibration.js';
import { lexicalFeatureVector, type LexicalFeatures } from '../../shared/scoring/lexical/lexical-features.js';
import { logisticProbability, type LogisticModel } from '../../shared/scoring/logistic-model.js';
import { expectedCalibrationError, type ScoredLabel } from './calibration.js';
import { EmbeddingCache } from './embedding-cache.js';
import { EMBEDDING_CACHE_DIR, TRAINING_SOURCES, readSourceSplit } from './eval-sources.js';
import {
  fitLexicalSideWithout,
  lexicalFeaturesUnder,
  type HeldOutLexicalSide,
  type LexicalSide,
  type SourceQuery,
} from './held-out-lexical-side.js';
import { fusionFitTarget } from './fusion-fit-target.js';
import { fitConditionalLogit, fitLogistic, logLoss, type QueryGroup } from './logistic-fit.js';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/use-lite-tuned' },
    write: { type: 'boolean', default: false },
    'fit-out': { type: 'string' },
    report: { type: 'string', default: 'eval/fusion-cv.md' },
    'held-out-models': { type: 'string' },
  },
});
const modelFolder = resolve(ROOT, values.model);
// Decided before the minutes of fitting: a refused target fails at once.
const target = fusionFitTarget({ root: ROOT, modelFolder, fitOut: values['fit-out'], write: values.write });
/**
 * Cross-fitting: when the bi-encoder was fine-tuned on these same train queries, its cosines on them are in
 * sample (too good) and a fusion fitted on them trusts the cosine far too much. With a pattern such as
 * models/.build/use-lite-tuned/without-{source}, each source's cosines come from a copy fine-tuned WITHOUT
 * that source, i.e. out of sample, both for the cross-validation and for the final fit.
 */
const cosineFolder = (source: string): string => resolve(ROOT, values['held-out-models']?.replaceAll('{source}', source) ?? values.model);

/** Feature sets tried; each ends with logQueryTerms, which only the calibration step weighs (constant within a query). */
const FEATURE_SETS: Record<string, readonly string[]> = {
  'bm25 logit + cosine': ['bm25Logit', 'cosine', 'logQueryTerms'],
  'bm25 logit + cosine, cosine^2': ['bm25Logit', 'cosine', 'cosineSquared', 'logQueryTerms'],
  'bm25 logit + cosine, cosine x idfCoverage': ['bm25Logit', 'cosine', 'cosineTimesIdfCoverage', 'logQueryTerms'],
  'bm25 logit + all cosine terms': ['bm25Logit', 'cosine', 'cosineSquared', 'cosineTimesIdfCoverage', 'logQueryTerms'],
  'lexical + cosine': [
    'bm25Saturated',
    'logBm25',
    'coverage',
    'idfCoverage',
    'rarestMatched',
    'logDocumentTerms',
    'cosine',
    'logQueryTerms',
  ],
  'lexical + all cosine terms (previous)': [
    'bm25Saturated',
    'logBm25',
    'coverage',
    'idfCoverage',
    'rarestMatched',
    'logDocumentTerms',
    'cosine',
    'cosineSquared',
    'cosineTimesIdfCoverage',
    'logQueryTerms',
  ],
};
const LAMBDAS = [0.1, 1, 10, 100];
const SATURATIONS = [1, 4, 16];
const usesSaturation = (names: readonly string[]): boolean => names.includes('bm25Saturated');

/** The served lexical side (final fit) or a fold's (held-out-lexical-side.ts); 'served' or the held-out source. */
type SideKey = 'served' | (typeof TRAINING_SOURCES)[number];

interface Query {
  readonly source: string;
  /** Lexical features under each side's IDF. */
  readonly lexical: ReadonlyMap<SideKey, readonly LexicalFeatures[]>;
  readonly cosines: readonly number[];
  readonly relevant: number;
}

const reciprocalRank = (scores: readonly number[], relevant: number): number => {
  const mine = scores[relevant]!;
  const rank = 1 + scores.filter((v, i) => i !== relevant && v >= mine).length; // ties pessimistic
  return rank <= 10 ? 1 / rank : 0;
};

const cache = await EmbeddingCache.forModel(EMBEDDING_CACHE_DIR, modelFolder);
const texts: SourceQuery[] = [];
const cosinesOf: (readonly number[])[] = [];
const idfDocuments = new Map<string, readonly string[]>();
for (const source of TRAINING_SOURCES) {
  const folder = cosineFolder(source);
  const sourceCache = await EmbeddingCache.forModel(EMBEDDING_CACHE_DIR, folder);
  const model = await loadOnnxBiEncoder({ id: basename(folder), folder });
  const cosineScorer = sourceCache.scorer(model);
  const train = (await readSourceSplit(source, 'train')).queries;
  // The committed IDF table is over every split's documents of the training sources (build-background-idf.ts): a fold's is the same without one source.
  idfDocuments.set(
    source,
    [...train, ...(await readSourceSplit(source, 'eval')).queries].flatMap((q) => q.documents),
  );
  for (const q of train) {
    texts.push({ source, query: q.query, documents: q.documents, relevant: q.relevant[0]! });
    cosinesOf.push((await cosineScorer.score(q.query, q.documents)).scores);
  }
  sourceCache.save();
  await model.close();
}

const served: LexicalSide = { background: defaultBackground(), bm25: BM25_CALIBRATION };
const folds = new Map<SideKey, HeldOutLexicalSide>(
  TRAINING_SOURCES.map((source) => [source, fitLexicalSideWithout(source, texts, idfDocuments)]),
);
const sides = new Map<SideKey, LexicalSide>([['served', served], ...folds]);
for (const f of folds.values())
  console.log(
    `bm25 without ${f.heldOut}: IDF over ${f.idfDocuments} documents, k ${f.fit.saturation}, CV MRR@10 ${f.fit.cvMrr.toFixed(3)}`,
  );
const queries: Query[] = texts.map((t, i) => ({
  source: t.source,
  lexical: new Map([...sides].map(([key, side]) => [key, lexicalFeaturesUnder(side, t.query, t.documents)])),
  cosines: cosinesOf[i]!,
  relevant: t.relevant,
}));
const lexicalOf = (q: Query, side: SideKey): readonly LexicalFeatures[] => q.lexical.get(side)!;
/** The reciprocal rank@10 of a side's bm25 on a query (the baseline every candidate must not fall below). */
const bm25Rr = (q: Query, side: SideKey): number => {
  const { bm25 } = sides.get(side)!;
  return reciprocalRank(
    lexicalOf(q, side).map((f) => logisticProbability(bm25, lexicalFeatureVector(f, bm25.saturation))),
    q.relevant,
  );
};

interface Candidate {
  readonly name: string;
  readonly features: readonly string[];
  readonly lambda: number;
  readonly saturation: number;
}

const candidates: Candidate[] = Object.entries(FEATURE_SETS).flatMap(([name, features]) =>
  LAMBDAS.flatMap((lambda) => (usesSaturation(features) ? SATURATIONS : [1]).map((saturation) => ({ name, features, lambda, saturation }))),
);

const rows = (c: Candidate, q: Query, side: SideKey): number[][] =>
  lexicalOf(q, side).map((f, i) => fusionFeatureVector(c.features, f, q.cosines[i]!, c.saturation, sides.get(side)!.bm25));
const group = (c: Candidate, q: Query, side: SideKey): QueryGroup => ({ rows: rows(c, q, side), relevant: q.relevant });
const dot = (w: readonly number[], x: readonly number[]): number => x.reduce((s, v, j) => s + w[j]! * v, 0);

/** Listwise weights, then Platt scaling over (w . x, logQueryTerms): a LogisticModel in the served form. */
function fit(c: Candidate, train: readonly Query[], side: SideKey): { weights: number[]; bias: number; logLoss: number } {
  const w = fitConditionalLogit(
    train.map((q) => group(c, q, side)),
    c.lambda,
  );
  const queryLength = c.features.indexOf('logQueryTerms');
  const z = train.flatMap((q) => rows(c, q, side).map((row) => [dot(w, row), row[queryLength]!]));
  const labels = train.flatMap((q) => q.cosines.map((_, i) => (i === q.relevant ? 1 : 0)));
  const platt = fitLogistic(z, labels, 0);
  const weights = w.map((v, j) => v * platt.weights[0]! + (j === queryLength ? platt.weights[1]! : 0));
  return { weights, bias: platt.bias, logLoss: logLoss(platt, z, labels) };
}

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));
const mean = (xs: readonly number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;
const ci95 = (xs: readonly number[]): number => {
  const m = mean(xs);
  return 1.96 * Math.sqrt(xs.reduce((s, v) => s + (v - m) ** 2, 0) / (xs.length - 1) / xs.length);
};

interface HeldOut {
  readonly source: string;
  readonly mrr: number;
  /** The fold's bm25 (refitted without this source), the baseline. */
  readonly bm25Mrr: number;
  /** The served bm25 (fitted on all three sources: in sample here), for comparison. */
  readonly servedBm25Mrr: number;
  /** Paired difference to bm25 on the held-out source's queries: mean and 95% CI half-width. */
  readonly diff: number;
  readonly diffCi: number;
  readonly ece: number;
}

function leaveOneSourceOut(c: Candidate): HeldOut[] {
  return TRAINING_SOURCES.map((source) => {
    // Everything fitted here (the fusion, and bm25 under its bm25Logit) has seen neither the source's labels nor its documents.
    const { weights, bias } = fit(
      c,
      queries.filter((q) => q.source !== source),
      source,
    );
    const held = queries.filter((q) => q.source === source);
    const points: ScoredLabel[] = [];
    const rr = held.map((q) => {
      const scores = rows(c, q, source).map((row) => sigmoid(bias + dot(weights, row)));
      scores.forEach((score, i) => points.push({ score, relevant: i === q.relevant }));
      return reciprocalRank(scores, q.relevant);
    });
    const baseline = held.map((q) => bm25Rr(q, source));
    const diffs = rr.map((v, i) => v - baseline[i]!);
    return {
      source,
      mrr: mean(rr),
      bm25Mrr: mean(baseline),
      servedBm25Mrr: mean(held.map((q) => bm25Rr(q, 'served'))),
      diff: mean(diffs),
      diffCi: ci95(diffs),
      ece: expectedCalibrationError(points),
    };
  });
}

const results = candidates.map((c) => {
  const held = leaveOneSourceOut(c);
  return { c, held, meanMrr: mean(held.map((h) => h.mrr)), worstDiff: Math.min(...held.map((h) => h.diff)) };
});
const qualifying = results.filter((r) => r.worstDiff >= 0);
const pool = qualifying.length > 0 ? qualifying : results;
const chosen = pool.reduce((best, r) => ((qualifying.length > 0 ? r.meanMrr > best.meanMrr : r.worstDiff > best.worstDiff) ? r : best));
const f3 = (x: number): string => x.toFixed(3);
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${f3(x)}`;
const describe = (c: Candidate): string => `${c.name}, lambda ${c.lambda}${usesSaturation(c.features) ? `, k ${c.saturation}` : ''}`;
for (const r of results)
  console.log(
    `${describe(r.c)}: LOSO MRR@10 ${r.held.map((h) => `${h.source} ${f3(h.mrr)} (${signed(h.diff)} vs bm25)`).join(', ')}; mean ${f3(r.meanMrr)}`,
  );
console.log(
  `chosen: ${describe(chosen.c)}${qualifying.length > 0 ? '' : ' (NO candidate reaches bm25 on every held-out source: the least bad one)'}`,
);

const final = fit(chosen.c, queries, 'served');
const round = (x: number): number => Math.round(x * 1e6) / 1e6;
const modelName = relative(ROOT, modelFolder);
const cvFigures = chosen.held.map((h) => `${h.source} ${f3(h.mrr)} vs its fold's bm25 ${f3(h.bm25Mrr)}`).join(', ');
const fitted: LogisticModel = {
  features: chosen.c.features,
  weights: final.weights.map(round),
  bias: round(final.bias),
  saturation: chosen.c.saturation,
  fittedOn:
    `${queries.length * 20} pairs (${queries.length} train queries x 20 candidates) from ${TRAINING_SOURCES.join(', ')}, cosine of ${modelName}` +
    `${values['held-out-models'] === undefined ? '' : ' (cross-fitted: each source scored by a copy fine-tuned without it)'}; ` +
    `scripts/eval/fit-default-fusion.ts: features and L2 ${chosen.c.lambda} by nested leave-one-source-out CV (bm25 refitted per fold; held-out MRR@10 ${cvFigures}), listwise fit, Platt-calibrated`,
};

const foldTable = [
  "| held-out source | its fold's bm25: IDF documents, k, CV MRR@10 (other two sources) | held-out MRR@10: fold bm25 / served bm25 (in sample) |",
  '| --- | --- | --- |',
  ...[...folds.values()].map((f) => {
    const h = chosen.held.find((x) => x.source === f.heldOut)!;
    return `| ${f.heldOut} | ${f.idfDocuments}, ${f.fit.saturation}, ${f3(f.fit.cvMrr)} | ${f3(h.bm25Mrr)} / ${f3(h.servedBm25Mrr)} |`;
  }),
].join('\n');
const table = [
  '| feature set | L2 | k | ' +
    TRAINING_SOURCES.map((s) => `${s} held out: MRR@10 (vs bm25, paired 95% CI) / ECE`).join(' | ') +
    ' | mean MRR@10 | >= bm25 on every source |',
  '| --- | --- | --- | ' + TRAINING_SOURCES.map(() => '---').join(' | ') + ' | --- | --- |',
  ...results.map(
    (r) =>
      `| ${r.c.name}${r === chosen ? ' **(chosen)**' : ''} | ${r.c.lambda} | ${usesSaturation(r.c.features) ? r.c.saturation : '-'} | ` +
      r.held.map((h) => `${f3(h.mrr)} (${signed(h.diff)} ± ${f3(h.diffCi)}) / ${f3(h.ece)}`).join(' | ') +
      ` | ${f3(r.meanMrr)} | ${r.worstDiff >= 0 ? 'yes' : 'no'} |`,
  ),
].join('\n');
const report = `# The default fusion: nested leave-one-source-out cross-validation

Generated by \`npx tsx scripts/eval/fit-default-fusion.ts --model ${modelName}${values['held-out-models'] === undefined ? '' : ` --held-out-models ${values['held-out-models']}`}\`
(scripts/eval/fit-default-fusion.ts) on ${new Date().toISOString()} (${cpus()[0]?.model ?? 'unknown CPU'}).
Bi-encoder: \`${modelName}\` (model digest ${cache.digest.slice(0, 16)}). ${
  values['held-out-models'] === undefined
    ? 'Its cosines on the train splits are used as they are (right for a model not trained on them).'
    : `Cross-fitted: each source's cosines come from \`${values['held-out-models']}\`, a copy fine-tuned without that source, so every cosine the fusion is fitted and cross-validated on is out of sample.`
}

Each row is fitted on the TRAIN splits of two training sources and scored on the train split of the third
(300 queries, 1 relevant in 20 BM25-mined candidates), for each source in turn. Fully nested: in each fold
\`bm25\` itself is rebuilt from the two other sources by the served recipe (IDF table over their documents,
build-background-idf.ts; calibration and k over their train queries, fit-fusion.ts), and both the fusion's
bm25Logit feature and the baseline are that fold's bm25, so nothing fitted has seen the held-out source.
"vs bm25" is the paired difference to the fold's bm25 on the same held-out queries (95% CI half-width).
Eval splits are read only for their documents' term counts (IDF, as the committed table is built); their
labels and the man pages are not read. ECE: the held-out source's P(relevant) calibration (10 bins).

${foldTable}

Rule: the best mean held-out MRR@10 among the rows at or above bm25 on every held-out source${qualifying.length > 0 ? '' : ' - NO row qualified, so the row whose worst source loses least to bm25 was taken'}.
Chosen: **${describe(chosen.c)}**, then refitted on all ${queries.length} train queries (train log loss ${final.logLoss.toFixed(4)}).

${table}

Features: bm25Logit = the \`bm25\` model's logit (the fold's in the table, the served one in the final fit) (its whole lexical side as one number); cosine =
the bi-encoder cosine; cosineSquared; cosineTimesIdfCoverage; the lexical ones as in eval/report.md;
logQueryTerms is weighed by the calibration step only (it is constant within a query).

Fitted: ${fitted.features.map((f, i) => `${f} ${fitted.weights[i]}`).join(', ')}, bias ${fitted.bias}.
`;
await writeFile(resolve(ROOT, values.report), report);
console.log(`wrote ${values.report}`);
// Without --write the fit travels with its bi-encoder (the eval's candidate row reads it) or goes to --fit-out;
// --write serves it instead.
if (target.kind === 'file') {
  await mkdir(dirname(target.path), { recursive: true });
  await writeFile(target.path, `${JSON.stringify(fitted, null, 2)}\n`);
  console.log(`wrote ${relative(ROOT, target.path)}`);
} else {
  const path = target.path;
  await writeFile(
    path,
    `// GENERATED by scripts/eval/fit-default-fusion.ts --model ${modelName} --write - do not edit; refit instead.\n` +
      `import type { LogisticModel } from '../logistic-model.js';\n\n/** P(relevant) from lexical features and the ${modelName} cosine: the \`use-lite-bm25\` default model. */\n` +
      `export const USE_LITE_BM25_FUSION: LogisticModel = ${JSON.stringify(fitted, null, 2)};\n`,
  );
  console.log(`wrote ${relative(ROOT, path)}`);
}
