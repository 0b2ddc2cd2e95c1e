import { existsSync } from 'node:fs';
import { loadOnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { createFittedHybridScorer } from '../../shared/scoring/hybrid/fitted-hybrid-scorer.js';
import { createHybridScorer } from '../../shared/scoring/hybrid/hybrid-scorer.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/bm25-scorer.js';
import type { Scorer } from '../../shared/core/scorer.js';
import { EmbeddingCache } from './embedding-cache.js';
import { EMBEDDING_CACHE_PATH, USE_LITE_FOLDER } from './eval-sources.js';
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

/** The served bi-encoder, its embeddings cached per text on disk (eval/.cache) since sets share documents. */
export async function loadCachedUseLite(): Promise<Scorer> {
  if (!existsSync(USE_LITE_FOLDER)) throw new ScorerNotAvailable('models/use-lite does not exist');
  const model = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_FOLDER });
  const cache = new EmbeddingCache(EMBEDDING_CACHE_PATH);
  return { ...cache.scorer(model), close: async () => { cache.save(); await model.close(); } };
}

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
    description: 'served `bm25`: P(relevant) from a logistic model over BM25 with the fixed background IDF (saturated), coverage and lengths',
    load: async () => createBm25Scorer({ id: 'bm25' }),
  },
  {
    name: 'use-lite',
    description: 'served `use-lite`: cosine of Universal Sentence Encoder lite embeddings, in [-1, 1] (not a probability)',
    load: loadCachedUseLite,
  },
  {
    name: 'minmax(use-lite+bm25) (old default)',
    description: 'the old `use-lite-bm25`: 0.5 minmax(cosine) + 0.5 minmax(request-local BM25) over the request: candidate-relative',
    load: async (loaded) =>
      createHybridScorer({ id: 'old-hybrid', fusion: 'minmax', model: requireLoaded(loaded, 'use-lite'), lexical: requireLoaded(loaded, 'bm25-candidates (old bm25)') }),
  },
  {
    name: 'use-lite-bm25 (new default)',
    description: 'served `use-lite-bm25`: P(relevant) from a logistic model over the bm25 features plus the USE-lite cosine',
    load: async (loaded) => createFittedHybridScorer({ id: 'use-lite-bm25', model: requireLoaded(loaded, 'use-lite'), lexical: createBm25Scorer({ id: 'bm25' }) }),
  },
];
