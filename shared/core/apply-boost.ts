import type { BoostRule, RerankDocument } from './rerank-request.js';

const lower = (s: string) => s.toLocaleLowerCase();

/** Reads `a.b.c` from a document's source object (metadata fields clients send with documents). */
function fieldValue(source: Readonly<Record<string, unknown>> | undefined, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The `boost` strategy's documented rule, applied to activated scores:
 * score + termWeight x (boost terms contained / boost terms) + sum of matching field weights.
 * Terms match case-insensitively as substrings; fields match by strict equality.
 */
export function applyBoost(scores: readonly number[], documents: readonly RerankDocument[], rule: BoostRule): number[] {
  const terms = rule.terms.map(lower).filter(Boolean);
  return scores.map((score, i) => {
    const document = documents[i] as RerankDocument;
    const text = lower(document.text);
    const termShare = terms.length === 0 ? 0 : terms.filter((t) => text.includes(t)).length / terms.length;
    const fieldBoost = rule.fields.reduce((sum, f) => (fieldValue(document.source, f.field) === f.value ? sum + f.weight : sum), 0);
    return score + rule.termWeight * termShare + fieldBoost;
  });
}
