import { BoostTermMatcher } from './boost-term-matcher.js';
import type { BoostRule, RerankDocument } from './rerank-request.js';

const lower = (s: string) => s.toLocaleLowerCase();

/** Reads `a.b.c` from a document's source object (metadata fields clients send with documents); own properties only. */
function fieldValue(source: Readonly<Record<string, unknown>> | undefined, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The `boost` strategy's documented rule, applied to activated scores:
 * score + termWeight x (boost terms contained / boost terms) + sum of matching field weights.
 * Terms match case-insensitively as substrings; fields match by strict equality. Every document's
 * text is read once whatever the number of terms (see BoostTermMatcher; the bounds are in request-bounds).
 */
export function applyBoost(scores: readonly number[], documents: readonly RerankDocument[], rule: BoostRule): number[] {
  const terms = rule.terms.map(lower).filter(Boolean);
  const matcher = terms.length === 0 ? undefined : new BoostTermMatcher(terms);
  return scores.map((score, i) => {
    const document = documents[i] as RerankDocument;
    const termShare = matcher ? matcher.countContained(lower(document.text)) / matcher.termCount : 0;
    const fieldBoost = rule.fields.reduce((sum, f) => (fieldValue(document.source, f.field) === f.value ? sum + f.weight : sum), 0);
    return score + rule.termWeight * termShare + fieldBoost;
  });
}
