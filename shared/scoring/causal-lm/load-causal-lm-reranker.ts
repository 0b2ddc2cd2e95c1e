import type { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { defaultIntraOpThreads } from '../../config/lambda-vcpus.js';
import { isCausalLm, ModelFolderError, readModelFolder, type ModelFolder } from '../model-folder.js';
import { ONNX_FILE_CANDIDATES, ONNX_VARIANT_FILES, type ModelVariant } from '../onnx-file-names.js';
import { inThreadSession } from '../onnx-runtime/onnx-session.js';
import { onnxSessionOptions } from '../onnx-runtime/session-options.js';
import { startSessionWorker } from '../onnx-runtime/session-worker.js';
import { createHfTokenizer, vocabularySize } from '../tokenizer-json.js';
import { OnnxCausalLmReranker, type CausalLmReranker } from './causal-lm-reranker.js';
import { graphShape } from './graph-shape.js';
import { readLlmRerankTemplate } from './llm-rerank-template.js';
import { PromptEncoder } from './prompt-encoder.js';
import { YesNoMargins } from './yes-no-margins.js';

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

const DEFAULT_BATCH_SIZE = 4;
const DEFAULT_MAX_BATCH_TOKENS = 4096;

/** A graph returning logits for every position allocates rows x width x vocab floats; keep that near 256 MB. */
const MAX_LOGIT_FLOATS = 64 * 1024 * 1024;

function tokenId(tokenizer: Tokenizer, token: string, what: string, folder: string): number {
  const id = tokenizer.token_to_id(token);
  if (id === undefined) throw new ModelFolderError(`model folder ${folder}: the ${what} token '${token}' is not in tokenizer.json`);
  return id;
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
    const reranker = new OnnxCausalLmReranker({
      id: options.id,
      template,
      maxLength,
      inputNames: graph.inputNames,
      prompts: new PromptEncoder(options.id, template, maxLength, tokenizer),
      margins: new YesNoMargins(options.id, session, graph, answer, maxRunTokens),
      session,
      limits,
    });
    if (options.measurePaceAtLoad !== false) await reranker.measurePace();
    return reranker;
  } catch (error) {
    await session.release();
    throw error;
  }
}
