import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOnnxBiEncoder, readRerankKind } from './bi-encoder/index.js';
import { loadCausalLmReranker } from './causal-lm/index.js';
import { isCausalLm } from './model-folder.js';
import { loadOnnxCrossEncoder } from './onnx-cross-encoder.js';
import type { Scorer } from '../core/scorer.js';

/** config.json's architectures, or [] when it cannot say (the loaders then report the folder's real problem). */
async function architectures(folder: string): Promise<string[]> {
  try {
    const config = JSON.parse(await readFile(path.join(folder, 'config.json'), 'utf8')) as { architectures?: unknown };
    return Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Loads the scorer a model folder calls for: a bi-encoder (`rerank_kind: bi-encoder`), an LLM reranker
 * (a *ForCausalLM architecture, scored from yes/no logits) or a cross-encoder (every *ForSequenceClassification:
 * BERT, XLM-RoBERTa, ModernBERT, ...).
 */
export async function loadFolderScorer(options: { readonly id: string; readonly folder: string; readonly threads: number }): Promise<Scorer> {
  if ((await readRerankKind(options.folder)) === 'bi-encoder') return loadOnnxBiEncoder(options);
  if (isCausalLm({ architectures: await architectures(options.folder) })) return loadCausalLmReranker(options);
  return loadOnnxCrossEncoder(options);
}
