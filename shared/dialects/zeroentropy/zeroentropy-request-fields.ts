import { defineWireFields } from '../define-wire-fields.js';
import { at, described } from '../wire-field.js';
import { BATCH_SIZE, LATENCY, MODEL, QUERY, TOP_N, stringDocuments } from '../wire-types.js';

/** The body of ZeroEntropy's `POST /v1/models/rerank` (the `zeroentropy` client's `models.rerank()`). */
export const zeroEntropyRequestFields = defineWireFields({
  title: 'ZeroEntropyRerankRequest',
  description:
    "ZeroEntropy's rerank body; the answer is `{results: [{index, relevance_score}], actual_latency_mode, e2e_latency, inference_latency, total_bytes, total_tokens}`.",
  fields: {
    model: at(
      'model',
      described(MODEL, 'Required by ZeroEntropy; its names (`zerank-2`, `zerank-1`, `zerank-1-small`) alias the default model.'),
    ),
    query: at('query', QUERY),
    documents: at('documents', stringDocuments('The documents to rank, strings only.')),
    topN: at('top_n', TOP_N),
    latency: at('latency', LATENCY),
    batchSize: at('batch_size', BATCH_SIZE),
  },
});
