import { createHash } from 'node:crypto';
import type { RerankRequest } from '../core/rerank-request.js';

/**
 * SHA-256 of a request as the service understood it (dialect, model, query, every document and every option), so
 * an Idempotency-Key retry is recognised by its content, not by its shape. Documents are hashed one by one, each
 * with its length, so no canonical copy of the whole request is built.
 */
export function requestFingerprint(dialect: string, model: string, request: RerankRequest): string {
  const hash = createHash('sha256');
  const field = (value: unknown): void => {
    const text = JSON.stringify(value ?? null);
    hash.update(`${text.length}:${text}`);
  };
  const { query, documents, echo: _echo, ...options } = request;
  field(dialect);
  field(model);
  field(query);
  field(documents.length);
  for (const document of documents) {
    const sent = document.source ?? document.text;
    field(document.metadata === undefined ? sent : { document: sent, metadata: document.metadata });
  }
  // Options in a fixed key order: two equal requests hash alike whatever order their fields were read in.
  field(Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return hash.digest('hex');
}
