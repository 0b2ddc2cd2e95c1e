import type { RankedResult, RerankOutcome } from '../../core/rerank-outcome.js';
import { toRerankRequest } from '../define-wire-fields.js';
import type { Dialect, DialectResponse } from '../dialect.js';
import { EXAMPLE_DOCUMENTS, EXAMPLE_QUERY } from '../example-texts.js';
import { formatBedrockError } from './bedrock-error-envelope.js';
import { BEDROCK_KEY_PLACEMENT } from './bedrock-key-placement.js';
import { bedrockRequestFields, isBedrockBody } from './bedrock-request-fields.js';
import { bedrockErrorSchema, bedrockResponseSchema } from './bedrock-response-schema.js';

/** A result's document: the inline source as sent, or (a source of another shape) its text as a TEXT document. */
function documentOf(result: RankedResult): Readonly<Record<string, unknown>> {
  const source = result.document?.source;
  if (source?.['type'] === 'TEXT' || source?.['type'] === 'JSON') return source;
  return { type: 'TEXT', textDocument: { text: result.document?.text ?? '' } };
}

const names = bedrockRequestFields.paramNames();

/** AWS SDKs sign every request with SigV4; nothing else that posts to `/rerank` does. */
const isSigV4Signed = (header: (name: string) => string | undefined): boolean => /^AWS4-HMAC-SHA256\s/.test(header('authorization') ?? '');

/**
 * Amazon Bedrock's Rerank (bedrock-agent-runtime): `POST /rerank {queries, sources, rerankingConfiguration, nextToken}`
 * -> `{results: [{index, relevanceScore, document}]}`, errors `{message}` named by `x-amzn-ErrorType`. It shares `/rerank`
 * with the OpenAI-compatible and TEI bodies and is told apart by `queries` + `sources`, so the AWS SDKs' RerankCommand,
 * boto3's `bedrock-agent-runtime` and `@ai-sdk/amazon-bedrock` reach it by their endpoint setting alone.
 */
export const bedrockDialect: Dialect = {
  name: 'bedrock',
  paths: [],
  example: {
    queries: [{ type: 'TEXT', textQuery: { text: EXAMPLE_QUERY } }],
    sources: EXAMPLE_DOCUMENTS.map((text) => ({ type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text } } })),
    rerankingConfiguration: {
      type: 'BEDROCK_RERANKING_MODEL',
      bedrockRerankingConfiguration: {
        numberOfResults: 2,
        modelConfiguration: { modelArn: 'arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0' },
      },
    },
  },
  // Its body, or (before the body is read, so a refused key is an AccessDeniedException too) an AWS SDK's SigV4 signature.
  sharesPath: { path: '/rerank', claims: isBedrockBody, claimsHeaders: isSigV4Signed },
  requestSchema: bedrockRequestFields.schema,
  paramNames: () => names,
  // Bedrock returns every result's document.
  parse: (body) => toRerankRequest({ ...bedrockRequestFields.read(body).fields, returnDocuments: true }),
  responseSchema: bedrockResponseSchema,
  errorSchema: bedrockErrorSchema,

  formatOutcome(outcome: RerankOutcome): DialectResponse {
    return {
      status: 200,
      body: { results: outcome.results.map((r) => ({ index: r.index, relevanceScore: r.score, document: documentOf(r) })) },
    };
  },

  formatError: formatBedrockError,
  keyPlacement: BEDROCK_KEY_PLACEMENT,
};
