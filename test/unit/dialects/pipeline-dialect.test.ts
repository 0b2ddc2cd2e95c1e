import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import type { RankedResult, RerankOutcome } from '../../../shared/core/rerank-outcome.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { pipelineDialect } from '../../../shared/dialects/pipeline/pipeline-dialect.js';
import { CONTEXT, LIMITS, byParam, expectInvalid, keysOf, outcomeOf, type Json } from './dialect-test-helpers.js';

/** Seed 003's dict after the retriever (its "完整数据流示例", step 2). */
const AFTER_RETRIEVAL = (): Json => ({
  query: '什么是深度学习?',
  question: { id: 'q001', references: ['深度学习是机器学习的子集...'] },
  references: ['深度学习是机器学习的子集...'],
  retrieval_results: [
    { text: '文档1', score: 0.95, metadata: {} },
    { text: '文档2', score: 0.89, metadata: {} },
  ],
  retrieval_docs: ['文档1', '文档2'],
  retrieval_time: 0.123,
});

const outcome = (results: RankedResult[], totalMs = 56): RerankOutcome => ({
  ...outcomeOf(results, 9),
  timings: { scoringMs: 50, totalMs },
});

describe('pipelineDialect.parse', () => {
  it('reads query and retrieval_docs from the seed dict, keeps the whole dict as echo, asks for documents', () => {
    const dict = AFTER_RETRIEVAL();
    const request = pipelineDialect.parse(dict);

    expect(request.query).toBe('什么是深度学习?');
    expect(request.documents).toEqual([{ text: '文档1' }, { text: '文档2' }]);
    expect(request.echo).toBe(dict);
    expect(request.returnDocuments).toBe(true);
    expect(request.topN).toBeUndefined();
    expect(validateRerankRequest(request, pipelineDialect.paramNames(request), LIMITS)).toBe(request);
  });

  it('prefers non-empty refining_docs over retrieval_docs (seed 003 read priority)', () => {
    expect(pipelineDialect.parse({ ...AFTER_RETRIEVAL(), refining_docs: ['压缩1'] }).documents).toEqual([{ text: '压缩1' }]);
  });

  it.each([
    ['empty', []],
    ['null', null],
  ])('falls back to retrieval_docs when refining_docs is %s', (_name, refining) => {
    expect(pipelineDialect.parse({ ...AFTER_RETRIEVAL(), refining_docs: refining }).documents).toHaveLength(2);
  });

  it('objects with text are accepted as documents', () => {
    expect(pipelineDialect.parse({ query: 'q', retrieval_docs: [{ text: 'a', id: 1 }] }).documents).toEqual([
      { text: 'a', source: { text: 'a', id: 1 } },
    ]);
  });

  it('optional top_k, rerank_threshold, model, raw_scores', () => {
    expect(pipelineDialect.parse({ ...AFTER_RETRIEVAL(), top_k: 1, rerank_threshold: 0.5, model: 'm', raw_scores: true })).toMatchObject({
      topN: 1,
      threshold: 0.5,
      model: 'm',
      activation: 'none',
    });
  });

  it('is never queued: its reply is the request', () => {
    expect(pipelineDialect.queueable).toBe(false);
  });

  const CASES: readonly (readonly [string, unknown, string])[] = [
    ['body a list', [1], 'body'],
    ['body null', null, 'body'],
    ['query missing', { retrieval_docs: ['a'] }, 'query'],
    ['query a list', { query: ['q'], retrieval_docs: ['a'] }, 'query'],
    ['no docs at all', { query: 'q' }, 'retrieval_docs'],
    ['retrieval_docs a string', { query: 'q', retrieval_docs: 'a' }, 'retrieval_docs'],
    ['refining_docs a string', { query: 'q', retrieval_docs: ['a'], refining_docs: 'x' }, 'refining_docs'],
    ['a document a number', { query: 'q', retrieval_docs: ['a', 1] }, 'retrieval_docs[1]'],
    ['a refining doc without text', { query: 'q', refining_docs: [{ body: 'x' }] }, 'refining_docs[0]'],
    ['top_k negative', { query: 'q', retrieval_docs: ['a'], top_k: -2 }, 'top_k'],
    ['threshold a string', { query: 'q', retrieval_docs: ['a'], rerank_threshold: 'x' }, 'rerank_threshold'],
    ['model a number', { query: 'q', retrieval_docs: ['a'], model: 1 }, 'model'],
  ];

  it.each(byParam(CASES))('%s -> 400 on %s in the OpenAI envelope', (_name, param, body) => {
    const error = expectInvalid(() => pipelineDialect.parse(body), param);
    const response = pipelineDialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { message: error.message, type: 'invalid_request_error', param, code: 'invalid_value' } });
  });
});

describe('pipelineDialect + validateRerankRequest: errors name the documents list actually read', () => {
  const SHORT = { ...LIMITS, maxDocumentChars: 3 };

  it.each([
    ['refining_docs (non-empty, so read)', { query: 'q', refining_docs: ['ok', 'too long'], retrieval_docs: ['a'] }, 'refining_docs[1]'],
    [
      'retrieval_docs (refining_docs empty)',
      { query: 'q', refining_docs: [], retrieval_docs: ['a', 'b', 'too long'] },
      'retrieval_docs[2]',
    ],
    ['retrieval_docs (no refining_docs)', { query: 'q', retrieval_docs: ['too long'] }, 'retrieval_docs[0]'],
  ])('a too-long document of %s -> 413 naming %s', (_name, body, param) => {
    const request = pipelineDialect.parse(body);

    const error = (() => {
      try {
        validateRerankRequest(request, pipelineDialect.paramNames(request), SHORT);
      } catch (thrown) {
        return thrown as RerankError;
      }
      throw new Error('expected a 413');
    })();

    expect(error).toBeInstanceOf(RerankError);
    expect([error.status, error.param]).toEqual([413, param]);
    expect(error.message).toContain(param);
  });

  it('names the list for the validation rules as the reader chose it', () => {
    expect(pipelineDialect.paramNames(pipelineDialect.parse({ query: 'q', refining_docs: [], retrieval_docs: ['a'] })).documents).toBe(
      'retrieval_docs',
    );
    expect(pipelineDialect.paramNames(pipelineDialect.parse({ query: 'q', refining_docs: ['a'] })).documents).toBe('refining_docs');
  });
});

describe('pipelineDialect.formatOutcome', () => {
  it('answers the same dict, every field unchanged, plus reranking_results/docs/time (seed 003 step 3)', () => {
    const dict = AFTER_RETRIEVAL();
    const request = pipelineDialect.parse(dict);
    const response = pipelineDialect.formatOutcome(
      outcome([
        { index: 1, score: 0.97, document: { text: '文档2' } },
        { index: 0, score: 0.92, document: { text: '文档1' } },
      ]),
      CONTEXT,
      request,
    );

    expect(response.status).toBe(200);
    const body = response.body as Json;
    expect(keysOf(body)).toEqual([...Object.keys(AFTER_RETRIEVAL()), 'reranking_results', 'reranking_docs', 'reranking_time'].sort());
    for (const [key, value] of Object.entries(AFTER_RETRIEVAL())) expect(body[key]).toEqual(value);
    expect(body['reranking_results']).toEqual([
      { text: '文档2', score: 0.97 },
      { text: '文档1', score: 0.92 },
    ]);
    expect(body['reranking_docs']).toEqual(['文档2', '文档1']);
    expect(body['reranking_time']).toBeCloseTo(0.056, 12);
  });

  it("replaces a previous stage run's reranking_* fields, nothing else", () => {
    const dict = { ...AFTER_RETRIEVAL(), reranking_docs: ['old'], reranking_time: 9 };
    const body = pipelineDialect.formatOutcome(
      outcome([{ index: 0, score: 0.5, document: { text: '文档1' } }], 1),
      CONTEXT,
      pipelineDialect.parse(dict),
    ).body as Json;

    expect(body['reranking_docs']).toEqual(['文档1']);
    expect(body['reranking_time']).toBe(0.001);
    expect(body['retrieval_docs']).toEqual(['文档1', '文档2']);
  });

  it('object documents answer their text', () => {
    const request = pipelineDialect.parse({ query: 'q', retrieval_docs: [{ text: 'a', id: 1 }] });
    const body = pipelineDialect.formatOutcome(
      outcome([{ index: 0, score: 0.4, document: request.documents[0] as { text: string } }]),
      CONTEXT,
      request,
    ).body as Json;

    expect(body['reranking_results']).toEqual([{ text: 'a', score: 0.4 }]);
  });

  it('an empty result list (top_k 0, or all under the threshold) gives empty lists', () => {
    const request = pipelineDialect.parse({ ...AFTER_RETRIEVAL(), top_k: 0 });
    const body = pipelineDialect.formatOutcome(outcome([]), CONTEXT, request).body as Json;

    expect(body['reranking_results']).toEqual([]);
    expect(body['reranking_docs']).toEqual([]);
  });
});
