import { declaredParse } from '../define-wire-fields.js';
import type { Dialect } from '../dialect.js';
import { cohereV2Dialect } from '../cohere-v2/cohere-v2-dialect.js';
import { cohereV2ResponseSchema } from '../cohere-v2/cohere-v2-response-schema.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatBedrockError } from './bedrock-error-envelope.js';
import { BEDROCK_KEY_PLACEMENT } from './bedrock-key-placement.js';
import { bedrockInvokeRequestFields } from './bedrock-invoke-request-fields.js';
import { bedrockErrorSchema } from './bedrock-response-schema.js';

/** bedrock-runtime's InvokeModel path; `{model}` is the model id (`cohere.rerank-v3-5:0` aliases the default model). */
const BEDROCK_INVOKE_PATH = '/model/{model}/invoke';

/**
 * Amazon Bedrock's InvokeModel with Cohere's rerank body: `POST /model/{model}/invoke {query, documents, top_n,
 * api_version: 2}` -> Cohere's v2 reply `{id, results: [{index, relevance_score}], meta}`; errors as Bedrock answers
 * them, `{message}` with `x-amzn-ErrorType`. The model comes from the path (`modelInPath`).
 */
export const bedrockInvokeDialect: Dialect = {
  name: 'bedrock-invoke',
  paths: [BEDROCK_INVOKE_PATH],
  modelInPath: true,
  // Bedrock reads the body as JSON whatever its type: boto3 sends none without contentType, the AWS JS SDK octet-stream.
  jsonBodyAlsoAs: ['none', 'application/octet-stream'],
  example: { query: EXAMPLE_QUERY, documents: EXAMPLE_DOCUMENTS, top_n: 2, api_version: 2 },
  ...declaredParse(bedrockInvokeRequestFields),
  responseSchema: { ...cohereV2ResponseSchema, title: 'BedrockInvokeCohereRerankResponse' },
  errorSchema: bedrockErrorSchema,
  // Cohere's reply, as Bedrock passes the model's answer through.
  formatOutcome: (outcome, context) => cohereV2Dialect.formatOutcome(outcome, context),
  formatError: formatBedrockError,
  keyPlacement: BEDROCK_KEY_PLACEMENT,
};
