import type { RerankError } from '../../core/rerank-error.js';
import type { RerankOutcome } from '../../core/rerank-outcome.js';
import { declaredParse } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { nimRequestFields } from './nim-request-fields.js';
import { fastApiErrorSchema, nimResponseSchema } from './nim-response-schema.js';

/** Clients take a base URL ending in `/v1` and append `/ranking` (LangChain and LlamaIndex `NVIDIARerank`, Haystack). */
const NIM_RANKING_PATH = '/v1/ranking';

const declared = declaredParse(nimRequestFields);

/** FastAPI's `{detail}`: what NIM answers and what its clients print. */
export function formatFastApiError(error: RerankError): DialectResponse {
  return { status: error.status, body: { detail: error.publicMessage } };
}

/**
 * NVIDIA NIM text reranking: `POST /v1/ranking {model, query: {text}, passages: [{text}], truncate}` ->
 * `{rankings: [{index, logit}]}` best first. NIM returns logits (its clients sort by them and some threshold them at 0):
 * a cross-encoder's own output, and a calibrated model's probability as its log-odds. Extension: `batch_size`.
 */
export const nimDialect: Dialect = {
  name: 'nim',
  paths: [NIM_RANKING_PATH],
  example: {
    model: 'nvidia/nv-rerankqa-mistral-4b-v3',
    query: { text: EXAMPLE_QUERY },
    passages: EXAMPLE_DOCUMENTS.map((text) => ({ text })),
    truncate: 'END',
  },
  ...declared,
  parse: (body) => ({ ...declared.parse(body), activation: 'logit' }),
  responseSchema: nimResponseSchema,
  errorSchema: fastApiErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return { status: 200, body: { rankings: outcome.results.map((r) => ({ index: r.index, logit: r.score })) } };
  },

  formatError: formatFastApiError,
};
