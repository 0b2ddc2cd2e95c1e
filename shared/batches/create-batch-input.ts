import { createHash } from 'node:crypto';
import { invalidRequest } from '../core/rerank-error.js';

/** `POST /v1/batches` as the engine takes it. */
export interface CreateBatchInput {
  readonly inputFileId: string;
  readonly endpoint: string;
  readonly completionWindow: '24h';
  readonly metadata?: Readonly<Record<string, string>>;
}

/** OpenAI's metadata bounds: 16 pairs, keys up to 64 characters, values up to 512. */
const METADATA = { maxPairs: 16, maxKeyChars: 64, maxValueChars: 512 } as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads and checks the create body (CreateBatchRequest); unknown fields are ignored, as elsewhere. */
export function parseCreateBatchBody(body: unknown): CreateBatchInput {
  if (!isObject(body)) throw invalidRequest('the body must be a JSON object', 'body');
  const { input_file_id: inputFileId, endpoint, completion_window: window, metadata } = body;
  if (typeof inputFileId !== 'string' || inputFileId === '')
    throw invalidRequest('input_file_id must be the id of an uploaded file (file-...)', 'input_file_id');
  if (typeof endpoint !== 'string' || endpoint === '')
    throw invalidRequest('endpoint must be a rerank route of this service, e.g. /v1/rerank', 'endpoint');
  if (window !== '24h') throw invalidRequest('completion_window must be "24h"', 'completion_window');
  if (metadata !== undefined && metadata !== null) {
    if (!isObject(metadata)) throw invalidRequest('metadata must be an object of string values', 'metadata');
    const entries = Object.entries(metadata);
    if (entries.length > METADATA.maxPairs)
      throw invalidRequest(`metadata has ${entries.length} keys; at most ${METADATA.maxPairs}`, 'metadata');
    for (const [key, value] of entries) {
      if (key.length > METADATA.maxKeyChars)
        throw invalidRequest(`metadata keys are at most ${METADATA.maxKeyChars} characters`, 'metadata');
      if (typeof value !== 'string' || value.length > METADATA.maxValueChars) {
        throw invalidRequest(`metadata.${key} must be a string of at most ${METADATA.maxValueChars} characters`, `metadata.${key}`);
      }
    }
  }
  return {
    inputFileId,
    endpoint,
    completionWindow: '24h',
    ...(isObject(metadata) ? { metadata: metadata as Record<string, string> } : {}),
  };
}

/** SHA-256 of the canonical request (fixed key order, metadata keys sorted): what an Idempotency-Key is bound to. */
export function createBatchRequestHash(input: CreateBatchInput): string {
  const metadata = input.metadata
    ? Object.fromEntries(Object.entries(input.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : null;
  const canonical = JSON.stringify([input.inputFileId, input.endpoint, input.completionWindow, metadata]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
