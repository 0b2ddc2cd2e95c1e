import type { Scorer } from './scorer.js';

/**
 * A text cut to its first `maxWords` whitespace-separated words (joined by single spaces), or the text itself when it
 * has no more: what `max_tokens_per_doc` means for a scorer without a tokenizer of its own (BM25, bi-encoder hybrids).
 */
export function truncateWords(text: string, maxWords: number | undefined): string {
  if (maxWords === undefined) return text;
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxWords ? text : words.slice(0, maxWords).join(' ');
}

/**
 * What `max_tokens_per_doc` means for a scorer: its own tokens where it counts them (the texts stay whole and the
 * budget goes into ScoreOptions), whitespace words otherwise (the texts are cut here). The sync path and the chunk
 * workers both use this, so a job scores what the synchronous answer scores.
 */
export function tokenBudget(
  scorer: Pick<Scorer, 'countsTokens'>,
  texts: readonly string[],
  maxTokens: number | undefined,
): { texts: readonly string[]; maxDocumentTokens?: number } {
  if (maxTokens === undefined) return { texts };
  if (scorer.countsTokens === true) return { texts, maxDocumentTokens: maxTokens };
  return { texts: texts.map((text) => truncateWords(text, maxTokens)) };
}
