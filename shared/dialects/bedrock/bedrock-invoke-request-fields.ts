import { invalidRequest } from '../../core/rerank-error.js';
import { defineWireFields } from '../define-wire-fields.js';
import { at, described, type WireType } from '../wire-field.js';
import { optionalIntegerValue } from '../wire-fields.js';
import { cohereStyleCore } from '../wire-field-groups.js';
import { TOP_N, integerOrAbsent } from '../wire-types.js';
import { COHERE_V2_DOCUMENTS } from '../cohere-v2/cohere-v2-request-fields.js';

/** Cohere Rerank 3.5 on Bedrock speaks Cohere's v2 rerank: `api_version` 2 (absent is read as 2). */
const API_VERSION: WireType<undefined> = {
  schema: {
    type: ['integer', 'null'],
    description: "Cohere's rerank API version: 2 (Cohere Rerank 3.5 on Bedrock); any other is refused.",
  },
  required: false,
  read: (value, param) => {
    const version = optionalIntegerValue(value, param, 0);
    if (version !== undefined && version !== 2) throw invalidRequest(`${param} must be 2: the Cohere v2 rerank body is served`, param);
    return undefined;
  },
};

/**
 * The body of Bedrock's InvokeModel for Cohere's rerank (`POST /model/{model}/invoke`), as boto3's `bedrock-runtime`
 * `invoke_model`, OpenSearch's Bedrock connector and cohere-ai's `BedrockClientV2` send it. The model is the path's.
 */
export const bedrockInvokeRequestFields = defineWireFields({
  title: 'BedrockInvokeCohereRerankRequest',
  description: "Cohere's rerank body as Bedrock's InvokeModel takes it; the model is named by the path.",
  inputs: { apiVersion: at('api_version', API_VERSION) },
  fields: {
    ...cohereStyleCore(
      described(COHERE_V2_DOCUMENTS, 'Strings only (Cohere v2).'),
      'Not sent by Bedrock clients: the model is the path segment `{model}`, which replaces it.',
    ),
    topN: at('top_n', TOP_N),
    maxTokensPerDocument: at(
      'max_tokens_per_doc',
      integerOrAbsent(1, "Scores only each document's first this many tokens of the served model's tokenizer."),
    ),
  },
});
