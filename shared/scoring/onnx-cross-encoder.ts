import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { InferenceWorkerPool, type BatchFeeds, type BatchOutput } from './inference-worker/inference-worker-pool.js';
import { lengthBatches, type BatchLimits } from './length-batches.js';
import { isCausalLm, ModelFolderError, readModelFolder, type CrossEncoderConfig, type ModelFolder } from './model-folder.js';
import { createPairTokenizer, type EncodedPair, type PairTokenizer } from './pair-tokenizer.js';
import type { ScoreBatch, Scorer } from './scorer.js';

export interface OnnxCrossEncoderOptions {
  /** Model id clients send in the `model` field. */
  readonly id: string;
  /** Hugging Face layout folder (config.json, tokenizer.json, onnx/model.onnx, ...). */
  readonly folder: string;
  /** ONNX file relative to the folder, e.g. 'onnx/model_quantized.onnx'; default: see ONNX_FILE_CANDIDATES. */
  readonly modelFile?: string;
  /**
   * Which export to load when modelFile is not given: 'int8' picks the dynamic-quantized
   * `model_quantized.onnx` (~2x faster on CPU, scores shift by ~1e-2), 'fp32' the plain `model.onnx`.
   * Default: the folder's first ONNX file (fp32 when both exist).
   */
  readonly variant?: 'fp32' | 'int8';
  /** ONNX Runtime intra-op threads; default defaultIntraOpThreads() (Lambda: vCPUs of the memory size). */
  readonly threads?: number;
  /** Max pairs per ONNX run (default 32). */
  readonly batchSize?: number;
  /** Max padded tokens per ONNX run (default 32 x 512 = 16384). */
  readonly maxBatchTokens?: number;
  /**
   * Run inference on worker threads instead of the calling thread (default false). onnxruntime-node's
   * session.run() blocks its thread for the whole inference; a long-lived server (the local dev server)
   * stays responsive with this on. Lambda handles one request at a time: leave it off there.
   */
  readonly inWorkerThread?: boolean;
  /** Worker threads when inWorkerThread is on (default 1; each holds its own session). */
  readonly workers?: number;
}

/** A loaded cross-encoder; `maxLength` and `inputNames` are exposed for diagnostics and tests. */
export interface OnnxCrossEncoder extends Scorer {
  readonly scoreKind: 'logit';
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  close(): Promise<void>;
}

// Measured (bench/report.md, session options sweep): batches of 8 length-sorted pairs ran 1.8x (MiniLM-L6)
// to 3x (TinyBERT-L2) faster than 32 on 2 vCPUs - less padding per batch and activations that stay in cache.
const DEFAULT_BATCH_SIZE = 8;
const DEFAULT_MAX_BATCH_TOKENS = 8 * 512;
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);
/** Lambda allocates one vCPU per 1,769 MB of memory (up to 6 at 10,240 MB). */
const LAMBDA_MB_PER_VCPU = 1769;
const VARIANT_FILES = {
  fp32: ['onnx/model.onnx', 'model.onnx'],
  int8: ['onnx/model_quantized.onnx', 'model_quantized.onnx', 'onnx/model_int8.onnx', 'model_int8.onnx'],
} as const;

/**
 * Intra-op threads that match the CPUs this process really gets. On Lambda, os.availableParallelism()
 * reports the host's vCPUs even when the memory size buys a fraction of one, and oversubscribed ONNX
 * threads spin against each other; the memory size is the real budget there.
 */
export function defaultIntraOpThreads(env: NodeJS.ProcessEnv = process.env, cpus: number = availableParallelism()): number {
  const memoryMb = Number(env['AWS_LAMBDA_FUNCTION_MEMORY_SIZE']);
  if (!Number.isFinite(memoryMb) || memoryMb <= 0) return Math.max(1, cpus);
  return Math.max(1, Math.min(cpus, Math.round(memoryMb / LAMBDA_MB_PER_VCPU)));
}

/**
 * Session options, chosen by measurement (scripts/bench, bench/report.md): one graph run at a time, so
 * inter-op threads would only compete with intra-op ones; full graph optimizations (attention/GELU/LayerNorm
 * fusions) help fp32 and int8 alike. Memory pattern planning stays off: shapes change every batch.
 */
export function crossEncoderSessionOptions(threads: number): ort.InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableMemPattern: false,
  };
}

/**
 * Turns one row of logits into one relevance logit, so the core can always apply sigmoid:
 * - 1 label (ms-marco cross-encoders): the logit itself.
 * - 2 labels: logit[positive] - logit[negative]. sigmoid(l1 - l0) equals softmax(l)[1], so the score
 *   stays a logit whose sigmoid is the model's own positive-class probability (CrossEncoder apply_softmax).
 * - 2 labels whose config names a Sigmoid activation or a multi-label problem: logit[positive], whose
 *   sigmoid is what CrossEncoder.predict returns for that label.
 */
function relevanceReader(config: CrossEncoderConfig, width: number): (logits: Float32Array, row: number) => number {
  if (width === 1) return (logits, row) => logits[row]!;
  if (width === 2) {
    const positive = positiveLabelIndex(config);
    const negative = 1 - positive;
    // A head trained per label (BCE) is read as sentence-transformers reads it: sigmoid of the positive logit.
    if (config.headActivation === 'sigmoid' || config.problemType === 'multi_label_classification') {
      return (logits, row) => logits[row * 2 + positive]!;
    }
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

/**
 * Pads a batch into the int64 inputs BERT-style ONNX exports take, feeding only what the graph declares
 * (DistilBERT/RoBERTa-style exports have no token_type_ids, and ONNX Runtime rejects unknown feeds).
 * Plain typed arrays, so they can be transferred to an inference worker without a copy. Building them
 * costs ~0.3 ms per 32 x 512 batch: noise next to inference (measured; a BigInt-free variant saved 0.1 ms).
 */
function batchFeeds(pairs: readonly EncodedPair[], padId: number, inputNames: readonly string[]): BatchFeeds {
  let width = 0;
  for (const pair of pairs) width = Math.max(width, pair.inputIds.length);
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
  const all: Record<string, BigInt64Array> = { input_ids: inputIds, attention_mask: attentionMask, token_type_ids: tokenTypeIds };
  const inputs: Record<string, BigInt64Array> = {};
  for (const name of inputNames) inputs[name] = all[name]!;
  return { dims: [pairs.length, width], inputs };
}

/** Runs one padded batch through the graph: in this thread or on an inference worker. */
interface BatchRunner {
  readonly inputNames: readonly string[];
  /** Batches that can usefully run at once (1 in-thread, pool size with workers). */
  readonly parallelism: number;
  run(feeds: BatchFeeds): Promise<BatchOutput>;
  release(): Promise<void>;
}

function sessionRunner(session: ort.InferenceSession, modelId: string): BatchRunner {
  const outputName = session.outputNames[0]!;
  return {
    inputNames: session.inputNames,
    parallelism: 1,
    async run(feeds) {
      const tensors: Record<string, ort.Tensor> = {};
      for (const [name, data] of Object.entries(feeds.inputs)) tensors[name] = new ort.Tensor('int64', data, [...feeds.dims]);
      const output = (await session.run(tensors))[outputName];
      if (output === undefined || !(output.data instanceof Float32Array)) {
        throw new Error(`model ${modelId}: output ${outputName} is not a float32 tensor`);
      }
      return { data: output.data, dims: output.dims.map(Number) };
    },
    release: () => session.release(),
  };
}

class OnnxCrossEncoderScorer implements OnnxCrossEncoder {
  readonly scoreKind = 'logit' as const;
  readonly inputNames: readonly string[];
  private closed = false;

  constructor(
    readonly id: string,
    private readonly runner: BatchRunner,
    private readonly tokenizer: PairTokenizer,
    private readonly config: CrossEncoderConfig,
    private readonly limits: BatchLimits,
  ) {
    this.inputNames = runner.inputNames;
  }

  get maxLength(): number {
    return this.tokenizer.maxLength;
  }

  async score(query: string, documents: readonly string[]): Promise<ScoreBatch> {
    if (this.closed) throw new Error(`scorer ${this.id} is closed`);
    if (documents.length === 0) return { scores: [], tokens: 0 };
    // Tokenize once: the query a single time, each document cut to fit next to it; batches reuse these pairs.
    const queryPieces = this.tokenizer.pieces(query);
    const pairs = documents.map((document) => this.tokenizer.assemble(queryPieces, this.tokenizer.pieces(document)));
    const lengths = pairs.map((pair) => pair.inputIds.length);
    const scores = new Array<number>(documents.length);
    const batches = lengthBatches(lengths, this.limits);
    // At most `parallelism` batches of one request in flight: in-thread that is 1; with a worker pool, a
    // concurrent small request can slip its batch in between a large request's batches instead of
    // queueing behind all of them.
    let next = 0;
    const drain = async (): Promise<void> => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const feeds = batchFeeds(
          batch.map((index) => pairs[index]!),
          this.tokenizer.padId,
          this.inputNames,
        );
        const output = await this.runner.run(feeds);
        const width = output.dims.length > 1 ? output.dims[output.dims.length - 1]! : 1;
        const read = relevanceReader(this.config, width);
        batch.forEach((index, row) => {
          scores[index] = read(output.data, row);
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.runner.parallelism, batches.length) }, drain));
    return { scores, tokens: lengths.reduce((sum, n) => sum + n, 0) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runner.release();
  }
}

async function resolveFolder(options: OnnxCrossEncoderOptions): Promise<ModelFolder> {
  if (options.modelFile !== undefined || options.variant === undefined) {
    return readModelFolder(options.folder, options.modelFile === undefined ? {} : { modelFile: options.modelFile });
  }
  const candidates = VARIANT_FILES[options.variant];
  for (const modelFile of candidates) {
    try {
      return await readModelFolder(options.folder, { modelFile });
    } catch (error) {
      if (!(error instanceof ModelFolderError && /no ONNX model found/.test(error.message))) throw error;
    }
  }
  throw new ModelFolderError(`model folder ${options.folder}: no ${options.variant} ONNX model (looked for ${candidates.join(', ')})`);
}

/**
 * Loads a Hugging Face ONNX cross-encoder once (tokenizer + ONNX Runtime session) and returns a Scorer.
 * Throws ModelFolderError for a missing/malformed folder and Error for a graph with unexpected inputs.
 */
export async function loadOnnxCrossEncoder(options: OnnxCrossEncoderOptions): Promise<OnnxCrossEncoder> {
  const folder = await resolveFolder(options);
  if (isCausalLm(folder.config)) {
    throw new ModelFolderError(`model ${options.id}: ${folder.folder} is a causal LM (${folder.config.architectures.join(', ')}); load it with loadCausalLmReranker`);
  }
  if (folder.config.numLabels > 2) {
    throw new Error(`model ${options.id}: ${folder.config.numLabels} labels; only 1 or 2 are supported for reranking`);
  }
  const tokenizer = createPairTokenizer({
    tokenizerJson: folder.tokenizerJson,
    tokenizerConfig: folder.tokenizerConfig,
    maxLength: folder.maxLength,
    padTokenId: folder.config.padTokenId,
  });
  const sessionOptions = crossEncoderSessionOptions(options.threads ?? defaultIntraOpThreads());
  let runner: BatchRunner;
  if (options.inWorkerThread === true) {
    const size = Math.max(1, options.workers ?? 1);
    const pool = await InferenceWorkerPool.start({ onnxPath: folder.onnxPath, size, sessionOptions });
    runner = { inputNames: pool.inputNames, parallelism: size, run: (feeds) => pool.run(feeds), release: () => pool.close() };
  } else {
    runner = sessionRunner(await ort.InferenceSession.create(folder.onnxPath, sessionOptions), options.id);
  }
  const unexpected = runner.inputNames.filter((name) => !KNOWN_INPUTS.has(name));
  if (unexpected.length > 0 || !runner.inputNames.includes('input_ids')) {
    await runner.release();
    throw new Error(`model ${options.id}: unsupported ONNX inputs [${runner.inputNames.join(', ')}] in ${folder.onnxPath}`);
  }
  return new OnnxCrossEncoderScorer(options.id, runner, tokenizer, folder.config, {
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    maxBatchTokens: options.maxBatchTokens ?? DEFAULT_MAX_BATCH_TOKENS,
  });
}
