import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { bedrockDialect } from '../../../shared/dialects/bedrock/bedrock-dialect.js';
import { isBedrockBody, modelOfArn } from '../../../shared/dialects/bedrock/bedrock-request-fields.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { CONTEXT, expectInvalid, outcomeOf, type Json } from './dialect-test-helpers.js';

// The request of the Bedrock API reference's Rerank example (bedrock-agent-runtime), as the SDKs serialize it.
const ARN = 'arn:aws:bedrock:us-west-2::foundation-model/cohere.rerank-v3-5:0';
const body = (extra: Json = {}): Json => ({
  queries: [{ type: 'TEXT', textQuery: { text: 'What is the capital of the United States?' } }],
  sources: [
    { type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'Carson City is the capital city of Nevada.' } } },
    { type: 'INLINE', inlineDocumentSource: { type: 'JSON', jsonDocument: { city: 'Washington, D.C.', note: 'the capital' } } },
  ],
  rerankingConfiguration: {
    type: 'BEDROCK_RERANKING_MODEL',
    bedrockRerankingConfiguration: { numberOfResults: 1, modelConfiguration: { modelArn: ARN } },
  },
  ...extra,
});

/** As a route reads it: the published schema, then the reader. */
const read = (value: unknown) => {
  validateRequestBody(bedrockDialect.requestSchema, value);
  return bedrockDialect.parse(value);
};

describe('bedrockDialect.parse', () => {
  it('reads the one text query, text and JSON sources (JSON scored as its JSON text), the ARN model and numberOfResults', () => {
    const request = read(body());
    expect(request.query).toBe('What is the capital of the United States?');
    expect(request.documents.map((d) => d.text)).toEqual([
      'Carson City is the capital city of Nevada.',
      '{"city":"Washington, D.C.","note":"the capital"}',
    ]);
    expect(request.model).toBe('cohere.rerank-v3-5:0');
    expect(request.topN).toBe(1);
    // Bedrock returns every result's document.
    expect(request.returnDocuments).toBe(true);
  });

  it("names the model by the ARN's last segment", () => {
    expect(modelOfArn('arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0')).toBe('amazon.rerank-v1:0');
    expect(modelOfArn('tinybert-l2-fixture')).toBe('tinybert-l2-fixture');
  });

  it('refuses what Bedrock refuses, naming the field as the body spells it', () => {
    expectInvalid(() => read(body({ queries: [] })), 'queries');
    const twoQueries = body().queries as unknown[];
    expectInvalid(() => read(body({ queries: [...twoQueries, ...twoQueries] })), 'queries');
    expectInvalid(() => read(body({ queries: [{ type: 'IMAGE', textQuery: { text: 'q' } }] })), 'queries[0].type');
    expectInvalid(
      () => read(body({ sources: [{ type: 'S3', inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'a' } } }] })),
      'sources[0].type',
    );
    expectInvalid(
      () => read(body({ sources: [{ type: 'INLINE', inlineDocumentSource: { type: 'TEXT' } }] })),
      'sources[0].inlineDocumentSource',
    );
    expectInvalid(
      () =>
        read(body({ rerankingConfiguration: { type: 'OTHER', bedrockRerankingConfiguration: { modelConfiguration: { modelArn: ARN } } } })),
      'rerankingConfiguration.type',
    );
    expectInvalid(
      () => read(body({ rerankingConfiguration: { type: 'BEDROCK_RERANKING_MODEL' } })),
      'rerankingConfiguration.bedrockRerankingConfiguration',
    );
    expectInvalid(() => read(body({ nextToken: 'page-2' })), 'nextToken');
    const zero = body();
    (zero['rerankingConfiguration'] as { bedrockRerankingConfiguration: Json }).bedrockRerankingConfiguration['numberOfResults'] = 0;
    expectInvalid(() => read(zero), 'rerankingConfiguration.bedrockRerankingConfiguration.numberOfResults');
  });

  it('is told apart on /rerank by queries + sources', () => {
    expect(isBedrockBody(body())).toBe(true);
    expect(isBedrockBody({ query: 'q', documents: ['a'] })).toBe(false);
    expect(isBedrockBody({ query: 'q', texts: ['a'] })).toBe(false);
    expect(isBedrockBody({ queries: [] })).toBe(false);
  });
});

describe('bedrockDialect replies', () => {
  it('answers {results: [{index, relevanceScore, document}]}, each document as sent', () => {
    const request = read(body());
    const [first, second] = request.documents;
    const outcome = outcomeOf(
      [
        { index: 1, score: 0.8, document: second! },
        { index: 0, score: 0.1, document: first! },
      ],
      9,
    );
    expect(bedrockDialect.formatOutcome(outcome, CONTEXT, request)).toEqual({
      status: 200,
      body: {
        results: [
          { index: 1, relevanceScore: 0.8, document: { type: 'JSON', jsonDocument: { city: 'Washington, D.C.', note: 'the capital' } } },
          {
            index: 0,
            relevanceScore: 0.1,
            document: { type: 'TEXT', textDocument: { text: 'Carson City is the capital city of Nevada.' } },
          },
        ],
      },
    });
  });

  it('answers errors as {message} named by x-amzn-ErrorType, which AWS SDKs raise by', () => {
    const cases = [
      ['invalid_request', 400, 'ValidationException'],
      ['unauthorized', 401, 'AccessDeniedException'],
      ['not_found', 404, 'ResourceNotFoundException'],
      ['rate_limited', 429, 'ThrottlingException'],
      ['upstream', 502, 'BadGatewayException'],
      ['internal', 500, 'InternalServerException'],
    ] as const;
    for (const [kind, status, type] of cases) {
      expect(bedrockDialect.formatError(new RerankError(kind, 'what went wrong'), CONTEXT), kind).toEqual({
        status,
        body: { message: kind === 'internal' ? 'Internal server error' : 'what went wrong' },
        headers: { 'x-amzn-ErrorType': type },
      });
    }
  });
});
