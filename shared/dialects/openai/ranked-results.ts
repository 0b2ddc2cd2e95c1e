import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { documentObject } from '../document-object.js';

/**
 * The results as RANKED_RESULT describes them, `{index, relevance_score, document?}` best first: the list the
 * OpenAI-compatible, Cohere v2 (and so Bedrock's InvokeModel) and DashScope replies carry, each in its own envelope.
 */
export const rankedResults = (outcome: RerankOutcome): Record<string, unknown>[] =>
  outcome.results.map((r) => ({
    index: r.index,
    relevance_score: r.score,
    ...(r.document ? { document: documentObject(r.document) } : {}),
  }));
