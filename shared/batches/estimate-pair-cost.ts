/**
 * The cost estimate of scoring one (query, document) pair, in estimated tokens: what chunks are cut by.
 * One function so that the security issue's cost model can replace it. About 4 characters per token for
 * English WordPiece / SentencePiece text, plus the special tokens a pair template adds.
 */
export function estimatePairCost(queryChars: number, documentChars: number): number {
  const PAIR_TEMPLATE_TOKENS = 3;
  return Math.ceil((queryChars + documentChars) / 4) + PAIR_TEMPLATE_TOKENS;
}
