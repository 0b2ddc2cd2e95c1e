import type { JsonSchema } from '../json-schema.js';
import { scoredResultSchema } from '../response-schema-parts.js';

export const ragToolResponseSchema = {
  title: 'RagToolRerankResponse',
  type: 'object',
  required: ['reranked_documents', 'metadata'],
  properties: {
    reranked_documents: { type: 'array', items: scoredResultSchema('relevance_score') },
    metadata: {
      type: 'object',
      description: 'Only `query` when no documents were sent.',
      properties: {
        query: { type: 'string' },
        total_chunks: { type: 'integer' },
        raw_scores: {
          type: 'array',
          items: { type: ['number', 'null'] },
          description: "The scorer's own scores, in input order; null for a failed pair.",
        },
        execution_time_ms: { type: 'number' },
        mean_score: { type: 'number' },
        std_score: { type: 'number' },
        score_gap: { type: 'number' },
        strategy: { type: 'string' },
        model: { type: 'string' },
        fallback: { const: true, description: 'Present when scoring failed and the input order was answered.' },
      },
    },
  },
} as const satisfies JsonSchema;
