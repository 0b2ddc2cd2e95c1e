import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { lengthBatches, type BatchLimits } from './length-batches.js';
import { readModelFolder, type CrossEncoderConfig } from './model-folder.js';
import { createPairTokenizer, type EncodedPair, type PairTokenizer } from './pair-tokenizer.js';
import type { ScoreBatch, Scorer } from './scorer.js';

export interface OnnxCrossEncoderOptions {
  /** Model id clients send in the `model` field. */
  readonly id: string;
  /** Hugging Face layout folder (config.json, tokenizer.json, onnx/model.onnx, ...). */
  readonly folder: string;
  /** ONNX file relative to the folder, e.g. 'onnx/model_quantized.onnx'; default: see ONNX_FILE_CANDIDATES. */
  readonly modelFile?: string;
  /** ONNX Runtime intra-op threads; default os.availableParallelism() (Lambda: vCPUs of the memory size). */
  readonly threads?: number;
  /** Max pairs per ONNX run (default 32). */
  readonly batchSize?: number;
  /** Max padded tokens per ONNX run (default 32 x 512 = 16384). */
  readonly maxBatchTokens?: number;
}

/** A loaded cross-encoder; `maxLength` and `inputNames` are exposed for diagnostics and tests. */
export interface OnnxCrossEncoder extends Scorer {
  readonly scoreKind: 'logit';
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  close(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 32;
const DEFAULT_MAX_BATCH_TOKENS = 32 * 512;
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/**
 * Turns one row of logits into one relevance logit, so the core can always apply sigmoid:
 * - 1 label (ms-marco cross-encoders): the logit itself.
 * - 2 labels: logit[positive] - logit[negative]. sigmoid(l1 - l0) equals softmax(l)[1], so the score
 *   stays a logit whose sigmoid is the model's own positive-class probability.
 */
function relevanceReader(config: CrossEncoderConfig, width: number): (logits: Float32Array, row: number) => number {
  if (width === 1) return (logits, row) => logits[row]!;
  if (width === 2) {
    const positive = positiveLabelIndex(config);
    const negative = 1 - positive;
    return (logits, row) => logits[row * 2 + positive]! - logits[row * 2 + negative]!;
  }
  throw new Error(`cross-encoder has ${width} output labels; only 1 (score) or 2 (negative/positive) are supported`);
}

/** Class 1 is positive by convention; a label named like "not relevant"/"negative" on index 1 flips that. */
function positiveLabelIndex(config: CrossEncoderConfig): number {
  const label1 = (config.id2label[1] ?? '').toLowerCase();
  const label0 = (config.id2label[0] ?? '').toLowerCase();
  const negative = /\b(not|non|irrelevant|negative|false|no)\b|^neg/;
  return negative.test(label1) && !negative.test(label0) ? 0 : 1;
}

/** Pads a batch into the three int64 tensors BERT-style ONNX exports take. */
function batchTensors(pairs: readonly EncodedPair[], padId: number, inputNames: readonly string[]): Record<string, ort.Tensor> {
  const width = Math.max(...pairs.map((pair) => pair.inputIds.length));
  const size = pairs.length * width;
  const inputIds = new BigInt64Array(size).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(size); // zeros = padding
  const tokenTypeIds = new BigInt64Array(size);
  pairs.forEach((pair, row) => {
    const offset = row * width;
    for (let i = 0; i < pair.inputIds.length; i++) {
      inputIds[offset + i] = BigInt(pair.inputIds[i]!);
      attentionMask[offset + i] = 1n;
      tokenTypeIds[offset + i] = BigInt(pair.tokenTypeIds[i]!);
    }
  });
  const dims = [pairs.length, width];
  const all: Record<string, BigInt64Array> = { input_ids: inputIds, attention_mask: attentionMask, token_type_ids: tokenTypeIds };
  // Feed only what the graph declares: DistilBERT/RoBERTa-style exports have no token_type_ids input,
  // and ONNX Runtime rejects unknown feeds.
  const feeds: Record<string, ort.Tensor> = {};
  for (const name of inputNames) feeds[name] = new ort.Tensor('int64', all[name]!, dims);
  return feeds;
}

class OnnxCrossEncoderScorer implements OnnxCrossEncoder {
  readonly scoreKind = 'logit' as const;
  readonly inputNames: readonly string[];
  private closed = false;

  constructor(
    readonly id: string,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: PairTokenizer,
    private readonly config: CrossEncoderConfig,
    private readonly limits: BatchLimits,
  ) {
    this.inputNames = session.inputNames;
  }

  get maxLength(): number {
    return this.tokenizer.maxLength;
  }

  async score(query: string, documents: readonly string[]): Promise<ScoreBatch> {
    if (this.closed) throw new Error(`scorer ${this.id} is closed`);
    if (documents.length === 0) return { scores: [], tokens: 0 };
    // The query is tokenized once; each document is cut to fit next to it.
    const queryPieces = this.tokenizer.pieces(query);
    const pairs = documents.map((document) => this.tokenizer.assemble(queryPieces, this.tokenizer.pieces(document)));
    const lengths = pairs.map((pair) => pair.inputIds.length);
    const scores = new Array<number>(documents.length);
    const outputName = this.session.outputNames[0]!;
    for (const batch of lengthBatches(lengths, this.limits)) {
      const feeds = batchTensors(batch.map((index) => pairs[index]!), this.tokenizer.padId, this.inputNames);
      const output = (await this.session.run(feeds))[outputName];
      if (output === undefined || !(output.data instanceof Float32Array)) {
        throw new Error(`model ${this.id}: output ${outputName} is not a float32 tensor`);
      }
      const width = output.dims.length > 1 ? Number(output.dims[output.dims.length - 1]) : 1;
      const read = relevanceReader(this.config, width);
      batch.forEach((index, row) => {
        scores[index] = read(output.data as Float32Array, row);
      });
    }
    return { scores, tokens: lengths.reduce((sum, n) => sum + n, 0) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }
}

/**
 * Loads a Hugging Face ONNX cross-encoder once (tokenizer + ONNX Runtime session) and returns a Scorer.
 * Throws ModelFolderError for a missing/malformed folder and Error for a graph with unexpected inputs.
 */
export async function loadOnnxCrossEncoder(options: OnnxCrossEncoderOptions): Promise<OnnxCrossEncoder> {
  const folder = await readModelFolder(options.folder, options.modelFile === undefined ? {} : { modelFile: options.modelFile });
  if (folder.config.numLabels > 2) {
    throw new Error(`model ${options.id}: ${folder.config.numLabels} labels; only 1 or 2 are supported for reranking`);
  }
  const tokenizer = createPairTokenizer({
    tokenizerJson: folder.tokenizerJson,
    tokenizerConfig: folder.tokenizerConfig,
    maxLength: folder.maxLength,
    padTokenId: folder.config.padTokenId,
  });
  const session = await ort.InferenceSession.create(folder.onnxPath, {
    intraOpNumThreads: options.threads ?? availableParallelism(),
    // One graph, run sequentially: inter-op threads would only compete with intra-op ones.
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const unexpected = session.inputNames.filter((name) => !KNOWN_INPUTS.has(name));
  if (unexpected.length > 0 || !session.inputNames.includes('input_ids')) {
    await session.release();
    throw new Error(`model ${options.id}: unsupported ONNX inputs [${session.inputNames.join(', ')}] in ${folder.onnxPath}`);
  }
  return new OnnxCrossEncoderScorer(options.id, session, tokenizer, folder.config, {
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    maxBatchTokens: options.maxBatchTokens ?? DEFAULT_MAX_BATCH_TOKENS,
  });
}
