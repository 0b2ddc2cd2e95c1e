import type { JsonSchema } from './json-schema.js';

/**
 * Pieces the dialects' response schemas share. Nearly every rerank API answers a list of results, each the document's
 * position in the request (`index`) and its score under the vendor's own name (`relevance_score`, `score`, `logit`...),
 * then whatever else that vendor adds. The vendors differ in those names and extras, so each dialect still spells its
 * own response; these build the part they have in common, key for key in the order `/openapi.json` has always listed.
 */

export interface ScoredResultOptions {
  readonly indexDescription?: string;
  readonly scoreDescription?: string;
  /** The vendor's fields after index and score, in its documented order. */
  readonly more?: Readonly<Record<string, JsonSchema>>;
  /** Those of `more` every result carries. */
  readonly moreRequired?: readonly string[];
}

const describedAs = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description === undefined ? schema : { ...schema, description };

/** `{index, <scoreName>, ...more}`: one ranked document, its position in the request's list and its score. */
export function scoredResultSchema(scoreName: string, options: ScoredResultOptions = {}): JsonSchema {
  return {
    type: 'object',
    required: ['index', scoreName, ...(options.moreRequired ?? [])],
    properties: {
      index: describedAs({ type: 'integer', minimum: 0 }, options.indexDescription),
      [scoreName]: describedAs({ type: 'number' }, options.scoreDescription),
      ...options.more,
    },
  };
}

/** What every sorted reply promises about its order (the sort is stable: equal scores keep the order sent). */
const BEST_FIRST = 'Best first; ties keep the input order.';

/** A list of results sorted best first; `more` is said after that. */
export const bestFirstList = (items: JsonSchema, more?: string): JsonSchema => ({
  type: 'array',
  description: more === undefined ? BEST_FIRST : `${BEST_FIRST} ${more}`,
  items,
});

/** OpenAI's token usage as embedding-style APIs answer it (Mixedbread, vLLM): prompt and total, completion optional. */
export const PROMPT_TOKEN_USAGE: JsonSchema = {
  type: 'object',
  required: ['prompt_tokens', 'total_tokens'],
  properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' } },
};
