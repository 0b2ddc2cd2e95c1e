import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { vllmScoreDialect } from '../../../shared/dialects/vllm-score/vllm-score-dialect.js';
import { CONTEXT, expectInvalid, outcomeOf, textDocs } from './dialect-test-helpers.js';

/** The "single query, multiple documents" request of vLLM's Score API docs (serving/openai_compatible_server). */
const VLLM_EXAMPLE = {
  model: 'BAAI/bge-reranker-v2-m3',
  encoding_format: 'float',
  text_1: 'What is the capital of France?',
  text_2: ['The capital of Brazil is Brasilia.', 'The capital of France is Paris.'],
};

describe('vLLM score dialect: requests', () => {
  it("reads vLLM's documented body: text_1 the query, text_2 the documents; the default activation (vLLM's sigmoid)", () => {
    expect(() => validateRequestBody(vllmScoreDialect.requestSchema, VLLM_EXAMPLE)).not.toThrow();
    const request = vllmScoreDialect.parse(VLLM_EXAMPLE);
    expect(request.query).toBe('What is the capital of France?');
    expect(request.documents).toEqual(textDocs(VLLM_EXAMPLE.text_2));
    expect(request.model).toBe('BAAI/bge-reranker-v2-m3');
    expect(request.activation).toBeUndefined();
    expect(request.topN).toBeUndefined();
  });

  it('reads the other spellings (queries/documents, data_1/data_2, queries/items), a list of one query, one document as a string, use_activation', () => {
    const newer = { queries: VLLM_EXAMPLE.text_1, documents: VLLM_EXAMPLE.text_2 };
    expect(() => validateRequestBody(vllmScoreDialect.requestSchema, newer)).not.toThrow();
    expect(vllmScoreDialect.parse(newer)).toMatchObject({ query: VLLM_EXAMPLE.text_1, documents: textDocs(VLLM_EXAMPLE.text_2) });
    expect(vllmScoreDialect.parse({ text_1: [VLLM_EXAMPLE.text_1], text_2: VLLM_EXAMPLE.text_2 }).query).toBe(VLLM_EXAMPLE.text_1);
    expect(vllmScoreDialect.parse({ text_1: 'q', text_2: 'one document' }).documents).toEqual(textDocs(['one document']));
    // vLLM's other spellings (ScoreDataRequest, ScoreQueriesItemsRequest) and use_activation.
    expect(vllmScoreDialect.parse({ data_1: 'q', data_2: ['a', 'b'] })).toMatchObject({ query: 'q', documents: textDocs(['a', 'b']) });
    expect(vllmScoreDialect.parse({ queries: 'q', items: ['a'] })).toMatchObject({ query: 'q', documents: textDocs(['a']) });
    expect(vllmScoreDialect.parse({ ...VLLM_EXAMPLE, use_activation: false }).activation).toBe('none');
    expect(vllmScoreDialect.parse({ ...VLLM_EXAMPLE, use_activation: true }).activation).toBe('sigmoid');
  });

  it('refuses pairwise lists of queries and non-strings, naming the field as sent', () => {
    expectInvalid(() => vllmScoreDialect.parse({ text_1: ['q1', 'q2'], text_2: ['d1', 'd2'] }), 'text_1');
    expectInvalid(() => vllmScoreDialect.parse({ queries: ['q1', 'q2'], documents: ['d1', 'd2'] }), 'queries');
    expectInvalid(() => vllmScoreDialect.parse({ text_1: 'q', text_2: [{ text: 'object' }] }), 'text_2');
    expectInvalid(() => vllmScoreDialect.parse({ text_1: 'q' }), 'text_2');
    expectInvalid(() => vllmScoreDialect.parse({ queries: 'q' }), 'documents');
    expectInvalid(() => vllmScoreDialect.parse({ text_2: ['d'] }), 'text_1');
    expectInvalid(() => vllmScoreDialect.parse({ text_1: 'q', text_2: ['d'], use_activation: 'yes' }), 'use_activation');
  });
});

describe('vLLM score dialect: replies', () => {
  it("answers vLLM's ScoreResponse: every document's score in input order, not sorted", () => {
    const outcome = outcomeOf(
      [
        { index: 1, score: 1 },
        { index: 0, score: 0.001094818115234375 },
      ],
      31,
      'BAAI/bge-reranker-v2-m3',
    );
    expect(vllmScoreDialect.formatOutcome(outcome, CONTEXT)).toEqual({
      status: 200,
      body: {
        id: 'score-rr-0001',
        object: 'list',
        created: CONTEXT.now,
        model: 'BAAI/bge-reranker-v2-m3',
        data: [
          { index: 0, object: 'score', score: 0.001094818115234375 },
          { index: 1, object: 'score', score: 1 },
        ],
        usage: { prompt_tokens: 31, total_tokens: 31, completion_tokens: 0 },
      },
    });
  });

  it('errors with the OpenAI-style error object vLLM answers (its message at the top too)', () => {
    const reply = vllmScoreDialect.formatError(new RerankError('invalid_request', 'text_1 must be one text', { param: 'text_1' }), CONTEXT);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      message: 'text_1 must be one text',
      error: { message: 'text_1 must be one text', param: 'text_1', type: 'invalid_request_error' },
    });
  });

  it('is served from DIALECTS on /score and /v1/score', () => {
    expect(DIALECTS['vllm-score']).toBe(vllmScoreDialect);
    expect(vllmScoreDialect.paths).toEqual(['/score', '/v1/score']);
  });
});
