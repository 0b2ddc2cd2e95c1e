import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { RerankError, type RerankErrorKind } from '../../../shared/core/rerank-error.js';
import type { RankedResult, RerankOutcome } from '../../../shared/core/rerank-outcome.js';
import { rerankRequest, type RerankRequest } from '../../../shared/core/rerank-request.js';
import type { RequestLimits } from '../../../shared/core/validate-request.js';
import type { DialectContext } from '../../../shared/dialects/dialect.js';

/** Shared helpers for the dialect tests; the golden files live in test/fixtures/seeds (see its README). */

export type Json = Record<string, unknown>;

const SEEDS = new URL('../../fixtures/seeds/', import.meta.url);

/** The verbatim text of a seed golden file. */
export const seedText = (name: string): string => readFileSync(new URL(name, SEEDS), 'utf8');

/** A seed golden file, JSON-decoded as a client's body would be. */
export const loadSeed = (name: string): unknown => JSON.parse(seedText(name)) as unknown;

export const loadSeedObject = <T = Json>(name: string): T => loadSeed(name) as T;

export const CONTEXT: DialectContext = { requestId: 'req-0123456789abcdef', now: 1766981504 };

export const LIMITS: RequestLimits = { maxDocuments: 1000, maxBatchSize: 64 };

export const ALL_KINDS: readonly RerankErrorKind[] = [
  'invalid_request',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'uri_too_long',
  'conflict',
  'already_exists',
  'unprocessable',
  'rate_limited',
  'upstream',
  'still_running',
  'timed_out',
  'model_failed',
  'internal',
];

export const EXPECTED_STATUS: Readonly<Record<RerankErrorKind, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  conflict: 409,
  already_exists: 409,
  unprocessable: 422,
  rate_limited: 429,
  upstream: 502,
  still_running: 504,
  timed_out: 504,
  model_failed: 500,
  internal: 500,
};

/** The request every dialect should produce when only the seed's fields are present. */
export function expectedRequest(fields: Partial<RerankRequest> & Pick<RerankRequest, 'query' | 'documents'>): RerankRequest {
  const { query, documents, ...options } = fields;
  return rerankRequest(query, documents, options);
}

/** String documents parse into `{text}` with no `source` key. */
export const textDocs = (texts: readonly string[]): { text: string }[] => texts.map((text) => ({ text }));

export function outcomeOf(results: readonly RankedResult[], totalTokens: number, model = 'test-model'): RerankOutcome {
  return {
    id: 'rr-0001',
    model,
    results,
    usage: { totalTokens },
    timings: { scoringMs: 1, totalMs: 2 },
  };
}

/** Runs `act`, asserts it throws an invalid_request RerankError naming `param`, and returns the error. */
export function expectInvalid(act: () => unknown, param: string): RerankError {
  let thrown: unknown;
  try {
    act();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a RerankError for param ${param}`).toBeInstanceOf(RerankError);
  const error = thrown as RerankError;
  expect(error.kind).toBe('invalid_request');
  expect(error.status).toBe(400);
  expect(error.param).toBe(param);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

/** A body's own keys, sorted, for "exactly these fields" assertions. */
export const keysOf = (value: unknown): string[] => Object.keys(value as object).sort();

/** `[name, body, param]` cases reordered as `[name, param, body]`, so test titles print the param, not the body. */
export const byParam = (cases: readonly (readonly [string, unknown, string])[]): [string, string, unknown][] =>
  cases.map(([name, body, param]) => [name, param, body]);
