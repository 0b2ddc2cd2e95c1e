import { RerankResponseFormatError } from './rerank-client-errors.js';
import type { ScoredCandidate } from './rerank-result.js';

/** A result as a reply states it: by index, by document text (chat format 3), or both. */
export interface CandidateMention {
  readonly index?: number;
  readonly text?: string;
  readonly score: number;
}

const squash = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** The positions holding one text, and how many of the first ones are known to be taken. */
interface Positions {
  readonly indices: number[];
  next: number;
}

function positionsBy(documents: readonly string[], key: (doc: string) => string): Map<string, Positions> {
  const map = new Map<string, Positions>();
  documents.forEach((doc, i) => {
    const k = key(doc);
    const entry = map.get(k);
    if (entry) entry.indices.push(i);
    else map.set(k, { indices: [i], next: 0 });
  });
  return map;
}

/**
 * Turns mentions into indexed candidates. A mention by text takes the first not yet taken position
 * holding that text (exact match, else whitespace-insensitive), best-scored mentions first, so
 * duplicate candidates get distinct indices. A text mentioned more often than it occurs among the
 * candidates is a repeated result and is dropped; a text that is not a candidate, or an index out of
 * range, makes the reply unreadable.
 */
export function resolveMentions(
  mentions: readonly CandidateMention[],
  documents: readonly string[] | undefined,
  body: unknown,
): ScoredCandidate[] {
  const resolved: ScoredCandidate[] = [];
  const byText: CandidateMention[] = [];
  for (const m of mentions) {
    if (m.index !== undefined) {
      if (documents && m.index >= documents.length) {
        throw new RerankResponseFormatError(`reply names index ${m.index} but only ${documents.length} documents were sent`, body);
      }
      const document = m.text ?? documents?.[m.index];
      resolved.push({ index: m.index, score: m.score, ...(document !== undefined ? { document } : {}) });
    } else if (m.text !== undefined) {
      byText.push(m);
    }
  }
  if (byText.length === 0) return resolved;
  if (!documents) {
    throw new RerankResponseFormatError('reply names documents by text but the documents sent are not known here', body);
  }
  const taken = new Set(resolved.map((c) => c.index));
  // Positions by exact and by whitespace-insensitive text, built once: a reply (an upstream's, untrusted)
  // naming many documents costs O(reply + documents), not O(mentions x documents).
  const exact = positionsBy(documents, (doc) => doc);
  let squashed: Map<string, Positions> | undefined;
  // Stable sort: equal scores keep the reply's order.
  for (const m of [...byText].sort((a, b) => b.score - a.score)) {
    const text = m.text as string;
    let candidates = exact.get(text);
    if (candidates === undefined) candidates = (squashed ??= positionsBy(documents, squash)).get(squash(text));
    if (candidates === undefined) {
      throw new RerankResponseFormatError(
        `reply names a document that is not among the candidates: ${JSON.stringify(text.slice(0, 80))}`,
        body,
      );
    }
    // Taken positions never free up again, so each list's cursor only moves forward.
    while (candidates.next < candidates.indices.length && taken.has(candidates.indices[candidates.next] as number)) candidates.next++;
    const free = candidates.indices[candidates.next];
    if (free === undefined) continue;
    taken.add(free);
    resolved.push({ index: free, score: m.score, document: documents[free] as string });
  }
  return resolved;
}
