import type { RerankDocument } from '../../core/rerank-request.js';
import { decodeFloat64s, encodeFloat64s } from './float64-codec.js';

/** Documents are stored as their JSON text: they arrived as JSON, so JSON is exactly what the client sent. */
export const encodeDocuments = (documents: readonly RerankDocument[]): Uint8Array => Buffer.from(JSON.stringify(documents), 'utf8');

export function decodeDocuments(bytes: Uint8Array): RerankDocument[] {
  if (bytes.byteLength === 0) return [];
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as RerankDocument[];
}

/** Ranked pairs as interleaved float64 [index, score, index, score, ...]: 16 bytes a pair, scores bit-exact. */
export const encodeRanked = (ranked: readonly (readonly [number, number])[]): Uint8Array => encodeFloat64s(ranked.flat());

export function decodeRanked(bytes: Uint8Array): [number, number][] {
  const flat = decodeFloat64s(bytes);
  const pairs: [number, number][] = new Array(flat.length / 2);
  for (let i = 0; i < pairs.length; i += 1) pairs[i] = [flat[2 * i] as number, flat[2 * i + 1] as number];
  return pairs;
}
