import { defineWireFields } from '../define-wire-fields.js';
import { at } from '../wire-field.js';
import { QUERY, asSent, stringDocuments } from '../wire-types.js';

/**
 * The body Weaviate's `reranker-transformers` module posts to its inference container: `{query, documents, property}`
 * (at most 32 documents a request: Weaviate splits larger sets itself).
 */
export const weaviateRequestFields = defineWireFields({
  title: 'WeaviateRerankRequest',
  description: "Weaviate's reranker-transformers body; answered `{query, scores}` in input order.",
  inputs: {
    property: at('property', asSent({ type: ['string', 'null'], description: 'Sent by Weaviate (the ranked property); ignored.' })),
  },
  fields: {
    query: at('query', QUERY),
    documents: at('documents', stringDocuments('Strings, as Weaviate sends them.')),
  },
});
