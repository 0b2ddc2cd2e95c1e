import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import type { JsonSchema } from '../json-schema.js';
import { DOCUMENT } from '../request-schema-parts.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, withDefault, type WireType } from '../wire-field.js';
import { optionalStringArrayValue, readDocuments, readRankFieldDocuments } from '../wire-fields.js';
import { CORPUS_FILE_INPUT, PRIORITY_FIELD, TOKEN_CONTROL_FIELDS, cohereStyleCore, scoringExtensions } from '../wire-field-groups.js';
import { INSTRUCTION, TOP_N, TRUNCATE, booleanOrAbsent, integerOrAbsent } from '../wire-types.js';

/** Cohere v1's `rank_fields`: a non-empty list of the document fields to score. */
const RANK_FIELDS: WireType<string[] | undefined> = {
  schema: {
    type: ['array', 'null'],
    minItems: 1,
    items: { type: 'string' },
    description:
      'Cohere v1: score each (object) document as its listed fields, serialized as `field: value` lines; a listed field a document lacks is a 400.',
  },
  required: false,
  read(value, param) {
    const fields = optionalStringArrayValue(value, param);
    if (fields?.length === 0) throw invalidRequest(`${param} must name at least one field`, param);
    return fields;
  },
};

/** Contextual AI's `metadata`: one string per document (empty = none), read with its document. */
const METADATA: WireType<string[] | undefined> = {
  schema: {
    type: ['array', 'null'],
    items: { type: 'string' },
    description:
      'Contextual AI: one string per document (its date, source, type; empty = none), given to the model with its document so an `instruction` can refer to it. As many as `documents`.',
  },
  required: false,
  read: optionalStringArrayValue,
};

interface DocumentsContext {
  readonly rankFields: string[] | undefined;
  readonly metadata: string[] | undefined;
}

/** Each document with its metadata string; a list of another length than the documents is a 400 naming `metadata`. */
function withMetadata(documents: RerankDocument[], metadata: string[] | undefined): RerankDocument[] {
  if (metadata === undefined) return documents;
  if (metadata.length !== documents.length) {
    throw invalidRequest(
      `metadata has ${metadata.length} items for ${documents.length} documents; send one string per document`,
      'metadata',
    );
  }
  return documents.map((document, i) => (metadata[i] === '' ? document : { ...document, metadata: metadata[i] as string }));
}

/** With `rank_fields`, any object is a document (its listed fields are scored); without, objects need `text`. */
const DOCUMENTS: WireType<RerankDocument[], DocumentsContext> = {
  schema: {
    type: 'array',
    minItems: 1,
    description:
      'Strings, or objects with a string `text` (objects are returned as sent). With `rank_fields`: any objects (or strings, read as `{text}`).',
  },
  required: true,
  read: (value, param, { rankFields, metadata }) =>
    withMetadata(rankFields ? readRankFieldDocuments(value, param, rankFields) : readDocuments(value, param), metadata),
};

const RANK_FIELDS_SENT: JsonSchema = { type: 'object', required: ['rank_fields'], properties: { rank_fields: { type: 'array' } } };

/** The body of `POST /v1/rerank` (Jina / Cohere v1 style). */
export const openAiRequestFields = defineWireFields({
  title: 'OpenAiRerankRequest',
  inputs: { rankFields: at('rank_fields', RANK_FIELDS), metadata: at('metadata', METADATA), ...CORPUS_FILE_INPUT },
  fields: {
    maxChunksPerDoc: at(
      'max_chunks_per_doc',
      integerOrAbsent(1, 'Cohere v1: split long documents into word windows; a document scores as its best chunk.'),
    ),
    ...cohereStyleCore(DOCUMENTS),
    topN: at('top_n', TOP_N),
    returnDocuments: at('return_documents', withDefault(booleanOrAbsent('true = every result carries its document.'), false)),
    ...scoringExtensions(),
    truncate: at('truncate', TRUNCATE),
    prompt: at('instruction', INSTRUCTION),
    ...TOKEN_CONTROL_FIELDS,
    ...PRIORITY_FIELD,
  },
  rules: {
    if: RANK_FIELDS_SENT,
    then: { properties: { documents: { type: 'array', items: { type: ['string', 'object'] } } } },
    else: { properties: { documents: { type: 'array', items: DOCUMENT } } },
  },
});
