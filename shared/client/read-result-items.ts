import { RerankResponseFormatError } from './rerank-client-errors.js';
import type { ScoredCandidate } from './rerank-result.js';
import { isReplyObject, readDocumentText, readIndex, readScore } from './reply-fields.js';
import { resolveMentions, type CandidateMention } from './resolve-mentions.js';

function readMention(item: unknown, position: number, body: unknown): CandidateMention {
  const fail = (why: string) => new RerankResponseFormatError(`result ${position} ${why}: ${JSON.stringify(item)?.slice(0, 120)}`, body);
  if (Array.isArray(item)) {
    // Format 4 `[index, score]` or format 3 `["document text", score]`; a JSON number is an index, a string is text.
    const [first, second, third] = item as unknown[];
    const score = readScore(second);
    if (score === undefined) throw fail('has no numeric score');
    if (typeof first === 'string') return { text: first, score };
    const index = readIndex(first);
    if (index === undefined) throw fail('has neither an index nor a document text');
    const text = readDocumentText(third);
    return { index, score, ...(text !== undefined ? { text } : {}) };
  }
  if (!isReplyObject(item)) throw fail('is neither an object nor a list');
  const score = readScore(item['score'] ?? item['relevance_score']);
  if (score === undefined) throw fail('has no numeric score or relevance_score');
  const rawIndex = item['index'] ?? item['document_index'] ?? item['corpus_id'];
  const index = readIndex(rawIndex);
  if (rawIndex !== undefined && index === undefined) throw fail('has an index that is not a non-negative integer');
  const text = readDocumentText(item['document'] ?? item['text']);
  if (index === undefined && text === undefined) throw fail('has neither an index nor a document');
  return { ...(index !== undefined ? { index } : {}), ...(text !== undefined ? { text } : {}), score };
}

/**
 * Reads a list of results in any shape the three dialects' clients accept: `{index|document_index, score|relevance_score,
 * document?}` objects (document a string or `{text}`), `[index, score]` or `["document text", score]`.
 */
export function readResultItems(items: unknown, documents: readonly string[] | undefined, body: unknown): ScoredCandidate[] {
  if (!Array.isArray(items)) throw new RerankResponseFormatError('reply has no list of results', body);
  return resolveMentions(
    items.map((item, i) => readMention(item, i, body)),
    documents,
    body,
  );
}
