import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogisticModel } from '../../shared/scoring/logistic-model.js';
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { createFittedHybridScorer } from '../../shared/scoring/hybrid/fitted-hybrid-scorer.js';
import { createHybridScorer } from '../../shared/scoring/hybrid/hybrid-scorer.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/bm25-scorer.js';
import type { Scorer } from '../../shared/core/scorer.js';
import { EmbeddingCache } from './embedding-cache.js';
import { DEFAULT_BI_ENCODER, EMBEDDING_CACHE_DIR, USE_LITE_FOLDER, USE_LITE_TUNED_FOLDER } from './eval-sources.js';
import { PREVIOUS_DEFAULT_FUSION } from './previous-default-fusion.js';
import { hashSeed, seededRandom } from './seeded-random.js';

/** Why a scorer could not be evaluated on this machine (printed as "not available"). */
export class ScorerNotAvailable extends Error {
  override readonly name = 'ScorerNotAvailable';
}

/** Scorers loaded so far by name, so a hybrid reuses the already-loaded model. */
export type LoadedScorers = ReadonlyMap<string, Scorer>;

export interface EvalScorerFactory {
  /** Row name in the report. */
  readonly name: string;
  /** One line for the report: what the scorer is and what its scores mean. */
  readonly description: string;
  /** Scorers (by name) load() takes from `loaded`: `--only` runs them too. */
  readonly requires?: readonly string[];
  /** Throws ScorerNotAvailable when a model or module is missing; other errors abort the run. */
  load(loaded: LoadedScorers): Promise<Scorer>;
}

/** Scores are a seeded hash of (query, document): a chance-level baseline that is the same on every run. */
export function createRandomScorer(id: string, seed = 7): Scorer {
  return {
    id,
    scoreKind: 'similarity',
    async score(query, documents) {
      const random = seededRandom(hashSeed(query, seed));
      return { scores: documents.map(() => random()), tokens: 0 };
    },
  };
}

function requireLoaded(loaded: LoadedScorers, name: string): Scorer {
  const scorer = loaded.get(name);
  if (scorer === undefined) throw new ScorerNotAvailable(`needs scorer "${name}", which is not available`);
  return scorer;
}

/** A bi-encoder, its embeddings cached per text on disk (eval/.cache, one file per model digest) since sets share documents. */
export async function loadCachedBiEncoder(id: string, folder: string): Promise<Scorer> {
  if (!existsSync(folder)) throw new ScorerNotAvailable(`${folder} does not exist`);
  const model = await loadOnnxBiEncoder({ id, folder });
  const cache = await EmbeddingCache.forModel(EMBEDDING_CACHE_DIR, folder);
  return {
    ...cache.scorer(model),
    close: async () => {
      cache.save();
      await model.close();
    },
  };
}

/** The served bi-encoder (models/use-lite). */
export const loadCachedUseLite = (): Promise<Scorer> => loadCachedBiEncoder('use-lite', USE_LITE_FOLDER);

/** The evaluated scorers, in report order. Adding a scorer is one entry here. */
export const EVAL_SCORERS: readonly EvalScorerFactory[] = [
  {
    name: 'random',
    description: 'seeded random scores in [0, 1) (chance baseline)',
    load: async () => createRandomScorer('random'),
  },
  {
    name: 'bm25-candidates (old bm25)',
    description: 'raw Okapi BM25, k1 1.2, b 0.75, IDF and length over the 20 candidates: unbounded, candidate-relative',
    load: async () => createBm25Scorer({ id: 'bm25-candidates', statistics: 'candidates' }),
  },
  {
    name: 'bm25',
    description:
      'served `bm25`: P(relevant) from a logistic model over BM25 with the fixed background IDF (saturated), coverage and lengths',
    load: async () => createBm25Scorer({ id: 'bm25' }),
  },
  {
    name: 'use-lite',
    description: 'served `use-lite`: cosine of Universal Sentence Encoder lite embeddings, in [-1, 1] (not a probability)',
    load: loadCachedUseLite,
  },
  {
    name: 'use-lite-tuned',
    description:
      'served `use-lite-tuned`: cosine of USE-lite fine-tuned on the training sources (scripts/model/fine-tune-use/; what was trained: its training.json)',
    load: () => loadCachedBiEncoder('use-lite-tuned', USE_LITE_TUNED_FOLDER),
  },
  {
    name: 'use-lite-tuned-bm25 (candidate)',
    description:
      'candidate default: the fusion fitted for `use-lite-tuned` by leave-one-source-out CV (models/use-lite-tuned/fusion.json) over its cosine',
    requires: ['use-lite-tuned'],
    load: async (loaded) => {
      const path = join(USE_LITE_TUNED_FOLDER, 'fusion.json');
      if (!existsSync(path)) throw new ScorerNotAvailable(`${path} does not exist (npm run model:train-default writes it)`);
      const calibration = JSON.parse(readFileSync(path, 'utf8')) as LogisticModel;
      return createFittedHybridScorer({
        id: 'use-lite-tuned-bm25',
        model: requireLoaded(loaded, 'use-lite-tuned'),
        lexical: createBm25Scorer({ id: 'bm25' }),
        calibration,
      });
    },
  },
  {
    name: 'minmax(use-lite+bm25) (old default)',
    description: 'the old `use-lite-bm25`: 0.5 minmax(cosine) + 0.5 minmax(request-local BM25) over the request: candidate-relative',
    requires: ['use-lite', 'bm25-candidates (old bm25)'],
    load: async (loaded) =>
      createHybridScorer({
        id: 'old-hybrid',
        fusion: 'minmax',
        model: requireLoaded(loaded, 'use-lite'),
        lexical: requireLoaded(loaded, 'bm25-candidates (old bm25)'),
      }),
  },
  {
    name: 'previous default (use-lite-bm25 of 2026-11-25)',
    description:
      'the `use-lite-bm25` served before the fine-tuned model: its fusion (scripts/eval/previous-default-fusion.ts) over the original USE-lite cosine',
    requires: ['use-lite'],
    load: async (loaded) =>
      createFittedHybridScorer({
        id: 'previous-default',
        model: requireLoaded(loaded, 'use-lite'),
        lexical: createBm25Scorer({ id: 'bm25' }),
        calibration: PREVIOUS_DEFAULT_FUSION,
      }),
  },
  {
    name: 'use-lite-bm25 (new default)',
    description: `served \`use-lite-bm25\`: P(relevant) from a logistic model over lexical features and the \`${DEFAULT_BI_ENCODER}\` cosine (shared/scoring/hybrid/use-lite-fusion.ts)`,
    requires: [DEFAULT_BI_ENCODER],
    load: async (loaded) =>
      createFittedHybridScorer({
        id: 'use-lite-bm25',
        model: requireLoaded(loaded, DEFAULT_BI_ENCODER),
        lexical: createBm25Scorer({ id: 'bm25' }),
      }),
  },
];

/** A row name without its note in parentheses: the served model id, e.g. 'use-lite-bm25' for 'use-lite-bm25 (new default)'. */
const servedName = (name: string): string => name.replace(/\s*\(.*\)$/, '');

/**
 * The factories `--only` asks for, by row name or served model id, plus what they require, in report
 * order; throws naming the scorers there are when a name matches none.
 */
export function selectEvalScorers(only: readonly string[] | undefined): readonly EvalScorerFactory[] {
  if (only === undefined) return EVAL_SCORERS;
  const unknown = only.filter((o) => !EVAL_SCORERS.some((f) => f.name === o || servedName(f.name) === o));
  if (unknown.length > 0) {
    throw new Error(
      `--only: no scorer named ${unknown.map((u) => `'${u}'`).join(', ')}; the scorers are ${EVAL_SCORERS.map((f) => `'${f.name}'`).join(', ')}`,
    );
  }
  const wanted = new Set(EVAL_SCORERS.filter((f) => only.includes(f.name) || only.includes(servedName(f.name))).map((f) => f.name));
  for (const f of EVAL_SCORERS.filter((x) => wanted.has(x.name)).reverse()) for (const r of f.requires ?? []) wanted.add(r);
  return EVAL_SCORERS.filter((f) => wanted.has(f.name));
}
