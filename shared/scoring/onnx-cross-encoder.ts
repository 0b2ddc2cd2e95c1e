import { cutPairs } from './cut-pairs.js';
import { FAMILY_CONTROLS } from '../core/request-controls.js';
import { CostMeter, paceWarmUpDocument } from './cost-meter.js';
import { defaultIntraOpThreads } from '../config/lambda-vcpus.js';
import type { BatchFeeds } from './onnx-runtime/batch-runner.js';
import { quantizesActivationsPerRun, type ExecutionPlan } from './onnx-runtime/execution-plan.js';
import { explicitPlacement, PlannedRunners } from './onnx-runtime/planned-runners.js';
import type { BatchLimits } from './length-batches.js';
import { isCausalLm, ModelFolderError, readModelFolder, type CrossEncoderConfig, type ModelFolder } from './model-folder.js';
import { ONNX_VARIANT_FILES } from './onnx-file-names.js';
import { createPairTokenizer, type EncodedPair, type PairTokenizer } from './pair-tokenizer.js';
import type { ScoreBatch, ScoreOptions, Scorer } from '../core/scorer.js';

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
  /**
   * CPUs the scorer may use; default defaultIntraOpThreads() (Lambda: vCPUs of the memory size). Unless
   * inWorkerThread is given, chooseExecutionPlan splits them into sessions x intra-op threads; with
   * inWorkerThread given, they are the intra-op threads of each session (the explicit, pre-plan form).
   */
  readonly threads?: number;
  /** Max pairs per ONNX run (default DEFAULT_BATCH_SIZE, 8). */
  readonly batchSize?: number;
  /** Max padded tokens per ONNX run (default DEFAULT_MAX_BATCH_TOKENS, 8 x 512 = 4096). */
  readonly maxBatchTokens?: number;
  /** Max attention scores per head per run, rows x width^2 (default DEFAULT_MAX_BATCH_SCORES: one 128-token pair). */
  readonly maxBatchScores?: number;
  /**
   * Force where inference runs: true = `workers` worker threads x `threads` intra-op threads each,
   * false = one in-thread session with `threads` intra-op threads. Default: chooseExecutionPlan from
   * `threads` (one single-threaded session per CPU on worker threads when there are 2+ CPUs).
   */
  readonly inWorkerThread?: boolean;
  /** Worker threads when inWorkerThread is true (default 1; each holds its own session). */
  readonly workers?: number;
  /**
   * Whether the chosen plan may load its small-request session (ExecutionPlan.smallRequestSession, one more
   * copy of the model); default true. false keeps every request on the pool (the bench compares both).
   */
  readonly smallRequestSession?: boolean;
  /**
   * Score one ~128-token warm-up pair at load to measure this machine's pace (CostMeter), so the first request
   * in a fresh process is planned by its cost (sync or job) like the rest; default true. Adds that pair's
   * scoring to the load (a cold start pays it once; scripts/model/cold-start-paths.ts reports it).
   */
  readonly measurePaceAtLoad?: boolean;
}

/** A loaded cross-encoder; `maxLength`, `inputNames` and `plan` are exposed for diagnostics, bench and tests. */
export interface OnnxCrossEncoder extends Scorer {
  readonly scoreKind: 'logit';
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  readonly plan: ExecutionPlan;
  /** Always present on a cross-encoder (undefined until it has scored a request). */
  estimateSeconds(query: string, documents: readonly string[]): number | undefined;
  /**
   * Resolves when the plan's small-request session has loaded (true) or will not be used (false: none in the
   * plan, failed to load, or closed first). For tests and the bench; requests never need to wait for it.
   */
  smallRequestSessionReady(): Promise<boolean>;
  close(): Promise<void>;
}

// Measured (bench/report.md, session options sweep): batches of 8 length-sorted pairs ran 1.8x (MiniLM-L6)
// to 3x (TinyBERT-L2) faster than 32 on 2 vCPUs - less padding per batch and activations that stay in cache.
const DEFAULT_BATCH_SIZE = 8;
const DEFAULT_MAX_BATCH_TOKENS = 8 * 512;
/**
 * rows x width^2 per run: pairs of 128 tokens or more run alone, 8 share a run up to 45 tokens, 4 at 64. On an AMX
 * Xeon (1 thread, MiniLM-L6 shape int8, the bench's mixed lengths) this ran 1.92x the 8-pair batches' pairs per
 * CPU-second (45.3 vs 23.6), one pair per run 1.90x, a 512^2 cap 1.58x: a batch's attention scores overflow the
 * caches (bench/cpu-forms.md).
 */
const DEFAULT_MAX_BATCH_SCORES = 128 * 128;
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);
/** A scorer's `int8` is the dynamic-quantized export (`model_quantized.onnx` first, as optimum names it). */
const VARIANT_FILES = { fp32: ONNX_VARIANT_FILES.fp32, int8: ONNX_VARIANT_FILES.quantized } as const;

/** The memory-aware default thread count lives with the Lambda vCPU formula it uses. */
export { defaultIntraOpThreads };

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

class OnnxCrossEncoderScorer implements OnnxCrossEncoder {
  readonly scoreKind = 'logit' as const;
  /** The token caps and the side are applied to this model's own tokens (cutPairs); it has no instruction slot. */
  readonly countsTokens = true;
  readonly controls = FAMILY_CONTROLS['cross-encoder'];
  readonly inputNames: readonly string[];
  /** The measured pace behind estimateSeconds. */
  readonly #meter: CostMeter;
  #closed = false;
  /** True while the load's warm-up pair is scored: the meter keeps it only until a real request. */
  #warmingUp = false;

  readonly #runners: PlannedRunners;
  readonly #tokenizer: PairTokenizer;
  readonly #config: CrossEncoderConfig;
  readonly #limits: BatchLimits & { readonly hiddenSize: number | undefined; readonly batchInvariant: boolean };

  constructor(
    readonly id: string,
    runners: PlannedRunners,
    tokenizer: PairTokenizer,
    config: CrossEncoderConfig,
    limits: BatchLimits & { readonly hiddenSize: number | undefined; readonly batchInvariant: boolean },
  ) {
    this.#runners = runners;
    this.#tokenizer = tokenizer;
    this.#config = config;
    this.#limits = limits;
    this.inputNames = runners.inputNames;
    this.#meter = new CostMeter(tokenizer.maxLength, limits.hiddenSize);
  }

  get plan(): ExecutionPlan {
    return this.#runners.plan;
  }

  get maxLength(): number {
    return this.#tokenizer.maxLength;
  }

  smallRequestSessionReady(): Promise<boolean> {
    return this.#runners.smallRequestSessionReady();
  }

  async score(query: string, documents: readonly string[], options?: ScoreOptions): Promise<ScoreBatch> {
    if (this.#closed) throw new Error(`scorer ${this.id} is closed`);
    if (documents.length === 0) return { scores: [], tokens: 0 };
    const signal = options?.signal;
    // Tokenize once: the query a single time, each document cut to fit next to it; batches reuse these pairs.
    const { pairs, cuts } = cutPairs(this.#tokenizer, query, documents, options);
    const lengths = pairs.map((pair) => pair.inputIds.length);
    const started = performance.now();
    const scores = new Array<number>(documents.length);
    await this.#runners.runBatches(
      lengths,
      this.#limits,
      async (batch, runner) => {
        const output = await runner.run(
          batchFeeds(
            batch.map((index) => pairs[index]!),
            this.#tokenizer.padId,
            this.inputNames,
          ),
        );
        const width = output.dims.length > 1 ? output.dims[output.dims.length - 1]! : 1;
        const read = relevanceReader(this.#config, width);
        batch.forEach((index, row) => {
          scores[index] = read(output.data, row);
        });
      },
      signal,
    );
    this.#meter.record(lengths, (performance.now() - started) / 1000, this.#warmingUp);
    return { scores, tokens: lengths.reduce((sum, n) => sum + n, 0), ...(cuts ? { cuts } : {}) };
  }

  /** Scores the warm-up pair so estimateSeconds has a pace before the first request (the sessions are already warm). */
  async measurePace(): Promise<void> {
    this.#warmingUp = true;
    try {
      await this.score('pace', [paceWarmUpDocument()]);
    } finally {
      this.#warmingUp = false;
    }
  }

  estimateSeconds(query: string, documents: readonly string[]): number | undefined {
    return this.#meter.estimateSeconds(query, documents);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#runners.close();
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
      if (!(error instanceof ModelFolderError && error.code === 'no_onnx_file')) throw error;
    }
  }
  throw new ModelFolderError(
    `model folder ${options.folder}: no ${options.variant} ONNX model (looked for ${candidates.join(', ')})`,
    'no_onnx_file',
  );
}

/**
 * Loads a Hugging Face ONNX cross-encoder once (tokenizer + ONNX Runtime session) and returns a Scorer.
 * Throws ModelFolderError for a missing/malformed folder and Error for a graph with unexpected inputs.
 */
export async function loadOnnxCrossEncoder(options: OnnxCrossEncoderOptions): Promise<OnnxCrossEncoder> {
  const folder = await resolveFolder(options);
  if (isCausalLm(folder.config)) {
    throw new ModelFolderError(
      `model ${options.id}: ${folder.folder} is a causal LM (${folder.config.architectures.join(', ')}); load it with loadCausalLmReranker`,
    );
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
  // Before the sessions start: the small-request session then loads after everything else the load waits for.
  const batchInvariant = !(await quantizesActivationsPerRun(folder.onnxPath));
  const runners = await PlannedRunners.start({
    modelId: options.id,
    onnxPath: folder.onnxPath,
    threads: options.threads ?? defaultIntraOpThreads(),
    ...explicitPlacement(options),
    warmupFeeds: (inputNames) =>
      batchFeeds([{ inputIds: [tokenizer.padId, tokenizer.padId], tokenTypeIds: [0, 0] }], tokenizer.padId, inputNames),
  });
  const unexpected = runners.inputNames.filter((name) => !KNOWN_INPUTS.has(name));
  if (unexpected.length > 0 || !runners.inputNames.includes('input_ids')) {
    await runners.close();
    throw new Error(`model ${options.id}: unsupported ONNX inputs [${runners.inputNames.join(', ')}] in ${folder.onnxPath}`);
  }
  // A graph without an attention_mask input cannot tell padding from tokens: it is fed one unpadded pair per run
  // (the padding-free form scripts/model/mha_rewrite.py writes, whose mask-less MultiHeadAttention takes onnxruntime's
  // faster attention path). Batching it would silently change the scores of every shorter pair.
  const unpadded = !runners.inputNames.includes('attention_mask');
  const scorer = new OnnxCrossEncoderScorer(options.id, runners, tokenizer, folder.config, {
    batchSize: unpadded ? 1 : (options.batchSize ?? DEFAULT_BATCH_SIZE),
    maxBatchTokens: options.maxBatchTokens ?? DEFAULT_MAX_BATCH_TOKENS,
    maxBatchScores: options.maxBatchScores ?? DEFAULT_MAX_BATCH_SCORES,
    hiddenSize: folder.config.hiddenSize,
    batchInvariant,
  });
  if (options.measurePaceAtLoad !== false) {
    try {
      await scorer.measurePace();
    } catch (error) {
      await scorer.close();
      throw error;
    }
  }
  return scorer;
}
