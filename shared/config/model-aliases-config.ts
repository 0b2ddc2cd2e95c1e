import { ConfigError } from './config-error.js';

/** An alias's target: a served model id, or `default` for whichever model is listed first. */
export const DEFAULT_MODEL_TARGET = 'default';

/**
 * The names hosted rerank APIs and their SDKs send - some by default, some in their docs' examples - so a
 * client that only swapped its base URL is not turned away. Each maps to the default model.
 */
export const HOSTED_MODEL_NAMES: readonly string[] = [
  // Cohere (cohere-ai, LangChain, LlamaIndex's default rerank-english-v2.0, the AI SDK's Cohere provider)
  'rerank-v3.5',
  'rerank-english-v3.0',
  'rerank-multilingual-v3.0',
  'rerank-english-v2.0',
  'rerank-multilingual-v2.0',
  // Jina
  'jina-reranker-v3',
  'jina-reranker-v2-base-multilingual',
  // DashScope (its documented rerank models)
  'gte-rerank-v2',
  'gte-rerank',
  'qwen3-rerank',
  // Together AI (its docs spell it -V1, the AI SDK's examples -v1)
  'Salesforce/Llama-Rank-V1',
  'Salesforce/Llama-Rank-v1',
  // Voyage
  'rerank-2',
  'rerank-2-lite',
  'rerank-2.5',
  'rerank-2.5-lite',
  // Chat clients (OpenAI SDK defaults in examples; the chat rerank client's default model name)
  'gpt-4o-mini',
  'gpt-4o',
  'RerankService',
  // NVIDIA NIM (its docs' example; LangChain's and LlamaIndex's NVIDIARerank default)
  'nvidia/nv-rerankqa-mistral-4b-v3',
  'nvidia/llama-3.2-nv-rerankqa-1b-v2',
  // vLLM score (its docs' example model)
  'BAAI/bge-reranker-v2-m3',
  // Mixedbread (its docs' and SDK README's examples)
  'mixedbread-ai/mxbai-rerank-large-v2',
  'mixedbread-ai/mxbai-rerank-base-v2',
  'mixedbread-ai/mxbai-rerank-large-v1',
  // Google Vertex AI ranking API (its documented models)
  'semantic-ranker-default@latest',
  'semantic-ranker-fast@latest',
  'semantic-ranker-default-004',
  'semantic-ranker-fast-004',
  'semantic-ranker-512@latest',
  'semantic-ranker-512-003',
  // Amazon Bedrock (the model ids of its rerank ARNs and InvokeModel paths)
  'amazon.rerank-v1:0',
  'cohere.rerank-v3-5:0',
  // Pinecone (its hosted rerank models)
  'bge-reranker-v2-m3',
  'pinecone-rerank-v0',
  'cohere-rerank-3.5',
  // Contextual AI (contextual-client's documented rerankers)
  'ctxl-rerank-v2-instruct-multilingual',
  'ctxl-rerank-v2-instruct-multilingual-mini',
  'ctxl-rerank-v1-instruct',
  // ZeroEntropy (the zeroentropy client's documented rerankers)
  'zerank-2',
  'zerank-1',
  'zerank-1-small',
];

/**
 * `RERANK_MODEL_ALIASES`: absent = every HOSTED_MODEL_NAMES entry -> the default model; `off` = no aliases
 * (a hosted name is a 400 listing the served models); otherwise `alias=target` pairs, comma-separated,
 * where target is a served model id or `default`. Targets are checked against the served models at startup.
 */
export function parseModelAliases(raw: string | undefined): ReadonlyMap<string, string> {
  if (raw === undefined || raw.trim() === '') return new Map(HOSTED_MODEL_NAMES.map((name) => [name, DEFAULT_MODEL_TARGET]));
  if (raw.trim() === 'off') return new Map();
  const aliases = new Map<string, string>();
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1)
      throw new ConfigError(`RERANK_MODEL_ALIASES entry '${entry}' must be alias=model (or alias=default)`);
    const alias = entry.slice(0, eq).trim();
    if (aliases.has(alias)) throw new ConfigError(`RERANK_MODEL_ALIASES names '${alias}' twice`);
    aliases.set(alias, entry.slice(eq + 1).trim());
  }
  return aliases;
}

/** The model names a deployment accepts: its aliases, and whether hosted names that are not served are refused. */
export interface ModelNamesConfig {
  readonly modelAliases: ReadonlyMap<string, string>;
  /** RERANK_STRICT_MODEL_NAMES: a hosted name (HOSTED_MODEL_NAMES) that is not served is a 4xx, not the default model. */
  readonly strictModelNames: boolean;
}

const SWITCH_VALUES: Readonly<Record<string, boolean>> = { on: true, true: true, '1': true, off: false, false: false, '0': false };

/**
 * RERANK_MODEL_ALIASES and RERANK_STRICT_MODEL_NAMES together. Strict drops the hosted names from the default aliases
 * (a client naming `rerank-v3.5` is told what is served instead of being scored by another model); an alias the
 * operator wrote for a hosted name contradicts it, so that is a configuration error rather than a silent choice.
 */
export function modelNamesConfig(env: Readonly<Record<string, string | undefined>>): ModelNamesConfig {
  const raw = (env['RERANK_STRICT_MODEL_NAMES'] ?? '').trim().toLowerCase();
  const strict = raw === '' ? false : SWITCH_VALUES[raw];
  if (strict === undefined) throw new ConfigError(`RERANK_STRICT_MODEL_NAMES must be on or off, got '${raw}'`);
  const explicit = (env['RERANK_MODEL_ALIASES'] ?? '').trim() !== '';
  const aliases = parseModelAliases(env['RERANK_MODEL_ALIASES']);
  if (!strict) return { modelAliases: aliases, strictModelNames: false };
  if (!explicit) return { modelAliases: new Map(), strictModelNames: true };
  const hosted = [...aliases.keys()].find((alias) => HOSTED_MODEL_NAMES.includes(alias));
  if (hosted !== undefined) {
    throw new ConfigError(
      `RERANK_STRICT_MODEL_NAMES refuses hosted model names, but RERANK_MODEL_ALIASES maps '${hosted}'; drop one of the two settings`,
    );
  }
  return { modelAliases: aliases, strictModelNames: true };
}
