import { keepTokens, type TokenCuts, type TruncationSide } from '../../core/request-controls.js';
import type { ScoreOptions } from '../../core/scorer.js';

/** The tokenizer calls a text cut needs: a text's ids (no special tokens) and the text of some ids. */
export interface TextTokens {
  ids(text: string): number[];
  text(ids: readonly number[]): string;
}

/** `text` cut to `max` of its tokens from `side`, and how many it kept (undefined when it was not cut). */
function cutText(tokens: TextTokens, text: string, max: number | undefined, side: TruncationSide | undefined): [string, number?] {
  if (max === undefined) return [text];
  const ids = tokens.ids(text);
  if (ids.length <= max) return [text];
  return [tokens.text(keepTokens(ids, max, side)), max];
}

/**
 * An LLM reranker's texts with the request's token controls applied before its template is filled: the query cut to
 * max_tokens_per_query, each document to max_tokens_per_doc, and with `truncationSide: 'left'` each document's start
 * cut so the filled prompt fits the window (`windowFor` says how many document tokens fit beside the query); the
 * window's right cut stays where the reference code makes it, at the prompt's end. Reports each cut.
 */
export function cutPromptTexts(
  tokens: TextTokens,
  query: string,
  documents: readonly string[],
  options: Pick<ScoreOptions, 'maxDocumentTokens' | 'maxQueryTokens' | 'truncationSide'>,
  windowFor: (query: string) => number,
): { readonly query: string; readonly documents: string[]; readonly cuts: TokenCuts | undefined } {
  const side = options.truncationSide;
  const [cutQuery, queryKept] = cutText(tokens, query, options.maxQueryTokens, side);
  const window = windowFor(cutQuery);
  const cut: [number, number][] = [];
  const texts = documents.map((document, index) => {
    const [capped, kept] = cutText(tokens, document, options.maxDocumentTokens, side);
    // Only a left cut needs the length here (a right one is made, and seen, at the prompt's end: windowCuts).
    if (side !== 'left' || (kept ?? tokens.ids(capped).length) <= window) {
      if (kept !== undefined) cut.push([index, kept]);
      return capped;
    }
    cut.push([index, Math.max(0, window)]);
    return side === 'left' ? cutText(tokens, capped, Math.max(0, window), 'left')[0] : capped;
  });
  const queryCut = queryKept === undefined ? {} : { query: queryKept };
  return {
    query: cutQuery,
    documents: texts,
    cuts: cut.length > 0 || queryKept !== undefined ? { ...queryCut, documents: cut } : undefined,
  };
}

/** An LLM reranker's tokenizer, the tokens its prompt leaves for a pair, and its prompt for a query and no document. */
export interface TemplateCut {
  readonly tokens: TextTokens;
  readonly budget: number;
  emptyPrompt(query: string): string;
}

/** cutPromptTexts with a document's window being what the template, filled with the cut query, leaves of the budget. */
export function cutForTemplate(
  template: TemplateCut,
  query: string,
  documents: readonly string[],
  options: Pick<ScoreOptions, 'maxDocumentTokens' | 'maxQueryTokens' | 'truncationSide'>,
): ReturnType<typeof cutPromptTexts> & { readonly window: number } {
  let window = template.budget;
  const windowFor = (cutQuery: string) => (window = template.budget - template.tokens.ids(template.emptyPrompt(cutQuery)).length);
  const cut = cutPromptTexts(template.tokens, query, documents, options, windowFor);
  return { ...cut, window };
}

/**
 * The cuts with the window's right cuts added: a prompt at the window's length was cut at its end, its document kept
 * to `window` tokens (a document already reported keeps its entry).
 */
export function withWindowCuts(
  cuts: TokenCuts | undefined,
  promptLengths: readonly number[],
  maxLength: number,
  window: number,
): TokenCuts | undefined {
  const reported = new Set((cuts?.documents ?? []).map(([index]) => index));
  const more = promptLengths.flatMap((length, index): [number, number][] =>
    length >= maxLength && !reported.has(index) ? [[index, Math.max(0, window)]] : [],
  );
  if (more.length === 0) return cuts;
  return {
    ...(cuts?.query === undefined ? {} : { query: cuts.query }),
    documents: [...(cuts?.documents ?? []), ...more].sort((a, b) => a[0] - b[0]),
  };
}
