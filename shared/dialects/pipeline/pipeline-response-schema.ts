import type { JsonSchema } from '../json-schema.js';

export const pipelineResponseSchema = {
  title: 'PipelineRerankResponse',
  type: 'object',
  required: ['reranking_results', 'reranking_docs', 'reranking_time'],
  description: 'The request dict, every field unchanged, plus the reranking stage outputs.',
  properties: {
    reranking_results: {
      type: 'array',
      items: { type: 'object', required: ['text', 'score'], properties: { text: { type: 'string' }, score: { type: 'number' } } },
      description: 'Best first.',
    },
    reranking_docs: { type: 'array', items: { type: 'string' }, description: 'The texts of reranking_results, in order.' },
    reranking_time: { type: 'number', description: 'Seconds.' },
  },
} as const satisfies JsonSchema;
