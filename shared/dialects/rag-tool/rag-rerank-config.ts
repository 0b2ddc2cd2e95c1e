import { invalidRequest } from '../../core/rerank-error.js';
import type { BoostRule, RerankStrategy, UpstreamReranker } from '../../core/rerank-request.js';
import {
  describeJsonValue,
  expectObject,
  readOptionalBoolean,
  readOptionalNumber,
  readOptionalString,
  readOptionalStringArray,
  readString,
  type JsonObject,
} from '../wire-fields.js';

/** What `rerank_config` contributes to the request. */
export interface RagRerankConfig {
  readonly upstream?: UpstreamReranker;
  readonly boost?: BoostRule;
  readonly fallbackToInputOrder: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Longer than this and an API Gateway request (29 s) would time out before the upstream answers. */
export const MAX_TIMEOUT_MS = 30_000;
/** The boost rule's default weight for the share of boost terms a document contains. */
const DEFAULT_TERM_WEIGHT = 0.1;

const UPSTREAM_MODES: readonly UpstreamReranker['mode'][] = ['openai', 'dashscope', 'chat'];
function readUpstream(
  config: JsonObject,
  param: string,
  strategy: RerankStrategy,
  modelId: string | undefined,
): UpstreamReranker | undefined {
  const apiUrl = readOptionalString(config, 'api_url', `${param}.api_url`);
  if (apiUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(apiUrl);
  } catch {
    url = undefined;
  }
  // The URL itself is never echoed: it may carry credentials.
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidRequest(`${param}.api_url must be an absolute http(s) URL`, `${param}.api_url`);
  }
  const modeText = readOptionalString(config, 'mode', `${param}.mode`)?.toLowerCase();
  const mode = modeText ?? (strategy === 'llm_rerank' ? 'chat' : 'openai');
  if (!UPSTREAM_MODES.includes(mode as UpstreamReranker['mode'])) {
    throw invalidRequest(`${param}.mode must be one of ${UPSTREAM_MODES.join(', ')}`, `${param}.mode`);
  }
  // Seconds, as the RFC's httpx-based providers take it; capped rather than refused (the RFC's own default is 60).
  const timeout = readOptionalNumber(config, 'timeout', `${param}.timeout`);
  if (timeout !== undefined && timeout <= 0)
    throw invalidRequest(`${param}.timeout must be a positive number of seconds`, `${param}.timeout`);
  return {
    apiUrl,
    apiKey: readOptionalString(config, 'api_key', `${param}.api_key`),
    mode: mode as UpstreamReranker['mode'],
    model: readOptionalString(config, 'model', `${param}.model`) ?? modelId,
    timeoutMs: timeout === undefined ? DEFAULT_TIMEOUT_MS : Math.min(MAX_TIMEOUT_MS, Math.round(timeout * 1000)),
  };
}

function readBoostField(value: unknown, param: string): BoostRule['fields'][number] {
  const field = expectObject(value, param);
  const fieldValue = field['value'];
  if (typeof fieldValue !== 'string' && typeof fieldValue !== 'number' && typeof fieldValue !== 'boolean') {
    throw invalidRequest(`${param}.value must be a string, number or boolean, got ${describeJsonValue(fieldValue)}`, `${param}.value`);
  }
  const weight = readOptionalNumber(field, 'weight', `${param}.weight`);
  if (weight === undefined) throw invalidRequest(`${param}.weight is required`, `${param}.weight`);
  return { field: readString(field, 'field', `${param}.field`), value: fieldValue, weight };
}

function readBoost(config: JsonObject, configParam: string): BoostRule | undefined {
  if (config['boost'] === undefined || config['boost'] === null) return undefined;
  const param = `${configParam}.boost`;
  const boost = expectObject(config['boost'], param);
  const fields = boost['fields'];
  if (fields !== undefined && fields !== null && !Array.isArray(fields)) {
    throw invalidRequest(`${param}.fields must be an array, got ${describeJsonValue(fields)}`, `${param}.fields`);
  }
  return {
    terms: readOptionalStringArray(boost, 'terms', `${param}.terms`) ?? [],
    termWeight: readOptionalNumber(boost, 'weight', `${param}.weight`) ?? DEFAULT_TERM_WEIGHT,
    fields: (fields ?? []).map((f: unknown, i) => readBoostField(f, `${param}.fields[${i}]`)),
  };
}

/**
 * The RAG tool's RAGRerankConfig plus what the strategies need: `api_url` (an external provider; `api_key`,
 * `mode` = the upstream's dialect, `model`, `timeout` in seconds), `boost` ({terms, weight, fields}) and
 * `fallback` (answer the input order when scoring fails; on by default for this endpoint).
 * Upstream fields are ignored without `api_url`. The api_key is never echoed in errors or responses.
 */
export function readRagRerankConfig(value: unknown, param: string, strategy: RerankStrategy, modelId: string | undefined): RagRerankConfig {
  if (value === undefined || value === null) return { fallbackToInputOrder: true };
  const config = expectObject(value, param);
  const upstream = readUpstream(config, param, strategy, modelId);
  const boost = readBoost(config, param);
  return {
    ...(upstream ? { upstream } : {}),
    ...(boost ? { boost } : {}),
    fallbackToInputOrder: readOptionalBoolean(config, 'fallback', `${param}.fallback`) ?? true,
  };
}
