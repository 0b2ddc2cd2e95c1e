import type { JsonSchema } from './json-schema.js';

/**
 * Pieces the dialects' request schemas share. Optional fields accept `null` as absent, as the readers do
 * (Python clients send `None` for "unset"). The dialects pair them with their readers in shared/dialects/wire-types.ts.
 */

export const optionalString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });

export const optionalBoolean = (description: string): JsonSchema => ({ type: ['boolean', 'null'], description });

export const optionalNumber = (description: string): JsonSchema => ({ type: ['number', 'null'], description });

export const optionalInteger = (minimum: number, description: string): JsonSchema => ({ type: ['integer', 'null'], minimum, description });

/** A document: a string, or an object with a string `text` (Cohere / Jina style; returned as sent). */
export const DOCUMENT: JsonSchema = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string' } },
      description: 'Scored by its `text`; returned as sent.',
    },
  ],
};

export const documentList = (description: string): JsonSchema => ({ type: 'array', minItems: 1, items: DOCUMENT, description });

const TEXT_ONLY = 'only text items {"type": "text", "text": "..."} can be reranked';

/** An OpenAI-style text part, `{type: "text", text}` (`type` may be left out). Image items are refused. */
const TEXT_ITEM: JsonSchema = {
  type: 'object',
  required: ['text'],
  properties: { type: { const: 'text', 'x-error-hint': TEXT_ONLY }, text: { type: 'string' } },
  'x-error-hint': TEXT_ONLY,
};

/** A string or a text item: one Llama Stack content item. Image items cannot be scored by a text reranker. */
export const CONTENT_ITEM: JsonSchema = { anyOf: [{ type: 'string' }, TEXT_ITEM] };

/** Llama Stack InterleavedContent: a content item, or a non-empty list of them (joined with a space). */
export const INTERLEAVED_CONTENT: JsonSchema = {
  anyOf: [{ type: 'string' }, TEXT_ITEM, { type: 'array', minItems: 1, items: CONTENT_ITEM }],
};
