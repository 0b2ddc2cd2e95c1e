import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import type { RankedResult, RerankOutcome } from '../../../shared/core/rerank-outcome.js';
import type { RerankRequest } from '../../../shared/core/rerank-request.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { DEFAULT_TOP_K, ragToolDialect } from '../../../shared/dialects/rag-tool/rag-tool-dialect.js';
import { MAX_TIMEOUT_MS } from '../../../shared/dialects/rag-tool/rag-rerank-config.js';
import { scoreMetrics } from '../../../shared/dialects/rag-tool/score-metrics.js';
import {
  ALL_KINDS,
  CONTEXT,
  EXPECTED_STATUS,
  LIMITS,
  byParam,
  expectInvalid,
  keysOf,
  outcomeOf,
  type Json,
} from './dialect-test-helpers.js';

/** Seed 002, 4.4: the RFC's own curl body (its `retrieved_docs` placeholder filled with two RAGDocuments). */
const RFC_BODY = (): Json => ({
  query: 'Find relevant documents for query text.',
  retrieved_docs: [
    { document_id: 'doc-1', content: 'Reranking refines retrieval results.', metadata: { source: 'wiki' } },
    { document_id: 'doc-2', content: 'Pandas are bears.', metadata: { source: 'blog' } },
  ],
  top_k: 5,
  rerank_strategy: 'DEFAULT',
  reranker_model_id: 'LlamaRank',
  rerank_config: { api_url: 'https://api.together.xyz/v1', api_key: 'API_KEY' },
});

const minimal = (extra: Json = {}): Json => ({ query: 'q', retrieved_docs: ['a', 'b'], ...extra });

interface RagBody {
  reranked_documents: { index: number; relevance_score: number }[];
  metadata: Json;
}

const format = (outcome: RerankOutcome, request?: RerankRequest): RagBody => {
  const response = ragToolDialect.formatOutcome(outcome, CONTEXT, request);
  expect(response.status).toBe(200);
  return response.body as RagBody;
};

const withRaw = (results: RankedResult[], rawScores: number[], extra: Partial<RerankOutcome> = {}): RerankOutcome => ({
  ...outcomeOf(results, 10, 'tinybert-l2-fixture'),
  timings: { scoringMs: 12.5, totalMs: 13 },
  rawScores,
  ...extra,
});

describe('ragToolDialect.parse: the RFC request', () => {
  it('parses the seed 002 example: upper-case strategy, RAGDocuments, an external provider named by reranker_model_id', () => {
    const request = ragToolDialect.parse(RFC_BODY());

    expect(request.query).toBe('Find relevant documents for query text.');
    expect(request.documents.map((d) => d.text)).toEqual(['Reranking refines retrieval results.', 'Pandas are bears.']);
    expect(request.documents[0]?.source).toEqual((RFC_BODY()['retrieved_docs'] as Json[])[0]);
    expect(request.topN).toBe(5);
    expect(request.strategy).toBe('default');
    // With api_url, reranker_model_id names the upstream's model, not a served one.
    expect(request.model).toBeUndefined();
    expect(request.upstream).toEqual({
      apiUrl: 'https://api.together.xyz/v1',
      apiKey: 'API_KEY',
      mode: 'openai',
      model: 'LlamaRank',
      timeoutMs: 10_000,
    });
    expect(request.fallbackToInputOrder).toBe(true);
    expect(request.returnDocuments).toBe(false);
    expect(validateRerankRequest(request, ragToolDialect.paramNames(request), LIMITS)).toBe(request);
  });

  it('defaults: top_k 5 (the RFC signature), strategy default, fallback on, served default model', () => {
    const request = ragToolDialect.parse(minimal());

    expect(request.topN).toBe(DEFAULT_TOP_K);
    expect(DEFAULT_TOP_K).toBe(5);
    expect(request.strategy).toBe('default');
    expect(request.model).toBeUndefined();
    expect(request.upstream).toBeUndefined();
    expect(request.boost).toBeUndefined();
    expect(request.fallbackToInputOrder).toBe(true);
    expect(request.activation).toBeUndefined();
  });

  it.each([
    ['NONE', 'none'],
    ['none', 'none'],
    ['Default', 'default'],
    ['RERANK', 'default'],
    ['BOOST', 'boost'],
    ['hybrid', 'hybrid'],
    ['LLM_RERANK', 'llm_rerank'],
  ])('rerank_strategy %s reads as %s', (sent, strategy) => {
    expect(ragToolDialect.parse(minimal({ rerank_strategy: sent })).strategy).toBe(strategy);
  });

  it('reranker_model_id names a served model when there is no api_url', () => {
    expect(ragToolDialect.parse(minimal({ reranker_model_id: 'tinybert-l2-fixture' })).model).toBe('tinybert-l2-fixture');
  });

  it('query as InterleavedContent: a text item, or a list of items joined with a space', () => {
    expect(ragToolDialect.parse(minimal({ query: { type: 'text', text: 'python http' } })).query).toBe('python http');
    expect(
      ragToolDialect.parse(minimal({ query: [{ type: 'text', text: 'python' }, 'http', { type: 'text', text: 'library' }] })).query,
    ).toBe('python http library');
  });

  it('RAGDocuments: string documents, InterleavedContent contents, the object kept as source for boost fields', () => {
    const doc = {
      document_id: 'd',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      metadata: { source: 'wiki' },
    };
    const request = ragToolDialect.parse(minimal({ retrieved_docs: ['plain', doc, { content: { type: 'text', text: 'item' } }] }));

    expect(request.documents).toEqual([
      { text: 'plain' },
      { text: 'a b', source: doc },
      { text: 'item', source: { content: { type: 'text', text: 'item' } } },
    ]);
  });

  it('rerank_config: boost terms, weight (default 0.1) and fields', () => {
    const boost = { terms: ['http'], fields: [{ field: 'metadata.source', value: 'wiki', weight: 2 }] };
    expect(ragToolDialect.parse(minimal({ rerank_strategy: 'boost', rerank_config: { boost } })).boost).toEqual({
      terms: ['http'],
      termWeight: 0.1,
      fields: [{ field: 'metadata.source', value: 'wiki', weight: 2 }],
    });
    expect(ragToolDialect.parse(minimal({ rerank_config: { boost: { weight: 0.5 } } })).boost).toEqual({
      terms: [],
      termWeight: 0.5,
      fields: [],
    });
  });

  it('rerank_config: mode (llm_rerank defaults to chat), model overrides reranker_model_id, timeout in seconds capped at 30 s', () => {
    const llm = ragToolDialect.parse(
      minimal({ rerank_strategy: 'LLM_RERANK', reranker_model_id: 'm', rerank_config: { api_url: 'http://h:3000/v1', timeout: 2.5 } }),
    );
    expect(llm.upstream).toEqual({ apiUrl: 'http://h:3000/v1', apiKey: undefined, mode: 'chat', model: 'm', timeoutMs: 2500 });

    const explicit = ragToolDialect.parse(
      minimal({ reranker_model_id: 'm', rerank_config: { api_url: 'https://x/api', mode: 'DashScope', model: 'qwen', timeout: 60 } }),
    );
    expect(explicit.upstream).toMatchObject({ mode: 'dashscope', model: 'qwen', timeoutMs: MAX_TIMEOUT_MS });
  });

  it('rerank_config.fallback: false turns the input-order fallback off', () => {
    expect(ragToolDialect.parse(minimal({ rerank_config: { fallback: false } })).fallbackToInputOrder).toBe(false);
  });

  it('rerank_threshold, top_k 0 and raw_scores pass through; null optionals are absent', () => {
    const request = ragToolDialect.parse(minimal({ rerank_threshold: 0.5, top_k: 0, raw_scores: true }));
    expect(request).toMatchObject({ threshold: 0.5, topN: 0, activation: 'none' });

    const nulls = ragToolDialect.parse(
      minimal({ top_k: null, rerank_strategy: null, reranker_model_id: null, rerank_config: null, rerank_threshold: null }),
    );
    expect(nulls).toMatchObject({ topN: 5, strategy: 'default', model: undefined, threshold: undefined, fallbackToInputOrder: true });
  });

  it('is reachable by name and never queued (its metadata needs the raw scores and the query)', () => {
    expect(DIALECTS['rag-tool']).toBe(ragToolDialect);
    expect(ragToolDialect.queueable).toBe(false);
  });
});

describe('ragToolDialect.parse: malformed bodies are 400s naming the field', () => {
  const CASES: readonly (readonly [string, unknown, string])[] = [
    ['body is an array', [], 'body'],
    ['query missing', { retrieved_docs: ['a'] }, 'query'],
    ['query a number', minimal({ query: 3 }), 'query'],
    ['query an image item', minimal({ query: { type: 'image', image: { url: 'x' } } }), 'query'],
    ['query an empty list', minimal({ query: [] }), 'query'],
    ['query list with an image', minimal({ query: ['a', { type: 'image', image: {} }] }), 'query[1]'],
    ['retrieved_docs missing', { query: 'q' }, 'retrieved_docs'],
    ['retrieved_docs an object', minimal({ retrieved_docs: { a: 1 } }), 'retrieved_docs'],
    ['a document a number', minimal({ retrieved_docs: ['a', 7] }), 'retrieved_docs[1]'],
    ['a document without content', minimal({ retrieved_docs: [{ document_id: 'x' }] }), 'retrieved_docs[0].content'],
    ['a document with URL content', minimal({ retrieved_docs: [{ content: { uri: 'https://x' } }] }), 'retrieved_docs[0].content'],
    [
      'a document with image content',
      minimal({ retrieved_docs: [{ content: { type: 'image', image: {} } }] }),
      'retrieved_docs[0].content',
    ],
    ['top_k negative', minimal({ top_k: -1 }), 'top_k'],
    ['top_k fractional', minimal({ top_k: 1.5 }), 'top_k'],
    ['unknown strategy', minimal({ rerank_strategy: 'magic' }), 'rerank_strategy'],
    ['strategy a number', minimal({ rerank_strategy: 1 }), 'rerank_strategy'],
    ['reranker_model_id a number', minimal({ reranker_model_id: 5 }), 'reranker_model_id'],
    ['rerank_config a string', minimal({ rerank_config: 'x' }), 'rerank_config'],
    ['api_url not a URL', minimal({ rerank_config: { api_url: 'not a url' } }), 'rerank_config.api_url'],
    ['api_url not http', minimal({ rerank_config: { api_url: 'file:///etc/passwd' } }), 'rerank_config.api_url'],
    ['api_key a number', minimal({ rerank_config: { api_url: 'https://x', api_key: 1 } }), 'rerank_config.api_key'],
    ['unknown mode', minimal({ rerank_config: { api_url: 'https://x', mode: 'grpc' } }), 'rerank_config.mode'],
    ['timeout zero', minimal({ rerank_config: { api_url: 'https://x', timeout: 0 } }), 'rerank_config.timeout'],
    ['boost a list', minimal({ rerank_config: { boost: [] } }), 'rerank_config.boost'],
    ['boost terms not strings', minimal({ rerank_config: { boost: { terms: [1] } } }), 'rerank_config.boost.terms[0]'],
    [
      'boost field without weight',
      minimal({ rerank_config: { boost: { fields: [{ field: 'a', value: 'b' }] } } }),
      'rerank_config.boost.fields[0].weight',
    ],
    [
      'boost field value an object',
      minimal({ rerank_config: { boost: { fields: [{ field: 'a', value: {}, weight: 1 }] } } }),
      'rerank_config.boost.fields[0].value',
    ],
    ['fallback a string', minimal({ rerank_config: { fallback: 'yes' } }), 'rerank_config.fallback'],
    ['rerank_threshold a string', minimal({ rerank_threshold: 'high' }), 'rerank_threshold'],
  ];

  it.each(byParam(CASES))('%s -> 400 on %s', (_name, param, body) => {
    const error = expectInvalid(() => ragToolDialect.parse(body), param);
    const response = ragToolDialect.formatError(error, CONTEXT);
    expect(response.status).toBe(400);
    expect(keysOf(response.body)).toEqual(['error']);
    expect((response.body as { error: Json }).error).toMatchObject({
      detail: error.message,
      message: error.message,
      param,
      type: 'invalid_request_error',
    });
  });

  it('never echoes the api_key in an error', () => {
    const error = expectInvalid(
      () => ragToolDialect.parse(minimal({ rerank_config: { api_url: 'https://x', api_key: 'SECRET-KEY', mode: 'x' } })),
      'rerank_config.mode',
    );
    expect(JSON.stringify(ragToolDialect.formatError(error, CONTEXT).body)).not.toContain('SECRET-KEY');
  });

  it('accepts an empty retrieved_docs (the RFC answers it with an empty list), which other dialects refuse', () => {
    expect(ragToolDialect.acceptsEmptyDocuments).toBe(true);
    const request = ragToolDialect.parse(minimal({ retrieved_docs: [] }));
    expect(validateRerankRequest(request, ragToolDialect.paramNames(request), LIMITS, { allowEmptyDocuments: true })).toBe(request);
    expectInvalid(() => validateRerankRequest(request, ragToolDialect.paramNames(request), LIMITS), 'retrieved_docs');
  });
});

describe('ragToolDialect.formatOutcome: RerankResponse', () => {
  const request = ragToolDialect.parse(minimal({ query: 'python http', retrieved_docs: ['a', 'b', 'c', 'd'] }));

  it('reranked_documents [{index, relevance_score}] best first, and the RFC metadata over the raw scores', () => {
    const body = format(
      withRaw(
        [
          { index: 2, score: 0.9 },
          { index: 0, score: 0.7 },
        ],
        [1, -2, 3, 2],
      ),
      request,
    );

    expect(keysOf(body)).toEqual(['metadata', 'reranked_documents']);
    expect(body.reranked_documents).toEqual([
      { index: 2, relevance_score: 0.9 },
      { index: 0, relevance_score: 0.7 },
    ]);
    expect(keysOf(body.metadata)).toEqual(
      ['execution_time_ms', 'mean_score', 'model', 'query', 'raw_scores', 'score_gap', 'std_score', 'strategy', 'total_chunks'].sort(),
    );
    expect(body.metadata).toMatchObject({
      query: 'python http',
      total_chunks: 4,
      raw_scores: [1, -2, 3, 2],
      execution_time_ms: 12.5,
      mean_score: 1,
      score_gap: 1,
      strategy: 'default',
      model: 'tinybert-l2-fixture',
    });
    // numpy: np.std([1, -2, 3, 2]) = sqrt(3.5)
    expect(body.metadata['std_score']).toBeCloseTo(Math.sqrt(3.5), 12);
  });

  it('flags a fallback and names the strategy asked for', () => {
    const boosted = ragToolDialect.parse(minimal({ rerank_strategy: 'BOOST' }));
    const body = format(
      withRaw(
        [
          { index: 0, score: 0 },
          { index: 1, score: 0 },
        ],
        [0, 0],
        { fallback: true, model: 'fallback' },
      ),
      boosted,
    );

    expect(body.metadata).toMatchObject({ fallback: true, strategy: 'boost', model: 'fallback', score_gap: 0, std_score: 0 });
  });

  it('no fallback key when scoring worked', () => {
    expect(format(withRaw([{ index: 0, score: 1 }], [2]), request).metadata).not.toHaveProperty('fallback');
  });

  it('no chunks: reranked_documents [] and only the query, as the RFC answers', () => {
    const empty = { ...request, documents: [] };
    expect(format(withRaw([], []), empty)).toEqual({ reranked_documents: [], metadata: { query: 'python http' } });
  });

  it('a NaN raw score is null in raw_scores and left out of the metrics', () => {
    const body = format(withRaw([{ index: 0, score: 0.5 }], [Number.NaN, 4, 2]), request);
    expect(body.metadata['raw_scores']).toEqual([null, 4, 2]);
    expect(body.metadata).toMatchObject({ mean_score: 3, std_score: 1, score_gap: 2 });
  });
});

describe('scoreMetrics: numpy semantics', () => {
  it.each([
    [[0.5], { mean_score: 0.5, std_score: 0, score_gap: 0 }],
    [[3, 3, 1], { mean_score: 7 / 3, score_gap: 0 }],
    [[-1, -3], { mean_score: -2, std_score: 1, score_gap: 2 }],
    [[], { mean_score: 0, std_score: 0, score_gap: 0 }],
  ])('%j', (scores, expected) => {
    expect(scoreMetrics(scores)).toMatchObject(expected);
  });

  it('population std of [3, 3, 1] (ddof 0)', () => {
    expect(scoreMetrics([3, 3, 1]).std_score).toBeCloseTo(Math.sqrt(8 / 9), 12);
  });
});

describe('ragToolDialect.formatError: one envelope for every kind', () => {
  it.each(ALL_KINDS)('%s', (kind) => {
    const response = ragToolDialect.formatError(new RerankError(kind, 'internal detail 42', { param: 'x' }), CONTEXT);

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    const error = (response.body as { error: Json }).error;
    expect(keysOf(error)).toEqual(['code', 'detail', 'message', 'param', 'type']);
    expect(error['detail']).toBe(error['message']);
    if (kind === 'internal') expect(error['detail']).toBe('Internal server error');
  });
});
