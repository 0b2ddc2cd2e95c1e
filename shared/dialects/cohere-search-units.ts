import type { RerankOutcome } from '../core/rerank-outcome.js';
import type { RerankRequest } from '../core/rerank-request.js';
import { truncationWarnings } from '../core/request-controls.js';

/** Cohere's unit: "one query with up to 100 documents to be ranked" (cohere.com/pricing). */
const DOCUMENTS_PER_SEARCH_UNIT = 100;

/**
 * `meta.billed_units.search_units` as Cohere counts it: one per query and every started 100 documents, a chunk of a
 * document split by `max_chunks_per_doc` counting as a document. Billing is not ours to do; the figure is there
 * because Cohere clients read it (LangChain and LiteLLM report it as cost). A request always costs at least one.
 */
export function cohereSearchUnits(outcome: RerankOutcome, request?: RerankRequest): number {
  const scored = outcome.usage.pairs ?? request?.documents.length ?? outcome.results.length;
  return Math.max(1, Math.ceil(scored / DOCUMENTS_PER_SEARCH_UNIT));
}

/**
 * Cohere's `meta` for an API version ('1' on `/v1/rerank`, '2' on `/v2/rerank`); its `warnings` (Cohere's own place for
 * them) say what was cut and which sent controls went unused, and are left out when there is nothing to say.
 */
export const cohereMeta = (version: '1' | '2', outcome: RerankOutcome, request?: RerankRequest) => {
  const warnings = [
    ...truncationWarnings(outcome.cuts),
    ...(outcome.unusedControls ?? []).map((control) => `${control} is not used by model ${outcome.model}`),
  ];
  return {
    api_version: { version },
    billed_units: { search_units: cohereSearchUnits(outcome, request) },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
};
