import { invalidRequest } from '../../core/rerank-error.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { defineWireFields } from '../define-wire-fields.js';
import type { JsonSchema } from '../json-schema.js';
import { at, type WireType } from '../wire-field.js';
import { describeJsonValue, expectObject, optionalStringValue, stringValue } from '../wire-fields.js';
import { integerOrAbsent } from '../wire-types.js';

/** Bedrock's `RerankTextDocument`: `{text}`. */
const TEXT_DOCUMENT: JsonSchema = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } };

const QUERY_ITEM: JsonSchema = {
  type: 'object',
  required: ['type', 'textQuery'],
  properties: { type: { const: 'TEXT', 'x-error-hint': 'Bedrock reranks text queries only' }, textQuery: TEXT_DOCUMENT },
};

/** `{type: "INLINE", inlineDocumentSource: {type: "TEXT", textDocument: {text}} | {type: "JSON", jsonDocument}}`. */
const SOURCE_ITEM: JsonSchema = {
  type: 'object',
  required: ['type', 'inlineDocumentSource'],
  properties: {
    type: { const: 'INLINE', 'x-error-hint': 'sources are sent inline' },
    inlineDocumentSource: {
      anyOf: [
        { type: 'object', required: ['type', 'textDocument'], properties: { type: { const: 'TEXT' }, textDocument: TEXT_DOCUMENT } },
        { type: 'object', required: ['type', 'jsonDocument'], properties: { type: { const: 'JSON' }, jsonDocument: {} } },
      ],
    },
  },
};

/** Bedrock takes exactly one query, a text one; its text is the query scored. */
const QUERIES: WireType<string> = {
  schema: { type: 'array', minItems: 1, maxItems: 1, items: QUERY_ITEM, description: 'Exactly one `{type: "TEXT", textQuery: {text}}`.' },
  required: true,
  read(value, param) {
    if (!Array.isArray(value) || value.length !== 1) throw invalidRequest(`${param} must hold exactly one query`, param);
    const query = expectObject(value[0], `${param}[0]`);
    return stringValue(expectObject(query['textQuery'], `${param}[0].textQuery`)['text'], `${param}[0].textQuery.text`);
  },
};

/**
 * A JSON document is scored as its JSON text (as Bedrock hands JSON documents to the model); every source comes back
 * in its result as sent.
 */
function readSource(item: unknown, param: string): RerankDocument {
  const inline = expectObject(expectObject(item, param)['inlineDocumentSource'], `${param}.inlineDocumentSource`);
  if (inline['type'] === 'TEXT') {
    const text = stringValue(
      expectObject(inline['textDocument'], `${param}.inlineDocumentSource.textDocument`)['text'],
      `${param}.inlineDocumentSource.textDocument.text`,
    );
    return { text, source: inline };
  }
  const json = inline['jsonDocument'];
  if (json === undefined)
    throw invalidRequest(`${param}.inlineDocumentSource.jsonDocument is required`, `${param}.inlineDocumentSource.jsonDocument`);
  return { text: JSON.stringify(json), source: inline };
}

const SOURCES: WireType<RerankDocument[]> = {
  schema: {
    type: 'array',
    minItems: 1,
    items: SOURCE_ITEM,
    description: 'Inline text or JSON documents; a JSON document is scored as its JSON text.',
  },
  required: true,
  read(value, param) {
    if (!Array.isArray(value)) throw invalidRequest(`${param} must be an array, got ${describeJsonValue(value)}`, param);
    return value.map((item: unknown, i) => readSource(item, `${param}[${i}]`));
  },
};

/**
 * Bedrock names its model by ARN (`arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0`): the last path
 * segment is the model, looked up as any model name (Bedrock's ids alias the default model).
 */
export const modelOfArn = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1);

const MODEL_ARN: WireType<string | undefined> = {
  schema: {
    type: 'string',
    minLength: 1,
    description: "A model ARN; its last segment names the model (Bedrock's model ids alias the default model).",
  },
  required: true,
  read: (value, param) => {
    const arn = optionalStringValue(value, param);
    return arn === undefined ? undefined : modelOfArn(arn);
  },
};

/** The reranking configuration's path in the body. */
const CONFIG = ['rerankingConfiguration', 'bedrockRerankingConfiguration'] as const;

const CONFIG_TYPE: WireType<unknown> = {
  schema: { const: 'BEDROCK_RERANKING_MODEL' },
  required: true,
  read: (value) => value,
};

/** Only the first page exists here (every result is answered at once), so no `nextToken` is ever handed out. */
const NEXT_TOKEN: WireType<undefined> = {
  schema: { type: ['string', 'null'], description: 'Never issued by this service (every result comes in one page): a token is refused.' },
  required: false,
  read: (value, param) => {
    if (optionalStringValue(value, param) !== undefined)
      throw invalidRequest(`${param} was not issued by this service: every result is answered in one page`, param);
    return undefined;
  },
};

const ADDITIONAL_FIELDS: WireType<unknown> = {
  schema: { type: ['object', 'null'], description: 'Accepted and ignored (model-specific fields of hosted models).' },
  required: false,
  read: (value) => value,
};

/** The body of Amazon Bedrock's `Rerank` (`POST /rerank`, bedrock-agent-runtime), told apart on `/rerank` by `queries` + `sources`. */
export const bedrockRequestFields = defineWireFields({
  title: 'BedrockRerankRequest',
  description: "Amazon Bedrock's Rerank body (bedrock-agent-runtime): the answer is Bedrock's `{results, nextToken}`.",
  inputs: {
    configType: at(['rerankingConfiguration', 'type'], CONFIG_TYPE),
    additionalFields: at([...CONFIG, 'modelConfiguration', 'additionalModelRequestFields'], ADDITIONAL_FIELDS),
    nextToken: at('nextToken', NEXT_TOKEN),
  },
  fields: {
    query: at('queries', QUERIES),
    documents: at('sources', SOURCES),
    model: at([...CONFIG, 'modelConfiguration', 'modelArn'], MODEL_ARN),
    topN: at([...CONFIG, 'numberOfResults'], integerOrAbsent(1, 'How many results to return, best first; absent = all.')),
  },
});

/** Bedrock's body on `/rerank` carries `queries` and `sources`; the OpenAI-compatible and TEI bodies carry neither. */
export const isBedrockBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && 'queries' in body && 'sources' in body;
