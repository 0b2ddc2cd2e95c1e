import { cutForTemplate, withWindowCuts, type TemplateCut } from './cut-prompt-texts.js';
import { FAMILY_CONTROLS } from '../../core/request-controls.js';
import type { Tokenizer } from '@huggingface/tokenizers';
import { mapInSlices } from '../map-in-slices.js';
import { CostMeter, paceWarmUpDocument } from '../cost-meter.js';
import * as ort from 'onnxruntime-node';
import { lengthBatches, type BatchLimits } from '../length-batches.js';
import { isCausalLm, ModelFolderError, readModelFolder, type CrossEncoderConfig, type ModelFolder } from '../model-folder.js';
import { defaultIntraOpThreads } from '../../config/lambda-vcpus.js';
import { inThreadSession, type OnnxSession } from '../onnx-runtime/onnx-session.js';
import { startSessionWorker } from '../onnx-runtime/session-worker.js';
import { onnxSessionOptions } from '../onnx-runtime/session-options.js';
import { ONNX_FILE_CANDIDATES, ONNX_VARIANT_FILES, type ModelVariant } from '../onnx-file-names.js';
import type { ScoreBatch, ScoreOptions, Scorer } from '../../core/scorer.js';
import { emptyPastTensor, presentNamesFor, runWithCache, tokenTensors, type CacheGraph } from './kv-cache-runs.js';
import { formatPair, readLlmRerankTemplate, type LlmRerankTemplate } from './llm-rerank-template.js';
import { createHfTokenizer, vocabularySize } from '../tokenizer-json.js';

export interface CausalLmRerankerOptions {
  readonly id: string;
  /** Hugging Face layout folder of a *ForCausalLM export (config.json, tokenizer.json, onnx/model.onnx). */
  readonly folder: string;
  /**
   * ONNX file relative to the folder; default: the variant's file, else the first of ONNX_FILE_CANDIDATES found,
   * else the fp16 export (a folder pulled with `--variant fp16` holds nothing else).
   */
  readonly modelFile?: string;
  /** Which export to load when modelFile is not given (ONNX_VARIANT_FILES). */
  readonly variant?: ModelVariant;
  readonly threads?: number;
  /** Max prompts per ONNX run (default 4). */
  readonly batchSize?: number;
  /** Max padded tokens per batch (default 4,096; lowered for full-sequence logits of a large vocabulary without a KV cache). */
  readonly maxBatchTokens?: number;
  /**
   * With a KV-cache graph: max tokens (rows x columns) of one ONNX run, a batch running in column chunks on the
   * cache of the chunks before. Default: what keeps one run's logits near 256 MB.
   */
  readonly maxRunTokens?: number;
  /**
   * Run the graph on a worker thread (default true): an LLM's runs take seconds on long prompts, and in this thread
   * they would hold the event loop (health checks, other requests) for all of them. false: in this thread.
   */
  readonly inWorkerThread?: boolean;
  /**
   * Score one ~128-token warm-up pair at load to measure this machine's pace (CostMeter), so the first request
   * in a fresh process is planned by its cost (sync or job) like the rest; default true. Adds that pair's
   * scoring to the load (a cold start pays it once; scripts/model/cold-start-paths.ts reports it).
   */
  readonly measurePaceAtLoad?: boolean;
}

export interface CausalLmReranker extends Scorer {
  readonly scoreKind: 'logit';
  readonly maxLength: number;
  readonly inputNames: readonly string[];
  readonly template: LlmRerankTemplate;
  /** Token ids of one prompt exactly as they are fed (exposed for parity tests). */
  encode(query: string, document: string, instruction?: string): number[];
  /** Every document's prompt for one request, the shared instruction and query tokenized once (equal to `encode` each). */
  encodeRequest(query: string, documents: readonly string[], instruction?: string): number[][];
  /** Seconds these texts would take at this machine's measured pace (from load: measurePaceAtLoad). */
  estimateSeconds(query: string, documents: readonly string[]): number | undefined;
  close(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 4;
const DEFAULT_MAX_BATCH_TOKENS = 4096;

/** A graph returning logits for every position allocates rows x width x vocab floats; keep that near 256 MB. */
const MAX_LOGIT_FLOATS = 64 * 1024 * 1024;
const TOKEN_INPUTS = new Set(['input_ids', 'attention_mask', 'position_ids']);
const PAST = /^past_key_values\.\d+\.(key|value)$/;

/**
 * IEEE 754 half -> float, for fp16 logits that come back as raw 16-bit words: onnxruntime-common hands float16
 * tensors out as a Uint16Array where the runtime has no Float16Array (Node 20), as a Float16Array where it has
 * one (Node 24), whose elements are already numbers.
 */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

function tokenId(tokenizer: Tokenizer, token: string, what: string, folder: string): number {
  const id = tokenizer.token_to_id(token);
  if (id === undefined) throw new ModelFolderError(`model folder ${folder}: the ${what} token '${token}' is not in tokenizer.json`);
  return id;
}

interface GraphShape {
  readonly inputNames: readonly string[];
  readonly outputName: string;
  /** 3 = logits for every position (read at each row's last token), 2 = logits of the last token only. */
  readonly outputRank: number;
  readonly pastType: 'float32' | 'float16';
  /** The empty past's [kv_heads, head_dim]: the graph's own static dims, else config.json's. */
  readonly pastHeads: number;
  readonly pastHeadDim: number;
  /** Set when the graph returns its cache (present.*) and logits for every position: batches run in pieces. */
  readonly cache: CacheGraph | undefined;
}

/** A static dimension of a graph input, else the fallback (exports name dynamic axes with strings). */
function staticDim(
  metadata: ort.InferenceSession.ValueMetadata | undefined,
  axis: number,
  fallback: number | undefined,
): number | undefined {
  const dim = metadata?.isTensor === true ? metadata.shape[axis] : undefined;
  return typeof dim === 'number' && dim > 0 ? dim : fallback;
}

function graphShape(session: OnnxSession, id: string, config: CrossEncoderConfig): GraphShape {
  const unexpected = session.inputNames.filter((name) => !TOKEN_INPUTS.has(name) && !PAST.test(name) && name !== 'use_cache_branch');
  if (unexpected.length > 0 || !session.inputNames.includes('input_ids')) {
    throw new Error(`model ${id}: unsupported ONNX inputs [${session.inputNames.join(', ')}] for a causal LM reranker`);
  }
  const past = session.inputMetadata.find((m) => PAST.test(m.name));
  const pastHeads = staticDim(past, 1, config.numKeyValueHeads);
  const pastHeadDim = staticDim(past, 3, config.headDim);
  if (past !== undefined && (pastHeads === undefined || pastHeadDim === undefined)) {
    throw new Error(`model ${id}: the graph takes a KV cache but neither it nor config.json gives num_key_value_heads/head_dim`);
  }
  const outputName = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]!;
  const output = session.outputMetadata.find((m) => m.name === outputName);
  const outputRank = output?.isTensor === true && output.shape.length > 0 ? output.shape.length : 3;
  const pastType = past?.isTensor === true && past.type === 'float16' ? 'float16' : 'float32';
  const pastNames = session.inputNames.filter((name) => PAST.test(name));
  const presentNames = presentNamesFor(pastNames, session.outputNames);
  // optimum's older merged decoders switch subgraphs on use_cache_branch; they are scored in one run.
  const cache: CacheGraph | undefined =
    presentNames !== undefined && outputRank === 3 && !session.inputNames.includes('use_cache_branch')
      ? {
          tokenInputs: session.inputNames.filter((name) => TOKEN_INPUTS.has(name)),
          pastNames,
          presentNames,
          pastType,
          pastHeads: pastHeads!,
          pastHeadDim: pastHeadDim!,
          logitsName: outputName,
        }
      : undefined;
  return {
    inputNames: session.inputNames,
    outputName,
    outputRank,
    pastType,
    pastHeads: pastHeads ?? 0,
    pastHeadDim: pastHeadDim ?? 0,
    cache,
  };
}

class OnnxCausalLmReranker implements CausalLmReranker {
  readonly scoreKind = 'logit' as const;
  readonly usesInstruction = true;
  readonly controls = FAMILY_CONTROLS['llm-reranker'];
  readonly inputNames: readonly string[];
  private readonly prefixIds: number[];
  private readonly suffixIds: number[];
  private closed = false;
  /** The measured pace behind estimateSeconds (prompts are long: the attention term dominates). */
  private readonly meter: CostMeter;
  /** True while the load's warm-up pair is scored: the meter keeps it only until a real request. */
  private warmingUp = false;

  constructor(
    readonly id: string,
    readonly template: LlmRerankTemplate,
    readonly maxLength: number,
    private readonly tokenizer: Tokenizer,
    private readonly session: OnnxSession,
    private readonly graph: GraphShape,
    private readonly answer: { readonly yes: number; readonly no: number; readonly pad: number },
    private readonly limits: BatchLimits,
    private readonly maxRunTokens: number,
  ) {
    this.inputNames = graph.inputNames;
    this.meter = new CostMeter(maxLength, undefined);
    this.prefixIds = this.ids(template.prefix);
    this.suffixIds = this.ids(template.suffix);
    if (this.prefixIds.length + this.suffixIds.length + 1 > maxLength) {
      throw new ModelFolderError(`model ${id}: the prompt template alone is longer than the max length ${maxLength}`);
    }
  }

  private ids(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  encode(query: string, document: string, instruction?: string): number[] {
    // The whole formatted pair is tokenized as one text (byte-level BPE merges across the boundaries) and cut
    // at its end, as the reference code's tokenizer(..., truncation=True, max_length=budget) does.
    const budget = this.maxLength - this.prefixIds.length - this.suffixIds.length;
    const body = this.ids(formatPair(this.template, instruction, query, document)).slice(0, budget);
    return [...this.prefixIds, ...body, ...this.suffixIds];
  }

  private feeds(rows: readonly number[][]): Record<string, ort.Tensor> {
    const tokens = tokenTensors(rows, 0, Math.max(...rows.map((row) => row.length)), this.answer.pad);
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of this.graph.inputNames) {
      if (TOKEN_INPUTS.has(name)) feeds[name] = tokens[name]!;
      else if (name === 'use_cache_branch') feeds[name] = new ort.Tensor('bool', [false], [1]);
      // An export with a KV cache scores from an empty one: past length 0 (its attention_mask then covers
      // exactly the new tokens).
      else feeds[name] = emptyPastTensor(this.graph.pastType, rows.length, this.graph.pastHeads, this.graph.pastHeadDim);
    }
    return feeds;
  }

  /** logit(yes) - logit(no) in the logits of one position (`position` counts rows x columns of the output). */
  private margin(output: ort.Tensor, position: number): number {
    const base = position * Number(output.dims[output.dims.length - 1]);
    const data = output.data;
    if (data instanceof Uint16Array && output.type === 'float16')
      return halfToFloat(data[base + this.answer.yes]!) - halfToFloat(data[base + this.answer.no]!);
    return Number(data[base + this.answer.yes]) - Number(data[base + this.answer.no]);
  }

  /** logit(yes) - logit(no) at each row's last real token: its sigmoid is p(yes). */
  private async run(rows: readonly number[][]): Promise<number[]> {
    const cache = this.graph.cache;
    if (cache !== undefined) {
      return runWithCache(this.session, cache, rows, this.answer.pad, this.maxRunTokens, (logits, row, column) =>
        this.margin(logits, row * Number(logits.dims[1]) + column),
      );
    }
    // One run; only the logits are fetched (a cache-taking graph without present.* outputs starts from empty).
    const output = (await this.session.run(this.feeds(rows), [this.graph.outputName]))[this.graph.outputName];
    if (output === undefined) throw new Error(`model ${this.id}: no ${this.graph.outputName} output`);
    const width = output.dims.length === 3 ? Number(output.dims[1]) : 1;
    return rows.map((row, r) => this.margin(output, output.dims.length === 3 ? r * width + row.length - 1 : r));
  }

  /**
   * Every document's prompt, with the part they share (instruction and query) tokenized once per request instead of
   * once per document: a long instruction cost its length times the documents. The shared head ends where the
   * pre-tokenizer splits anyway (before the whitespace leading into the document), and the first document's ids are
   * checked against tokenizing its pair whole; a template where they differ is tokenized whole, as before.
   */
  encodeRequest(query: string, documents: readonly string[], instruction?: string): number[][] {
    return [...this.encodeEach(query, documents, instruction)];
  }

  /** encodeRequest one prompt at a time, so score() can let other requests in between long documents. */
  private *encodeEach(query: string, documents: readonly string[], instruction?: string): Generator<number[]> {
    if (documents.length === 0) return;
    const marker = '\u0000document\u0000';
    const shape = formatPair(this.template, instruction, query, marker);
    const at = shape.indexOf(marker);
    const head = shape.slice(0, at).trimEnd();
    const gap = shape.slice(head.length, at);
    const after = shape.slice(at + marker.length);
    // A template that does not split at the document (or splits differently than the whole pair): tokenized whole.
    const split = at >= 0 && shape.indexOf(marker, at + 1) < 0;
    const budget = this.maxLength - this.prefixIds.length - this.suffixIds.length;
    const headIds = split ? this.ids(head) : [];
    const body = (document: string) => [...headIds, ...this.ids(`${gap}${document}${after}`)].slice(0, budget);
    const first = split ? body(documents[0]!) : [];
    const check = split ? this.ids(formatPair(this.template, instruction, query, documents[0]!)).slice(0, budget) : [];
    if (!split || first.length !== check.length || first.some((id, i) => id !== check[i])) {
      for (const document of documents) yield this.encode(query, document, instruction);
      return;
    }
    for (let i = 0; i < documents.length; i++) yield [...this.prefixIds, ...(i === 0 ? first : body(documents[i]!)), ...this.suffixIds];
  }

  async score(query: string, documents: readonly string[], options?: ScoreOptions): Promise<ScoreBatch> {
    if (this.closed) throw new Error(`scorer ${this.id} is closed`);
    // Long prompts take tens of ms each to tokenize: yield to the event loop every few of them, so /health and other
    // requests are answered while a large request is being prepared (30 x 65,000 characters took 1.3 s in one piece).
    const texts = cutForTemplate(this.#templateCut(options?.instruction), query, documents, options ?? {});
    const prompts = await mapInSlices(this.encodeEach(texts.query, texts.documents, options?.instruction), (p) => p, options?.signal);
    const lengths = prompts.map((p) => p.length);
    const scores = new Array<number>(documents.length);
    const started = performance.now();
    for (const batch of lengthBatches(lengths, this.limits)) {
      options?.signal?.throwIfAborted(); // past the deadline no further batch starts
      const results = await this.run(batch.map((index) => prompts[index]!));
      batch.forEach((index, i) => (scores[index] = results[i]!));
    }
    this.meter.record(lengths, (performance.now() - started) / 1000, this.warmingUp);
    const cuts = withWindowCuts(texts.cuts, lengths, this.maxLength, texts.window);
    return { scores, tokens: lengths.reduce((sum, n) => sum + n, 0), ...(cuts ? { cuts } : {}) };
  }

  /** What cutting a request's texts needs of this model: its tokenizer, the window left by the prompt's fixed parts. */
  #templateCut(instruction: string | undefined): TemplateCut {
    return {
      tokens: { ids: (text) => this.ids(text), text: (ids) => this.tokenizer.decode([...ids]) },
      budget: this.maxLength - this.prefixIds.length - this.suffixIds.length,
      emptyPrompt: (query) => formatPair(this.template, instruction, query, ''),
    };
  }

  estimateSeconds(query: string, documents: readonly string[]): number | undefined {
    return this.meter.estimateSeconds(query, documents);
  }

  /**
   * Measures the pace before the first request: one short untimed run first (a fresh session's first run pays
   * its allocations, which would overstate the pace), then the timed ~128-token warm-up pair.
   */
  async measurePace(): Promise<void> {
    this.warmingUp = true;
    try {
      await this.run([this.encode('pace', 'pace')]);
      await this.score('pace', [paceWarmUpDocument()]);
    } finally {
      this.warmingUp = false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }
}

/**
 * The folder with the ONNX file to load: the named file, the named variant's first file found, else the default
 * candidates, else an fp16 export. LLM rerankers are the models people pull as fp16 only (half the download), and
 * unlike a cross-encoder folder a causal-LM folder that holds nothing else must still load.
 */
async function readCausalLmFolder(options: CausalLmRerankerOptions): Promise<ModelFolder> {
  if (options.modelFile !== undefined) return readModelFolder(options.folder, { modelFile: options.modelFile });
  const candidates =
    options.variant === undefined ? [...ONNX_FILE_CANDIDATES, ...ONNX_VARIANT_FILES.fp16] : ONNX_VARIANT_FILES[options.variant];
  for (const modelFile of candidates) {
    try {
      return await readModelFolder(options.folder, { modelFile });
    } catch (error) {
      if (!(error instanceof ModelFolderError) || error.code !== 'no_onnx_file') throw error;
    }
  }
  const what = options.variant === undefined ? 'ONNX model' : `${options.variant} ONNX model`;
  throw new ModelFolderError(`model folder ${options.folder}: no ${what} found (looked for ${candidates.join(', ')})`, 'no_onnx_file');
}

/**
 * Loads an LLM reranker scored from yes/no next-token logits (the Qwen3-Reranker family): a *ForCausalLM ONNX
 * export (logits for every position or for the last one; with or without a KV cache input, a graph that also
 * returns its cache being run in pieces: kv-cache-runs.ts), its tokenizer, and
 * the prompt template (rerank_template.json, default Qwen3-Reranker's). The request's instruction fills the
 * template's {instruction}.
 */
export async function loadCausalLmReranker(options: CausalLmRerankerOptions): Promise<CausalLmReranker> {
  const folder = await readCausalLmFolder(options);
  if (!isCausalLm(folder.config)) {
    throw new ModelFolderError(
      `model ${options.id}: ${folder.folder} is not a causal LM (architectures: ${folder.config.architectures.join(', ') || 'none'})`,
    );
  }
  const template = await readLlmRerankTemplate(folder.folder);
  const tokenizer = createHfTokenizer(folder.tokenizerJson, folder.tokenizerConfig);
  const answer = {
    yes: tokenId(tokenizer, template.yesToken, 'yes', folder.folder),
    no: tokenId(tokenizer, template.noToken, 'no', folder.folder),
    // Any id works for padding (masked, and after every real token); the model's own pad token when it has one.
    pad: folder.config.padTokenId ?? tokenizer.token_to_id(String(folder.tokenizerConfig.pad_token ?? '')) ?? 0,
  };
  const maxLength = Math.min(template.maxLength, folder.config.maxPositionEmbeddings ?? template.maxLength);
  const sessionOptions = onnxSessionOptions(options.threads ?? defaultIntraOpThreads());
  const session =
    options.inWorkerThread === false
      ? inThreadSession(await ort.InferenceSession.create(folder.onnxPath, sessionOptions))
      : await startSessionWorker(folder.onnxPath, sessionOptions);
  try {
    const graph = graphShape(session, options.id, folder.config);
    const vocab = vocabularySize(folder.tokenizerJson) || 1;
    const logitBound = graph.outputRank === 3 ? Math.max(1, Math.floor(MAX_LOGIT_FLOATS / vocab)) : Number.POSITIVE_INFINITY;
    // A KV-cache graph bounds its logits per run (column chunks), so its batches need not shrink to do it.
    const limits = {
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      maxBatchTokens: Math.min(
        options.maxBatchTokens ?? DEFAULT_MAX_BATCH_TOKENS,
        graph.cache === undefined ? logitBound : Number.POSITIVE_INFINITY,
      ),
    };
    const maxRunTokens = Math.max(1, options.maxRunTokens ?? logitBound);
    const reranker = new OnnxCausalLmReranker(options.id, template, maxLength, tokenizer, session, graph, answer, limits, maxRunTokens);
    if (options.measurePaceAtLoad !== false) await reranker.measurePace();
    return reranker;
  } catch (error) {
    await session.release();
    throw error;
  }
}
