import type { RerankRequest, TruncationSide } from './rerank-request.js';

/**
 * The request controls beyond (query, documents, top_n) that a model may or may not have a use for, named as vLLM
 * spells them (the names the `x-rerank-unused-controls` header and `/info` use, whatever the dialect's spelling).
 */
export type RequestControl = 'instruction' | 'max_tokens_per_doc' | 'max_tokens_per_query' | 'truncation_side' | 'priority';

/** The controls a model's scoring can use (`priority` is used by none: it changes no score and no order here). */
export const REQUEST_CONTROLS: readonly RequestControl[] = ['instruction', 'max_tokens_per_doc', 'max_tokens_per_query', 'truncation_side'];

/** The token controls a model with a tokenizer of its own applies (cross-encoder, bi-encoder, LLM reranker). */
export const TOKEN_CONTROLS: readonly RequestControl[] = ['max_tokens_per_doc', 'max_tokens_per_query', 'truncation_side'];

/** The model families a served model belongs to (a hybrid is its model part's, for the controls). */
export type ModelFamily = 'cross-encoder' | 'bi-encoder' | 'llm-reranker' | 'lexical' | 'upstream';

/**
 * The controls each family's scoring uses: what its scorers declare (Scorer.controls) and what docs/api.md's family
 * table says; a control not listed is accepted, left out and reported unused. A cross-encoder or a bi-encoder has no
 * instruction slot; BM25 and an upstream API read whole texts.
 */
export const FAMILY_CONTROLS: Readonly<Record<ModelFamily, readonly RequestControl[]>> = {
  'cross-encoder': TOKEN_CONTROLS,
  'bi-encoder': TOKEN_CONTROLS,
  'llm-reranker': REQUEST_CONTROLS,
  lexical: [],
  upstream: [],
};

/** Which end a cut keeps (declared with the request, which carries it). */
export type { TruncationSide } from './rerank-request.js';

/** The controls a request carries. */
export function controlsSent(request: RerankRequest): RequestControl[] {
  const sent: RequestControl[] = [];
  if (request.prompt !== undefined) sent.push('instruction');
  if (request.maxTokensPerDocument !== undefined) sent.push('max_tokens_per_doc');
  if (request.maxTokensPerQuery !== undefined) sent.push('max_tokens_per_query');
  if (request.truncationSide !== undefined) sent.push('truncation_side');
  if (request.priority !== undefined) sent.push('priority');
  return sent;
}

/** The controls a request carries that its scorer has no use for: accepted, left out of scoring, reported. */
export const unusedControls = (request: RerankRequest, controls: readonly RequestControl[] | undefined): RequestControl[] =>
  controlsSent(request).filter((control) => !(controls ?? []).includes(control));

/** The first (`right`) or last (`left`) `max` items, or all of them when there are no more. */
export function keepTokens<T>(items: readonly T[], max: number | undefined, side: TruncationSide | undefined): readonly T[] {
  if (max === undefined || items.length <= max) return items;
  return side === 'left' ? items.slice(items.length - max) : items.slice(0, max);
}

/**
 * What a scorer cut: the query's kept token count when it was cut, and `[index, kept tokens]` of each cut document;
 * `more`: cut documents past those listed (a stored report lists at most MAX_STORED_CUTS).
 */
export interface TokenCuts {
  readonly query?: number;
  readonly documents: readonly (readonly [number, number])[];
  readonly more?: number;
}

/**
 * Cut documents a job's or a batch line's report keeps listed (in the ledger per chunk, in the stored result): the rest
 * are counted, so what is stored stays bounded whatever the candidate count (a corpus line: a million documents).
 */
export const MAX_STORED_CUTS = 1_000;

/**
 * The cuts of a request's chunks, added in chunk order (document indices offset to the request's): the first
 * MAX_STORED_CUTS cut documents listed, in index order, the rest counted. Once one is counted, every later one is, so
 * what is listed is always the request's first cuts.
 */
export class CutsTally {
  #query: number | undefined;
  readonly #documents: [number, number][] = [];
  #more = 0;

  add(cuts: TokenCuts | undefined, offset = 0): this {
    if (!cuts) return this;
    this.#query = cuts.query ?? this.#query;
    for (const [index, kept] of cuts.documents) {
      if (this.#more === 0 && this.#documents.length < MAX_STORED_CUTS) this.#documents.push([index + offset, kept]);
      else this.#more += 1;
    }
    this.#more += cuts.more ?? 0;
    return this;
  }

  /** What was added, or undefined when nothing was cut. */
  get cuts(): TokenCuts | undefined {
    if (this.#query === undefined && this.#documents.length === 0 && this.#more === 0) return undefined;
    return {
      ...(this.#query === undefined ? {} : { query: this.#query }),
      documents: [...this.#documents],
      ...(this.#more > 0 ? { more: this.#more } : {}),
    };
  }
}

/** Documents a header names at most: a header is not a body (proxies refuse ones past 8-16 KB); the rest are counted. */
const MAX_LISTED = 100;

/**
 * The `x-rerank-truncated` header: `query=12, 0=512, 3=512` (document index = kept tokens), the first 100 cut documents
 * then `+N more`; absent when nothing was cut.
 */
export function truncatedHeader(cuts: TokenCuts | undefined): string | undefined {
  if (!cuts || (cuts.query === undefined && cuts.documents.length === 0 && !cuts.more)) return undefined;
  const listed = cuts.documents.slice(0, MAX_LISTED).map(([index, kept]) => `${index}=${kept}`);
  const more = cuts.documents.length - listed.length + (cuts.more ?? 0);
  return [...(cuts.query === undefined ? [] : [`query=${cuts.query}`]), ...listed, ...(more > 0 ? [`+${more} more`] : [])].join(', ');
}

/** The same, in words (Cohere v2's `meta.warnings`). */
export function truncationWarnings(cuts: TokenCuts | undefined): string[] {
  if (!cuts) return [];
  return [
    ...(cuts.query === undefined ? [] : [`query truncated to ${cuts.query} tokens`]),
    ...cuts.documents.map(([index, kept]) => `document ${index} truncated to ${kept} tokens`),
    ...(cuts.more ? [`${cuts.more} more documents truncated`] : []),
  ];
}
