import type { Scorer } from '../core/scorer.js';
import { loadOnnxBiEncoder } from './bi-encoder/index.js';
import { loadCausalLmReranker } from './causal-lm/index.js';
import { readModelFamily, type ModelFamily } from './model-folder.js';
import { loadOnnxCrossEncoder } from './onnx-cross-encoder.js';

export interface FolderScorerOptions {
  readonly id: string;
  readonly folder: string;
  readonly threads: number;
  /** Score a warm-up pair at load so the first request is planned by cost (cross-encoders, LLM rerankers); default true. */
  readonly measurePaceAtLoad?: boolean;
}

/**
 * The registry of model families: the family a folder's config.json calls for (readModelFamily) picks its loader.
 * A new family is its folder under shared/scoring/ and one entry here; the ONNX runtime layer (onnx-runtime/:
 * session options, execution plan, worker pool, batch runners) serves every family.
 */
const MODEL_FAMILIES: Readonly<Record<ModelFamily, (options: FolderScorerOptions) => Promise<Scorer>>> = {
  'cross-encoder': loadOnnxCrossEncoder,
  'causal-lm': loadCausalLmReranker,
  'bi-encoder': loadOnnxBiEncoder,
};

/** Loads the scorer a model folder calls for. */
export async function loadFolderScorer(options: FolderScorerOptions): Promise<Scorer> {
  return MODEL_FAMILIES[await readModelFamily(options.folder)](options);
}
