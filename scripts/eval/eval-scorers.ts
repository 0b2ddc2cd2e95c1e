import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHybridScorer } from '../../shared/scoring/hybrid/hybrid-scorer.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/bm25-scorer.js';
import { loadOnnxCrossEncoder } from '../../shared/scoring/onnx-cross-encoder.js';
import type { Scorer } from '../../shared/core/scorer.js';
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
  /** One line for the report: what the scorer is. */
  readonly description: string;
  /** Throws ScorerNotAvailable when a model or module is missing; other errors abort the run. */
  load(loaded: LoadedScorers): Promise<Scorer>;
}

const ROOT = resolve(import.meta.dirname, '../..');
const CROSS_ENCODER_FOLDER = join(ROOT, 'models/tinybert-l2-fixture');
const BI_ENCODER_FOLDER = join(ROOT, 'models/use-lite');
const BI_ENCODER_MODULE_DIR = join(ROOT, 'shared/scoring/bi-encoder');

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

/**
 * The bi-encoder is built by another workstream: use it when models/use-lite exists and a module in
 * shared/scoring/bi-encoder/ exports a `load...` function taking `{ id, folder }` and returning a Scorer.
 */
async function loadBiEncoder(): Promise<Scorer> {
  if (!existsSync(BI_ENCODER_FOLDER)) throw new ScorerNotAvailable('models/use-lite does not exist');
  if (!existsSync(BI_ENCODER_MODULE_DIR)) throw new ScorerNotAvailable('shared/scoring/bi-encoder/ does not exist');
  const files = readdirSync(BI_ENCODER_MODULE_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const ordered = [...files.filter((f) => f === 'index.ts'), ...files.filter((f) => f !== 'index.ts').sort()];
  for (const file of ordered) {
    const module = (await import(pathToFileURL(join(BI_ENCODER_MODULE_DIR, file)).href)) as Record<string, unknown>;
    const names = Object.keys(module).filter((name) => /^load/.test(name) && typeof module[name] === 'function');
    const loaderName = names.includes('loadOnnxBiEncoder') ? 'loadOnnxBiEncoder' : names[0];
    if (loaderName === undefined) continue;
    const loader = module[loaderName] as (options: { id: string; folder: string }) => Promise<Scorer>;
    try {
      return await loader({ id: 'use-lite', folder: BI_ENCODER_FOLDER });
    } catch (error) {
      // Work in progress elsewhere (e.g. a half-converted model folder) must not stop the other rows.
      throw new ScorerNotAvailable(`${loaderName} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  throw new ScorerNotAvailable('no load... export in shared/scoring/bi-encoder/');
}

/** The evaluated scorers, in report order. Adding a scorer is one entry here. */
export const EVAL_SCORERS: readonly EvalScorerFactory[] = [
  {
    name: 'random',
    description: 'seeded random scores (chance baseline)',
    load: async () => createRandomScorer('random'),
  },
  {
    name: 'bm25',
    description: 'createBm25Scorer, k1 = 1.2, b = 0.75, IDF over the 20 candidates',
    load: async () => createBm25Scorer({ id: 'bm25' }),
  },
  {
    name: 'tinybert-l2-fixture',
    description: 'ONNX cross-encoder, TinyBERT-L2 shape with RANDOM weights (expected near chance)',
    load: async () => loadOnnxCrossEncoder({ id: 'tinybert-l2-fixture', folder: CROSS_ENCODER_FOLDER }),
  },
  {
    name: 'hybrid(tinybert-l2-fixture+bm25)',
    description: 'createHybridScorer, minmax fusion, weight 0.5',
    load: async (loaded) => createHybridScorer({ id: 'hybrid', model: requireLoaded(loaded, 'tinybert-l2-fixture'), lexical: requireLoaded(loaded, 'bm25') }),
  },
  {
    name: 'hybrid-rrf(tinybert-l2-fixture+bm25)',
    description: 'createHybridScorer, rrf fusion (k = 60), weight 0.5',
    load: async (loaded) =>
      createHybridScorer({ id: 'hybrid-rrf', model: requireLoaded(loaded, 'tinybert-l2-fixture'), lexical: requireLoaded(loaded, 'bm25'), fusion: 'rrf' }),
  },
  {
    name: 'use-lite',
    description: 'Universal Sentence Encoder lite as an ONNX bi-encoder (pretrained)',
    load: loadBiEncoder,
  },
  {
    name: 'hybrid(use-lite+bm25)',
    description: 'createHybridScorer, minmax fusion, weight 0.5',
    load: async (loaded) => createHybridScorer({ id: 'hybrid-use', model: requireLoaded(loaded, 'use-lite'), lexical: requireLoaded(loaded, 'bm25') }),
  },
];
