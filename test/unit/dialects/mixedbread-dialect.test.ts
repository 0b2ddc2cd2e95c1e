import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { mixedbreadDialect } from '../../../shared/dialects/mixedbread/mixedbread-dialect.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { CONTEXT, expectInvalid, outcomeOf } from './dialect-test-helpers.js';

/** The request of Mixedbread's reranking docs (model, query, input strings, top_k, return_input). */
const MIXEDBREAD_EXAMPLE = {
  model: 'mixedbread-ai/mxbai-rerank-large-v2',
  query: 'Who is the author of To Kill a Mockingbird?',
  input: [
    'To Kill a Mockingbird is a novel by Harper Lee published in 1960. It was immediately successful, winning the Pulitzer Prize, and has become a classic of modern American literature.',
    'The novel Moby-Dick was written by Herman Melville and first published in 1851. It is considered a masterpiece of American literature and deals with complex themes of obsession, revenge, and the conflict between good and evil.',
    'Harper Lee, an American novelist widely known for her novel To Kill a Mockingbird, was born in 1926 in Monroeville, Alabama. She received the Pulitzer Prize for Fiction in 1961.',
  ],
  top_k: 3,
  return_input: false,
};

describe('Mixedbread dialect: requests', () => {
  it("reads Mixedbread's documented body: input strings, top_k, return_input", () => {
    expect(() => validateRequestBody(mixedbreadDialect.requestSchema, MIXEDBREAD_EXAMPLE)).not.toThrow();
    const request = mixedbreadDialect.parse(MIXEDBREAD_EXAMPLE);
    expect(request.query).toBe(MIXEDBREAD_EXAMPLE.query);
    expect(request.documents.map((d) => d.text)).toEqual(MIXEDBREAD_EXAMPLE.input);
    expect(request).toMatchObject({ model: 'mixedbread-ai/mxbai-rerank-large-v2', topN: 3, returnDocuments: false });
    expect(mixedbreadDialect.parse({ ...MIXEDBREAD_EXAMPLE, top_k: -1 }).topN).toBeUndefined();
    expect(mixedbreadDialect.parse({ query: 'q', input: ['a'] })).toMatchObject({ topN: undefined, returnDocuments: false });
  });

  it('scores objects as their rank_fields (all fields when none are named), returned whole', () => {
    const input = [{ title: 'requests', body: 'an HTTP library', year: 2011 }];
    expect(mixedbreadDialect.parse({ query: 'q', input, rank_fields: ['body'] }).documents).toEqual([
      { text: 'body: an HTTP library', source: { input: input[0] } },
    ]);
    expect(mixedbreadDialect.parse({ query: 'q', input }).documents[0]?.text).toBe('title: requests\nbody: an HTTP library\nyear: 2011');
  });

  it('refuses what it cannot score, naming the field as Mixedbread spells it', () => {
    expectInvalid(() => mixedbreadDialect.parse({ query: 'q', input: [['an', 'image list']] }), 'input[0]');
    expectInvalid(() => mixedbreadDialect.parse({ query: 'q', input: [{ title: 't' }], rank_fields: ['body'] }), 'input[0].body');
    expectInvalid(() => mixedbreadDialect.parse({ query: 'q', input: ['a'], top_k: -2 }), 'top_k');
    expectInvalid(() => mixedbreadDialect.parse({ input: ['a'] }), 'query');
  });
});

describe('Mixedbread dialect: replies', () => {
  it("answers Mixedbread's list: data best first with score and object rank_result, usage, model, top_k, return_input", () => {
    const request = mixedbreadDialect.parse(MIXEDBREAD_EXAMPLE);
    const outcome = outcomeOf(
      [
        { index: 0, score: 0.998 },
        { index: 2, score: 0.995 },
        { index: 1, score: 0.01 },
      ],
      162,
      'mixedbread-ai/mxbai-rerank-large-v2',
    );
    expect(mixedbreadDialect.formatOutcome(outcome, CONTEXT, request)).toEqual({
      status: 200,
      body: {
        object: 'list',
        data: [
          { index: 0, score: 0.998, object: 'rank_result' },
          { index: 2, score: 0.995, object: 'rank_result' },
          { index: 1, score: 0.01, object: 'rank_result' },
        ],
        usage: { prompt_tokens: 162, total_tokens: 162, completion_tokens: 0 },
        model: 'mixedbread-ai/mxbai-rerank-large-v2',
        top_k: 3,
        return_input: false,
      },
    });
  });

  it('returns each input as sent with return_input, a job polled without its request included', () => {
    const request = mixedbreadDialect.parse({ query: 'q', input: ['a string', { title: 't' }], return_input: true });
    const outcome = outcomeOf(
      request.documents.map((document, index) => ({ index, score: 1 - index / 10, document })),
      4,
    );
    for (const formatted of [
      mixedbreadDialect.formatOutcome(outcome, CONTEXT, request),
      mixedbreadDialect.formatOutcome(outcome, CONTEXT),
    ]) {
      expect(formatted.body).toMatchObject({
        data: [
          { index: 0, input: 'a string' },
          { index: 1, input: { title: 't' } },
        ],
        top_k: 2,
        return_input: true,
      });
    }
  });

  it('errors with a top-level message (what the SDK prints) and the OpenAI-style error object', () => {
    const reply = mixedbreadDialect.formatError(new RerankError('unauthorized', 'invalid API key'), CONTEXT);
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ message: 'invalid API key', error: { code: 'invalid_api_key' } });
  });

  it('is served from DIALECTS on /v1/reranking', () => {
    expect(DIALECTS.mixedbread).toBe(mixedbreadDialect);
    expect(mixedbreadDialect.paths).toEqual(['/v1/reranking']);
  });
});
