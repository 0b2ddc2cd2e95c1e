import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Random-weight models with real shapes, built on first run by scripts/model/build-random-shapes.py (gitignored). */
export const MODELS_DIR = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'bench', '.models');
/** The scorer's defaults (onnx-cross-encoder.ts): 8 pairs, 4,096 padded tokens. */
export const BATCH = { batchSize: 8, maxBatchTokens: 8 * 512 };
export const MODELS = [
  { name: 'minilm-l6', label: 'MiniLM-L6' },
  { name: 'tinybert-l2', label: 'TinyBERT-L2' },
] as const;
export const VARIANTS = [
  { name: 'fp32', file: 'onnx/model.onnx' },
  { name: 'int8', file: 'onnx/model_quantized.onnx' },
] as const;
