import type { JsonSchema } from '../json-schema.js';
import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument, RerankStrategy } from '../../core/rerank-request.js';
import { INTERLEAVED_CONTENT, optionalBoolean, optionalNumber, optionalString } from '../request-schema-parts.js';
import { defineWireFields } from '../define-wire-fields.js';
import { readInterleavedText } from '../llama-stack/interleaved-content.js';
import { at, withDefault, type WireType } from '../wire-field.js';
import { optionalStringValue } from '../wire-fields.js';
import { RAW_SCORES, THRESHOLD, asSent, integerOrAbsent, stringOrAbsent } from '../wire-types.js';
import { readRagDocuments } from './rag-documents.js';

/** Llama Stack's RAGDocument: its `content` (InterleavedContent) is scored; URL contents would need fetching. */
const RAG_DOCUMENT: JsonSchema = {
  type: 'object',
  required: ['content'],
  properties: {
    content: {
      allOf: [
        {
          not: { type: 'object', required: ['uri'], properties: { uri: {} } },
          'x-error-hint': 'URL contents are not fetched; send the document text',
        },
        INTERLEAVED_CONTENT,
      ],
    },
    document_id: { description: 'Kept with the document (boost rules may match its fields).' },
    metadata: { description: 'Kept with the document; boost fields such as `metadata.source` match it.' },
  },
};

const BOOST_FIELD: JsonSchema = {
  type: 'object',
  required: ['field', 'value', 'weight'],
  properties: {
    field: { type: 'string', description: 'A document field (dotted path) to compare.' },
    value: { type: ['string', 'number', 'boolean'] },
    weight: { type: 'number', description: 'Added to the score of documents whose field equals the value.' },
  },
};

/** Upstream settings count only with an `api_url`: without one they are not read (so not checked either). */
const UPSTREAM_SENT: JsonSchema = { type: 'object', required: ['api_url'], properties: { api_url: { type: 'string' } } };

const RERANK_CONFIG: JsonSchema = {
  type: ['object', 'null'],
  properties: {
    api_url: optionalString(
      'An external rerank provider (absolute http(s) URL; its host must be allowed by RERANK_UPSTREAM_ALLOWED_HOSTS).',
    ),
    api_key: { description: "The provider's key (only read with api_url; never echoed)." },
    mode: { description: "The provider's dialect: openai, dashscope or chat (any case; only read with api_url)." },
    model: { description: "The provider's model (only read with api_url)." },
    timeout: { description: 'Seconds, > 0, capped at 30 (only read with api_url).' },
    boost: {
      type: ['object', 'null'],
      properties: {
        terms: { type: ['array', 'null'], items: { type: 'string' } },
        weight: optionalNumber('Weight of the share of boost terms a document contains (default 0.1).'),
        fields: { type: ['array', 'null'], items: BOOST_FIELD },
      },
    },
    fallback: optionalBoolean('true (default) = answer the input order when scoring fails.'),
  },
  if: UPSTREAM_SENT,
  then: {
    properties: {
      api_key: optionalString("The provider's key."),
      mode: optionalString('openai, dashscope or chat (any case).'),
      model: optionalString("The provider's model."),
      timeout: { type: ['number', 'null'], exclusiveMinimum: 0 },
    },
  },
};

/** The Llama Stack RAG tool's `top_k: int = 5`. */
export const DEFAULT_TOP_K = 5;

const STRATEGIES: readonly RerankStrategy[] = ['none', 'default', 'boost', 'hybrid', 'llm_rerank'];

/** RerankingStrategy by value or by name (clients send `"DEFAULT"`); `RERANK` is an alias of default. */
const STRATEGY: WireType<RerankStrategy> = {
  schema: optionalString('none, default (alias rerank), boost, hybrid or llm_rerank, in any case (default: default).'),
  required: false,
  read(value, param) {
    const name = optionalStringValue(value, param)?.toLowerCase();
    if (name === undefined || name === 'rerank') return 'default';
    if (!STRATEGIES.includes(name as RerankStrategy))
      throw invalidRequest(`${param} must be one of ${STRATEGIES.join(', ')} (any case)`, param);
    return name as RerankStrategy;
  },
};

const INTERLEAVED_TEXT: WireType<string> = {
  schema: { ...INTERLEAVED_CONTENT, description: 'InterleavedContent: a string, a text item, or a non-empty list of them (joined).' },
  required: true,
  read: readInterleavedText,
};

const RAG_DOCUMENTS: WireType<RerankDocument[]> = {
  schema: {
    type: 'array',
    items: { anyOf: [{ type: 'string' }, RAG_DOCUMENT] },
    description: 'RAGDocuments `{document_id, content, metadata}` or strings; an empty list is answered with an empty ranking.',
  },
  required: true,
  read: readRagDocuments,
};

/**
 * The body of the RAG tool's `POST /tool-runtime/rag-tool/rerank`. The strategy, the model id and `rerank_config`
 * shape each other (an upstream's model, its default mode), so the dialect reads them together (readRagRerankConfig).
 */
export const ragToolRequestFields = defineWireFields({
  title: 'RagToolRerankRequest',
  inputs: {
    strategy: at('rerank_strategy', STRATEGY),
    modelId: at('reranker_model_id', stringOrAbsent("A served model id, or the upstream's model when rerank_config.api_url is given.")),
    rerankConfig: at('rerank_config', asSent(RERANK_CONFIG)),
  },
  fields: {
    query: at('query', INTERLEAVED_TEXT),
    documents: at('retrieved_docs', RAG_DOCUMENTS),
    topN: at('top_k', withDefault(integerOrAbsent(0, 'How many results to return (default 5).'), DEFAULT_TOP_K)),
    threshold: at('rerank_threshold', THRESHOLD),
    activation: at('raw_scores', RAW_SCORES),
  },
});
