import { ConfigError } from './config-error.js';
import { ENV_DEFAULTS } from './env-vars.js';

/** Where Weaviate's reranker-transformers protocol is served when RERANK_WEAVIATE_PREFIX is not set. */
export const DEFAULT_WEAVIATE_PREFIX = ENV_DEFAULTS.RERANK_WEAVIATE_PREFIX;

/** One or more plain path segments, no trailing slash: `/weaviate`, `/reranker/v1`. */
const PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;
const MAX_PREFIX_CHARS = 200;

/**
 * A route prefix as an operator writes it (`RERANK_WEAVIATE_PREFIX`, CDK `rerank:weaviatePrefix`): checked here, so
 * a bad one fails start-up or synth naming the setting. Whether its routes collide with another route is checked
 * where the route table is built.
 */
export function readRoutePrefix(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  if (value.length > MAX_PREFIX_CHARS || !PREFIX.test(value) || value.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new ConfigError(
      `${name} must be a path of plain segments such as /weaviate (at most ${MAX_PREFIX_CHARS} characters, no trailing slash), got '${value.slice(0, 100)}'`,
    );
  }
  return value;
}

/** RERANK_WEAVIATE_PREFIX from the environment (the API function's, set from the CDK setting on AWS). */
export const weaviatePrefixFromEnv = (env: NodeJS.ProcessEnv = process.env): string =>
  readRoutePrefix('RERANK_WEAVIATE_PREFIX', env['RERANK_WEAVIATE_PREFIX'], DEFAULT_WEAVIATE_PREFIX);
