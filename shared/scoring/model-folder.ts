import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ONNX_FILE_CANDIDATES } from './onnx-file-names.js';
import { parseTokenizerJson } from './tokenizer-json.js';

export { ONNX_FILE_CANDIDATES };

/** Used when neither tokenizer_config.json nor config.json gives a usable length (BERT's value). */
const FALLBACK_MAX_LENGTH = 512;

/** transformers writes this sentinel (int(1e30)) when a tokenizer has no length limit. */
const UNSET_MODEL_MAX_LENGTH = 1e12;

/** A missing or malformed model folder; the message names the folder and the file that was wrong. */
/** What is wrong with a model folder, for callers that act on it (a variant search tries the next file name). */
export type ModelFolderErrorCode = 'no_onnx_file' | 'invalid_folder';

export class ModelFolderError extends Error {
  override readonly name = 'ModelFolderError';

  constructor(
    message: string,
    readonly code: ModelFolderErrorCode = 'invalid_folder',
  ) {
    super(message);
  }
}

/**
 * The activation sentence-transformers' CrossEncoder applies to the head, when config.json names one
 * (`sentence_transformers.activation_fn`, or the older `sbert_ce_default_activation_function`).
 */
export type HeadActivation = 'sigmoid' | 'identity' | 'softmax' | 'other';

/** The parts of config.json the scorer needs. */
export interface CrossEncoderConfig {
  readonly modelType: string;
  /** e.g. ['XLMRobertaForSequenceClassification'], ['Qwen3ForCausalLM']; [] when config.json names none. */
  readonly architectures: readonly string[];
  /** transformers' `problem_type`: 'multi_label_classification' heads are read per label with a sigmoid. */
  readonly problemType: string | undefined;
  readonly headActivation: HeadActivation | undefined;
  /** Output width of the classification head (1 for ms-marco cross-encoders). */
  readonly numLabels: number;
  /** Label names by class index, e.g. { 0: 'LABEL_0' }. */
  readonly id2label: Readonly<Record<number, string>>;
  readonly maxPositionEmbeddings: number | undefined;
  readonly padTokenId: number | undefined;
  /** Attention geometry of causal LMs, needed to feed an empty KV cache to exports that take one. */
  readonly numKeyValueHeads: number | undefined;
  readonly headDim: number | undefined;
  /** hidden_size (or d_model / n_embd): weighs attention in the batch cost estimate; undefined = a default width. */
  readonly hiddenSize: number | undefined;
}

/** The families a model folder can be (shared/scoring/model-families.ts maps each to its loader). */
export type ModelFamily = 'cross-encoder' | 'causal-lm' | 'bi-encoder';

/**
 * The family a folder's config.json calls for, read once: `"rerank_kind": "bi-encoder"` (USE-style embedders),
 * an LLM reranker (a *ForCausalLM architecture, scored from yes/no logits), else a cross-encoder (every
 * *ForSequenceClassification: BERT, XLM-RoBERTa, ModernBERT, ...). Throws ModelFolderError for a folder without a
 * readable config.json or with a rerank_kind this service does not know.
 */
export async function readModelFamily(folder: string): Promise<ModelFamily> {
  const root = path.resolve(folder);
  const config = (await readFolderJson(root, 'config.json', true)) ?? {};
  const kind = config['rerank_kind'];
  if (kind === 'bi-encoder') return 'bi-encoder';
  if (kind !== undefined && kind !== 'cross-encoder')
    throw new ModelFolderError(`model folder ${root}: unknown rerank_kind ${JSON.stringify(kind)}`);
  const architectures = Array.isArray(config['architectures'])
    ? config['architectures'].filter((a): a is string => typeof a === 'string')
    : [];
  return isCausalLm({ architectures }) ? 'causal-lm' : 'cross-encoder';
}

/** A causal LM (Qwen3-Reranker and the like) is scored from its next-token logits, not a classification head. */
export const isCausalLm = (config: Pick<CrossEncoderConfig, 'architectures'>): boolean =>
  config.architectures.some((name) => name.endsWith('ForCausalLM'));

/** A resolved model folder: file paths plus parsed JSON, nothing loaded into ONNX Runtime yet. */
export interface ModelFolder {
  readonly folder: string;
  readonly onnxPath: string;
  readonly config: CrossEncoderConfig;
  /** Parsed tokenizer.json, handed as-is to @huggingface/tokenizers. */
  readonly tokenizerJson: Record<string, unknown>;
  /** Parsed tokenizer_config.json ({} when the folder has none). */
  readonly tokenizerConfig: Record<string, unknown>;
  /** Max tokens of one (query, document) pair, special tokens included. */
  readonly maxLength: number;
}

export interface ReadModelFolderOptions {
  /** ONNX file relative to the folder (e.g. 'onnx/model_quantized.onnx'); default: first of ONNX_FILE_CANDIDATES found. */
  readonly modelFile?: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** A JSON file of a model folder (any JSON value): every family reads its folder's files through this one reader. */
export async function readFolderJsonValue(
  folder: string,
  name: string,
  required: boolean,
  parse: (text: string) => unknown = JSON.parse,
): Promise<unknown> {
  const file = path.join(folder, name);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ModelFolderError(`model folder ${folder}: cannot read ${name} (${(error as Error).message})`);
  }
  try {
    return parse(text);
  } catch (error) {
    throw new ModelFolderError(`model folder ${folder}: ${name} is not valid JSON (${(error as Error).message})`);
  }
}

/** A JSON object file of a model folder (config.json, tokenizer.json, ...); undefined when absent and not required. */
async function readFolderJson(
  folder: string,
  name: string,
  required: boolean,
  parse?: (text: string) => unknown,
): Promise<Record<string, unknown> | undefined> {
  const parsed = await readFolderJsonValue(folder, name, required, parse);
  if (parsed === undefined) return undefined;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ModelFolderError(`model folder ${folder}: ${name} is not valid JSON (not a JSON object)`);
  }
  return parsed as Record<string, unknown>;
}

async function resolveOnnxPath(folder: string, modelFile: string | undefined): Promise<string> {
  const candidates = modelFile === undefined ? ONNX_FILE_CANDIDATES : [modelFile];
  for (const candidate of candidates) {
    const file = path.resolve(folder, candidate);
    if (await exists(file)) return file;
  }
  throw new ModelFolderError(`model folder ${folder}: no ONNX model found (looked for ${candidates.join(', ')})`, 'no_onnx_file');
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function headActivation(raw: Record<string, unknown>): HeadActivation | undefined {
  const st = raw.sentence_transformers;
  const named =
    st !== null && typeof st === 'object' ? (st as Record<string, unknown>).activation_fn : raw.sbert_ce_default_activation_function;
  if (typeof named !== 'string') return undefined;
  const leaf = named.split('.').pop()!.toLowerCase();
  return leaf === 'sigmoid' || leaf === 'identity' || leaf === 'softmax' ? leaf : 'other';
}

function parseConfig(folder: string, raw: Record<string, unknown>): CrossEncoderConfig {
  const architectures = Array.isArray(raw.architectures) ? raw.architectures.filter((a): a is string => typeof a === 'string') : [];
  const id2label: Record<number, string> = {};
  if (raw.id2label !== null && typeof raw.id2label === 'object') {
    for (const [key, label] of Object.entries(raw.id2label as Record<string, unknown>)) {
      id2label[Number(key)] = String(label);
    }
  }
  // config.json of HF classifiers always carries id2label; num_labels is only sometimes written.
  const numLabels = positiveInt(raw.num_labels) ?? (Object.keys(id2label).length || undefined);
  if (numLabels === undefined && !isCausalLm({ architectures })) {
    throw new ModelFolderError(`model folder ${folder}: config.json has neither num_labels nor id2label`);
  }
  return {
    modelType: typeof raw.model_type === 'string' ? raw.model_type : 'unknown',
    architectures,
    problemType: typeof raw.problem_type === 'string' ? raw.problem_type : undefined,
    headActivation: headActivation(raw),
    numLabels: numLabels ?? 0,
    id2label,
    maxPositionEmbeddings: positiveInt(raw.max_position_embeddings),
    padTokenId: typeof raw.pad_token_id === 'number' ? raw.pad_token_id : undefined,
    numKeyValueHeads: positiveInt(raw.num_key_value_heads) ?? positiveInt(raw.num_attention_heads),
    hiddenSize: positiveInt(raw.hidden_size) ?? positiveInt(raw.d_model) ?? positiveInt(raw.n_embd),
    headDim:
      positiveInt(raw.head_dim) ??
      (positiveInt(raw.hidden_size) && positiveInt(raw.num_attention_heads)
        ? Number(raw.hidden_size) / Number(raw.num_attention_heads)
        : undefined),
  };
}

/**
 * RoBERTa-style embeddings number positions from pad_token_id + 1 (transformers'
 * create_position_ids_from_input_ids), so 514 positions hold 512 tokens. Without this, a tokenizer_config that
 * claims more than the table (an 8,192 copied from a long-context sibling, or no real limit) lets a long pair index
 * past the position table and the graph fails on it.
 */
const OFFSET_POSITION_TYPES = new Set([
  'roberta',
  'xlm-roberta',
  'xlm-roberta-xl',
  'camembert',
  'longformer',
  'data2vec-text',
  'mpnet',
  'xmod',
]);

function usablePositions(config: CrossEncoderConfig): number | undefined {
  const positions = config.maxPositionEmbeddings;
  if (positions === undefined || !OFFSET_POSITION_TYPES.has(config.modelType)) return positions;
  return positions - ((config.padTokenId ?? 1) + 1);
}

/**
 * Pair length limit = tokenizer_config.model_max_length (what sentence-transformers' CrossEncoder truncates to),
 * capped by the positions the model can index (max_position_embeddings, less the RoBERTa offset).
 */
function resolveMaxLength(config: CrossEncoderConfig, tokenizerConfig: Record<string, unknown>): number {
  const fromTokenizer = positiveInt(tokenizerConfig.model_max_length);
  const usable = fromTokenizer !== undefined && fromTokenizer < UNSET_MODEL_MAX_LENGTH ? fromTokenizer : undefined;
  const limits = [usable, usablePositions(config)].filter((n): n is number => n !== undefined);
  return limits.length > 0 ? Math.min(...limits) : FALLBACK_MAX_LENGTH;
}

/** Resolves and parses a Hugging Face ONNX model folder; throws ModelFolderError naming what is missing. */
export async function readModelFolder(folder: string, options: ReadModelFolderOptions = {}): Promise<ModelFolder> {
  const root = path.resolve(folder);
  if (!(await exists(root))) throw new ModelFolderError(`model folder ${root} does not exist`);
  const onnxPath = await resolveOnnxPath(root, options.modelFile);
  const rawConfig = await readFolderJson(root, 'config.json', true);
  const tokenizerJson = await readFolderJson(root, 'tokenizer.json', true, parseTokenizerJson);
  const tokenizerConfig = (await readFolderJson(root, 'tokenizer_config.json', false)) ?? {};
  const config = parseConfig(root, rawConfig!);
  return {
    folder: root,
    onnxPath,
    config,
    tokenizerJson: tokenizerJson!,
    tokenizerConfig,
    maxLength: resolveMaxLength(config, tokenizerConfig),
  };
}
