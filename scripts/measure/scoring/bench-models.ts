import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Random-weight models with real shapes, built on first run by scripts/model/build-random-shapes.py (gitignored). */
export const MODELS_DIR = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'), 'bench', '.models');
/** The scorer's defaults (onnx-cross-encoder.ts): 8 pairs, 4,096 padded tokens, rows x width^2 <= 128^2 (pairs of 128+ tokens alone). */
export const BATCH = { batchSize: 8, maxBatchTokens: 8 * 512, maxBatchScores: 128 * 128 };
export const MODELS = [
  { name: 'minilm-l6', label: 'MiniLM-L6' },
  { name: 'tinybert-l2', label: 'TinyBERT-L2' },
] as const;
/**
 * The graph form users serve, measured beside MODELS in the throughput section only: the same MiniLM-L6 weights
 * exported as the Hub's `onnx/` folders are (optimum, transformers 4.x eager attention;
 * `build-random-shapes.py --form hub`), where MODELS are torch 2.13's own export (SDPA, IsNaN/Where safe softmax).
 * Its variants add onnxruntime's BERT fusions (one contrib Attention per layer; QAttention in int8).
 */
export const FORM_MODELS = [{ name: 'minilm-l6-hub', label: 'MiniLM-L6 (Hub form)' }] as const;
export const FORM_VARIANTS = [
  { name: 'fp32-fused', file: 'onnx/variants/fused-fp32.onnx', recipe: 'fused-fp32' },
  { name: 'int8-fused', file: 'onnx/variants/dyn-pt-fused.onnx', recipe: 'dyn-pt-fused' },
  // MultiHeadAttention without a mask (scripts/model/mha_rewrite.py): no attention_mask input, so the scorer runs it
  // one unpadded pair per run, and onnxruntime takes its faster attention path (bench/cpu-forms.md).
  { name: 'fp32-unpadded', file: 'onnx/variants/mha-nomask-fp32.onnx', recipe: 'mha-nomask-fp32' },
  { name: 'int8-unpadded', file: 'onnx/variants/dyn-pt-mha-nomask.onnx', recipe: 'dyn-pt-mha-nomask' },
] as const;
export const VARIANTS = [
  { name: 'fp32', file: 'onnx/model.onnx' },
  { name: 'int8', file: 'onnx/model_quantized.onnx' },
] as const;
