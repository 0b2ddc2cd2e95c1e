import { keepTokens, type TokenCuts } from '../core/request-controls.js';
import type { ScoreOptions } from '../core/scorer.js';
import { truncateLongestFirst, type EncodedPair, type PairTokenizer } from './pair-tokenizer.js';

/**
 * A cross-encoder's (query, document) pairs with the request's token controls applied: the query cut to
 * max_tokens_per_query and each document to max_tokens_per_doc, then both to the model's window (longest first, as
 * the reference tokenizer does), every cut keeping the end `truncationSide` names. Reports each cut with what it kept.
 */
export function cutPairs(
  tokenizer: PairTokenizer,
  query: string,
  documents: readonly string[],
  options: Pick<ScoreOptions, 'maxDocumentTokens' | 'maxQueryTokens' | 'truncationSide'> = {},
): { readonly pairs: EncodedPair[]; readonly cuts: TokenCuts | undefined } {
  const side = options.truncationSide;
  const queryAll = tokenizer.pieces(query);
  const queryPieces = keepTokens(queryAll, options.maxQueryTokens, side);
  // Tokens left for the two texts once the template's special tokens are in.
  const budget = tokenizer.maxLength - tokenizer.assemble([], []).inputIds.length;
  let queryKept = queryPieces.length;
  const cut: [number, number][] = [];
  const pairs = documents.map((document, index) => {
    const all = tokenizer.pieces(document);
    const capped = keepTokens(all, options.maxDocumentTokens, side);
    const [keepQuery, keepDocument] = truncateLongestFirst(queryPieces.length, capped.length, budget);
    queryKept = Math.min(queryKept, keepQuery);
    if (keepDocument < all.length) cut.push([index, keepDocument]);
    // Right: assemble cuts the ends as the reference does; left: the kept ends are chosen here, so nothing is left to cut.
    return side === 'left'
      ? tokenizer.assemble(keepTokens(queryPieces, keepQuery, 'left'), keepTokens(capped, keepDocument, 'left'))
      : tokenizer.assemble(queryPieces, capped);
  });
  const queryCut = queryKept < queryAll.length ? { query: queryKept } : {};
  return { pairs, cuts: cut.length > 0 || queryKept < queryAll.length ? { ...queryCut, documents: cut } : undefined };
}
