import type { JsonSchema } from '../json-schema.js';
import { objectSchema } from '../object-schema.js';
import { bestFirstList, scoredResultSchema } from '../response-schema-parts.js';

/** ZeroEntropy's ModelRerankResponse (as the `zeroentropy` client types it). */
export const zeroEntropyResponseSchema: JsonSchema = objectSchema(
  {
    actual_latency_mode: {
      enum: ['fast', 'slow'],
      description: '`fast`: scored synchronously; `slow`: answered by a queued job.',
    },
    e2e_latency: { type: 'number', description: 'Seconds from the request to its answer.' },
    inference_latency: { type: 'number', description: 'Seconds of scoring.' },
    results: bestFirstList(scoredResultSchema('relevance_score', { scoreDescription: 'In [0, 1].' })),
    total_bytes: {
      type: 'integer',
      description: "UTF-8 bytes of the query and the documents (0 in a polled job's answer, which has no request).",
    },
    total_tokens: { type: 'integer', description: 'Tokens the model read.' },
  },
  { title: 'ZeroEntropyRerankResponse' },
);
