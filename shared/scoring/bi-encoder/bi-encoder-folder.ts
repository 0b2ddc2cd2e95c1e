import { access } from 'node:fs/promises';
import path from 'node:path';
import { ModelFolderError, readFolderJsonValue } from '../model-folder.js';
import { USE_RESERVED_SYMBOLS, type UseVocabulary } from './use-tokenizer.js';
import { ONNX_VARIANT_FILES } from '../onnx-file-names.js';
import { asObject } from '../json-object.js';

/** Where the ONNX file of a bi-encoder folder may be, in the order we look (fp32 exports only). */
export const BI_ENCODER_ONNX_CANDIDATES = ONNX_VARIANT_FILES.fp32;

/** A resolved bi-encoder folder (models/use-lite layout): paths plus parsed files, nothing loaded into ONNX Runtime. */
export interface BiEncoderFolder {
  readonly folder: string;
  readonly onnxPath: string;
  readonly modelType: string;
  readonly vocabulary: UseVocabulary;
  readonly reservedSymbols: number;
  /** Tokens per text the model reads; longer texts are cut (USE lite: 128, like the original graph). */
  readonly maxLength: number;
  /** Embedding width (config.json hidden_size), checked against the graph's output at load. */
  readonly dimensions: number;
  readonly outputName: string;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function parseVocabulary(root: string, raw: unknown): UseVocabulary {
  if (!Array.isArray(raw) || raw.length === 0) throw new ModelFolderError(`model folder ${root}: vocab.json is not a non-empty array`);
  raw.forEach((entry: unknown, id) => {
    // A null score is legal: USE lite has a few (the tokenizer reads them as 0, like the original).
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || (typeof entry[1] !== 'number' && entry[1] !== null)) {
      throw new ModelFolderError(`model folder ${root}: vocab.json entry ${id} is not [piece, score]`);
    }
  });
  return raw as UseVocabulary;
}

async function resolveOnnxPath(root: string, modelFile: string | undefined): Promise<string> {
  const candidates = modelFile === undefined ? BI_ENCODER_ONNX_CANDIDATES : [modelFile];
  for (const candidate of candidates) {
    const file = path.resolve(root, candidate);
    try {
      await access(file);
      return file;
    } catch {
      // try the next one
    }
  }
  throw new ModelFolderError(`model folder ${root}: no ONNX model found (looked for ${candidates.join(', ')})`, 'no_onnx_file');
}

/** Resolves and parses a bi-encoder folder; throws ModelFolderError naming what is missing or wrong. */
export async function readBiEncoderFolder(folder: string, options: { readonly modelFile?: string } = {}): Promise<BiEncoderFolder> {
  const root = path.resolve(folder);
  const config = asObject(await readFolderJsonValue(root, 'config.json', true));
  if (config === undefined) throw new ModelFolderError(`model folder ${root}: config.json is not a JSON object`);
  if (config['rerank_kind'] !== 'bi-encoder') {
    throw new ModelFolderError(
      `model folder ${root}: config.json rerank_kind is ${JSON.stringify(config['rerank_kind'])}, not "bi-encoder"`,
    );
  }
  const tokenizerConfig = asObject(await readFolderJsonValue(root, 'tokenizer_config.json', false)) ?? {};
  const vocabFile = typeof tokenizerConfig['vocab_file'] === 'string' ? tokenizerConfig['vocab_file'] : 'vocab.json';
  const vocabulary = parseVocabulary(root, await readFolderJsonValue(root, vocabFile, true));
  const maxLength = positiveInt(tokenizerConfig['model_max_length']) ?? positiveInt(config['max_position_embeddings']);
  if (maxLength === undefined) throw new ModelFolderError(`model folder ${root}: no model_max_length / max_position_embeddings`);
  const dimensions = positiveInt(config['hidden_size']);
  if (dimensions === undefined) throw new ModelFolderError(`model folder ${root}: config.json has no hidden_size`);
  const onnx = asObject(config['onnx']) ?? {};
  return {
    folder: root,
    onnxPath: await resolveOnnxPath(root, options.modelFile),
    modelType: typeof config['model_type'] === 'string' ? config['model_type'] : 'unknown',
    vocabulary,
    reservedSymbols: positiveInt(tokenizerConfig['reserved_symbols']) ?? USE_RESERVED_SYMBOLS,
    maxLength,
    dimensions,
    outputName: typeof onnx['output'] === 'string' ? onnx['output'] : 'sentence_embedding',
  };
}
