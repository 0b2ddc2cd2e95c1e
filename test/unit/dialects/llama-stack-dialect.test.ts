import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { llamaStackDialect } from '../../../shared/dialects/llama-stack/llama-stack-dialect.js';
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

const valid = (extra: Json = {}): Json => ({ model: 'm', query: 'q', items: ['a', 'b'], ...extra });

describe('llamaStackDialect.parse', () => {
  it('parses {model, query, items, max_num_results}', () => {
    const request = llamaStackDialect.parse(valid({ max_num_results: 1 }));

    expect(request).toStrictEqual(expectedRequest({ model: 'm', query: 'q', documents: textDocs(['a', 'b']), topN: 1 }));
    expect(validateRerankRequest(request, llamaStackDialect.paramNames(request), LIMITS)).toBe(request);
  });

  it('query and items may be OpenAI-style text parts; strings and parts mix', () => {
    const request = llamaStackDialect.parse({
      model: 'm',
      query: { type: 'text', text: 'python http' },
      items: [{ type: 'text', text: 'urllib' }, 'requests'],
    });

    expect(request.query).toBe('python http');
    expect(request.documents).toEqual(textDocs(['urllib', 'requests']));
  });

  it('model and max_num_results may be absent (default model, all results); null is absent', () => {
    expect(llamaStackDialect.parse({ query: 'q', items: ['a'], model: null, max_num_results: null })).toStrictEqual(
      expectedRequest({ query: 'q', documents: textDocs(['a']) }),
    );
  });

  it('extras shared with /v1/rerank: raw_scores, rerank_threshold, batch_size', () => {
    expect(llamaStackDialect.parse(valid({ raw_scores: true, rerank_threshold: 0.2, batch_size: 8 }))).toMatchObject({
      activation: 'none',
      threshold: 0.2,
      batchSize: 8,
    });
  });

  it('is reachable by name (jobs) and queueable', () => {
    expect(DIALECTS['llama-stack']).toBe(llamaStackDialect);
    expect(llamaStackDialect.queueable).not.toBe(false);
  });

  const CASES: readonly (readonly [string, unknown, string])[] = [
    ['body a string', 'x', 'body'],
    ['query missing', { items: ['a'] }, 'query'],
    ['query a number', valid({ query: 1 }), 'query'],
    ['query an image part', valid({ query: { type: 'image_url', image_url: { url: 'x' } } }), 'query'],
    ['query a list', valid({ query: ['a'] }), 'query'],
    ['items missing', { query: 'q' }, 'items'],
    ['items a string', valid({ items: 'a' }), 'items'],
    ['an item a number', valid({ items: ['a', 2] }), 'items[1]'],
    ['an image item', valid({ items: [{ type: 'image_url', image_url: { url: 'data:' } }] }), 'items[0]'],
    ['an item without text', valid({ items: [{ type: 'text' }] }), 'items[0]'],
    ['an item a list', valid({ items: [['a']] }), 'items[0]'],
    ['model a number', valid({ model: 3 }), 'model'],
    ['max_num_results negative', valid({ max_num_results: -1 }), 'max_num_results'],
    ['max_num_results a string', valid({ max_num_results: '2' }), 'max_num_results'],
  ];

  it.each(byParam(CASES))('%s -> 400 on %s in the Llama Stack envelope', (_name, param, body) => {
    const error = expectInvalid(() => llamaStackDialect.parse(body), param);
    const response = llamaStackDialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(keysOf(response.body)).toEqual(['error']);
    expect((response.body as { error: Json }).error).toMatchObject({ detail: error.message, message: error.message, param });
  });

  it('image items say that only text items are accepted', () => {
    const error = expectInvalid(
      () => llamaStackDialect.parse(valid({ items: [{ type: 'image_url', image_url: { url: 'x' } }] })),
      'items[0]',
    );
    expect(error.message).toMatch(/only text items/);
  });

  it('empty items parse, and the shared validation refuses them naming items', () => {
    const request = llamaStackDialect.parse(valid({ items: [] }));
    expectInvalid(() => validateRerankRequest(request, llamaStackDialect.paramNames(request), LIMITS), 'items');
  });
});

describe('llamaStackDialect.formatOutcome', () => {
  it('answers exactly {data:[{index, relevance_score}]} in the order given', () => {
    const response = llamaStackDialect.formatOutcome(
      outcomeOf(
        [
          { index: 1, score: 0.9, document: { text: 'b' } },
          { index: 0, score: 0.1 },
        ],
        7,
      ),
      CONTEXT,
    );

    expect(response).toEqual({
      status: 200,
      body: {
        data: [
          { index: 1, relevance_score: 0.9 },
          { index: 0, relevance_score: 0.1 },
        ],
      },
    });
  });

  it('an empty result list is {data: []}', () => {
    expect(llamaStackDialect.formatOutcome(outcomeOf([], 0), CONTEXT).body).toEqual({ data: [] });
  });
});

describe('llamaStackDialect.formatError', () => {
  it.each(ALL_KINDS)('%s keeps the status and hides 5xx internals', (kind) => {
    const response = llamaStackDialect.formatError(new RerankError(kind, 'secret internals'), CONTEXT);

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    const error = (response.body as { error: Json }).error;
    expect(error['param']).toBeNull();
    if (kind === 'internal') expect(error['detail']).toBe('Internal server error');
    else expect(error['detail']).toBe('secret internals');
  });
});
