import type { TokenCuts } from '../../core/request-controls.js';
import { decodeFloat64s, encodeFloat64s } from './float64-codec.js';

/**
 * What a model cut, as one Binary attribute: float64s [query's kept tokens or -1, documents counted past those listed,
 * then index and kept tokens of each listed document]. At most MAX_STORED_CUTS documents are listed: 16 KB at most.
 */
export const encodeCuts = (cuts: TokenCuts): Uint8Array => encodeFloat64s([cuts.query ?? -1, cuts.more ?? 0, ...cuts.documents.flat()]);

export function decodeCuts(bytes: Uint8Array): TokenCuts {
  const [query = -1, more = 0, ...flat] = decodeFloat64s(bytes);
  const documents: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) documents.push([flat[i] as number, flat[i + 1] as number]);
  return { ...(query >= 0 ? { query } : {}), documents, ...(more > 0 ? { more } : {}) };
}
