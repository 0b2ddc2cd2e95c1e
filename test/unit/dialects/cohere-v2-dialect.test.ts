import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { keepTokens } from '../../../shared/core/request-controls.js';
import { cohereV2Dialect } from '../../../shared/dialects/cohere-v2/cohere-v2-dialect.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import {
  ALL_KINDS,
  CONTEXT,
  EXPECTED_STATUS,
  LIMITS,
  byParam,
  expectInvalid,
  expectedRequest,
  keysOf,
  outcomeOf,
  textDocs,
  type Json,
} from './dialect-test-helpers.js';

/** A request shaped like the example in Cohere's v2 rerank API reference. */
const COHERE_EXAMPLE = (): Json => ({
  model: 'rerank-v3.5',
  query: 'What is the capital of the United States?',
  documents: ['Carson City is the capital city of the American state of Nevada.', 'Washington, D.C. is the capital of the United States.'],
  top_n: 1,
});

const valid = (extra: Json = {}): Json => ({ query: 'q', documents: ['a', 'b'], ...extra });

describe('cohereV2Dialect.parse', () => {
  it('parses the Cohere v2 example', () => {
    const request = cohereV2Dialect.parse(COHERE_EXAMPLE());

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'rerank-v3.5',
        query: 'What is the capital of the United States?',
        documents: textDocs(COHERE_EXAMPLE()['documents'] as string[]),
        topN: 1,
      }),
    );
    expect(validateRerankRequest(request, cohereV2Dialect.paramNames(request), LIMITS)).toBe(request);
  });

  it('model may be absent (default model); return_documents is accepted as an extension', () => {
    expect(cohereV2Dialect.parse(valid({ return_documents: true }))).toStrictEqual(
      expectedRequest({ query: 'q', documents: textDocs(['a', 'b']), returnDocuments: true }),
    );
  });

  it("max_tokens_per_doc is carried to scoring (cut there, in the model's tokens); the documents stay whole", () => {
    const request = cohereV2Dialect.parse(valid({ documents: ['one two  three four', 'short'], max_tokens_per_doc: 2 }));

    expect(request.documents).toEqual(textDocs(['one two  three four', 'short']));
    expect(request.maxTokensPerDocument).toBe(2);
    expect(cohereV2Dialect.parse(valid({})).maxTokensPerDocument).toBeUndefined();
  });

  it.each([
    [[1, 2, 3], 2, undefined, [1, 2]],
    [[1, 2, 3], 2, 'left', [2, 3]],
    [[1, 2, 3], 3, 'left', [1, 2, 3]],
    [[1, 2], undefined, 'right', [1, 2]],
  ] as const)('keepTokens(%j, %s, %s) = %j', (tokens, max, side, expected) => {
    expect(keepTokens(tokens, max, side)).toEqual(expected);
  });

  it('is reachable by name (jobs) and queueable', () => {
    expect(DIALECTS['cohere-v2']).toBe(cohereV2Dialect);
    expect(cohereV2Dialect.queueable).not.toBe(false);
  });

  const CASES: readonly (readonly [string, unknown, string])[] = [
    ['body a number', 1, 'body'],
    ['query missing', { documents: ['a'] }, 'query'],
    ['query an object', valid({ query: { text: 'q' } }), 'query'],
    ['documents missing', { query: 'q' }, 'documents'],
    ['documents a string', valid({ documents: 'a' }), 'documents'],
    ['object documents (v1 only)', valid({ documents: [{ text: 'a' }] }), 'documents[0]'],
    ['a null document', valid({ documents: ['a', null] }), 'documents[1]'],
    ['top_n negative', valid({ top_n: -1 }), 'top_n'],
    ['top_n fractional', valid({ top_n: 0.5 }), 'top_n'],
    ['max_tokens_per_doc zero', valid({ max_tokens_per_doc: 0 }), 'max_tokens_per_doc'],
    ['max_tokens_per_doc a string', valid({ max_tokens_per_doc: '10' }), 'max_tokens_per_doc'],
    ['return_documents a string', valid({ return_documents: 'yes' }), 'return_documents'],
    ['model a number', valid({ model: 1 }), 'model'],
  ];

  it.each(byParam(CASES))('%s -> 400 on %s as {message, error}', (_name, param, body) => {
    const error = expectInvalid(() => cohereV2Dialect.parse(body), param);
    const response = cohereV2Dialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: error.message,
      error: { message: error.message, type: 'invalid_request_error', param, code: 'invalid_value' },
    });
  });

  it('object documents say Cohere v2 accepts strings only', () => {
    expect(expectInvalid(() => cohereV2Dialect.parse(valid({ documents: [{ text: 'a' }] })), 'documents[0]').message).toMatch(
      /strings only/,
    );
  });
});

describe('cohereV2Dialect.formatOutcome', () => {
  it('answers Cohere v2: {id, results[{index, relevance_score}], meta{api_version, billed_units}}', () => {
    const response = cohereV2Dialect.formatOutcome(
      outcomeOf(
        [
          { index: 1, score: 0.999 },
          { index: 0, score: 0.1 },
        ],
        40,
      ),
      CONTEXT,
    );

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: 'rr-0001',
      results: [
        { index: 1, relevance_score: 0.999 },
        { index: 0, relevance_score: 0.1 },
      ],
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    });
  });

  it('return_documents (extension) puts document {text} on every result, the untruncated text', () => {
    const request = cohereV2Dialect.parse(valid({ documents: ['a b c'], max_tokens_per_doc: 1, return_documents: true }));
    const body = cohereV2Dialect.formatOutcome(
      outcomeOf([{ index: 0, score: 0.5, document: request.documents[0] as { text: string } }], 1),
      CONTEXT,
    ).body as { results: Json[] };

    expect(body.results).toEqual([{ index: 0, relevance_score: 0.5, document: { text: 'a b c' } }]);
  });

  it('no document key when documents were not asked for', () => {
    const body = cohereV2Dialect.formatOutcome(outcomeOf([{ index: 0, score: 0.5 }], 1), CONTEXT).body as { results: Json[] };
    expect(keysOf(body.results[0])).toEqual(['index', 'relevance_score']);
  });
});

describe('cohereV2Dialect.formatError', () => {
  it.each(ALL_KINDS)('%s: status kept, message at the top and in error', (kind) => {
    const response = cohereV2Dialect.formatError(new RerankError(kind, 'boom'), CONTEXT);
    const body = response.body as { message: string; error: Json };

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    expect(keysOf(body)).toEqual(['error', 'message']);
    expect(body.error['message']).toBe(body.message);
    if (kind === 'internal') expect(body.message).toBe('Internal server error');
  });
});
