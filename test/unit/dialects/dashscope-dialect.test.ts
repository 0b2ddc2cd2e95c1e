import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { RerankError, toRerankError, type RerankErrorKind } from '../../../shared/core/rerank-error.js';
import type { RankedResult } from '../../../shared/core/rerank-outcome.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { dashScopeDialect } from '../../../shared/dialects/dashscope/dashscope-dialect.js';
import {
  ALL_KINDS,
  CONTEXT,
  EXPECTED_STATUS,
  LIMITS,
  expectInvalid,
  expectedRequest,
  byParam,
  keysOf,
  loadSeedObject,
  outcomeOf,
  textDocs,
  type Json,
} from './dialect-test-helpers.js';

interface SeedResult {
  index: number;
  relevance_score: number;
  document: { text: string };
}
interface SeedResponse {
  output: { results: SeedResult[] };
  usage: { total_tokens: number };
}
interface DashScopeBody {
  output: { results: Json[] };
  usage: { total_tokens: unknown };
  request_id: unknown;
}

const SEED_DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
];

const validBody = (parameters?: unknown): Json => ({
  model: 'qwen3-rerank',
  input: { query: 'q', documents: ['a', 'b'] },
  ...(parameters === undefined ? {} : { parameters }),
});

const withInput = (input: unknown): Json => ({ model: 'qwen3-rerank', input });

const resultsFromSeed = (seed: SeedResponse, withDocuments: boolean): RankedResult[] =>
  seed.output.results.map((r) => ({
    index: r.index,
    score: r.relevance_score,
    ...(withDocuments ? { document: { text: r.document.text } } : {}),
  }));

const format = (results: readonly RankedResult[], totalTokens = 150): DashScopeBody => {
  const response = dashScopeDialect.formatOutcome(outcomeOf(results, totalTokens), CONTEXT);
  expect(response.status).toBe(200);
  return response.body as DashScopeBody;
};

describe('dashScopeDialect.parse: seed request examples', () => {
  it('parses the seed 000 DashScope request body', () => {
    // Arrange
    const body = loadSeedObject('dashscope-request.json');

    // Act
    const request = dashScopeDialect.parse(body);

    // Assert
    expect(request).toStrictEqual(
      expectedRequest({
        model: 'qwen3-rerank',
        query: 'python http library',
        documents: textDocs(SEED_DOCS),
        topN: 3,
        returnDocuments: true,
      }),
    );
  });

  it('parses the seed 000 DashScope transformation (top_n 2)', () => {
    const body = loadSeedObject('dashscope-request-top-n-2.json');

    const request = dashScopeDialect.parse(body);

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'qwen3-rerank',
        query: 'python http library',
        documents: textDocs(['urllib', 'requests', 'httpx']),
        topN: 2,
        returnDocuments: true,
      }),
    );
  });

  it('seed requests pass the shared validation unchanged', () => {
    for (const name of ['dashscope-request.json', 'dashscope-request-top-n-2.json']) {
      const request = dashScopeDialect.parse(loadSeedObject(name));

      expect(validateRerankRequest(request, dashScopeDialect.paramNames(request), LIMITS)).toBe(request);
    }
  });

  it('parameters absent or null -> defaults (all results, no documents)', () => {
    const absent = dashScopeDialect.parse(validBody());
    const nulled = dashScopeDialect.parse({ ...validBody(), parameters: null });

    const expected = expectedRequest({ model: 'qwen3-rerank', query: 'q', documents: textDocs(['a', 'b']) });
    expect(absent).toStrictEqual(expected);
    expect(nulled).toStrictEqual(expected);
  });

  it('accepts null for optional fields inside parameters', () => {
    const request = dashScopeDialect.parse(
      validBody({ top_n: null, return_documents: null, rerank_threshold: null, batch_size: null, raw_scores: null, instruct: null }),
    );

    expect(request).toStrictEqual(expectedRequest({ model: 'qwen3-rerank', query: 'q', documents: textDocs(['a', 'b']) }));
  });

  it('reads the extras from parameters: instruct, raw_scores, rerank_threshold, batch_size', () => {
    const request = dashScopeDialect.parse(
      validBody({
        instruct: 'Given a web search query, retrieve relevant passages',
        raw_scores: true,
        rerank_threshold: 0.2,
        batch_size: 4,
      }),
    );

    expect(request.prompt).toBe('Given a web search query, retrieve relevant passages');
    expect(request.activation).toBe('none');
    expect(request.threshold).toBe(0.2);
    expect(request.batchSize).toBe(4);
  });

  it('reads options only from parameters, not from the top level', () => {
    const request = dashScopeDialect.parse({ ...validBody(), top_n: 1, return_documents: true });

    expect(request.topN).toBeUndefined();
    expect(request.returnDocuments).toBe(false);
  });
});

describe('dashScopeDialect.formatOutcome: seed response examples', () => {
  it('reproduces the seed 000 DashScope response', () => {
    // Arrange
    const seed = loadSeedObject<SeedResponse>('dashscope-response.json');

    // Act
    const body = format(resultsFromSeed(seed, true), seed.usage.total_tokens);

    // Assert
    expect(body.output).toStrictEqual(seed.output);
    expect(body.usage).toStrictEqual(seed.usage);
    expect(body).toMatchObject(seed as unknown as Json);
  });

  it('reproduces the seed 000 short DashScope response (Response Data Transformation)', () => {
    const seed = loadSeedObject<SeedResponse>('dashscope-response-short.json');

    const body = format(resultsFromSeed(seed, true), seed.usage.total_tokens);

    expect(body.output).toStrictEqual(seed.output);
    expect(body.usage.total_tokens).toBe(150);
  });

  it('adds only request_id (a string, the context request id) besides the seed fields', () => {
    const seed = loadSeedObject<SeedResponse>('dashscope-response.json');

    const body = format(resultsFromSeed(seed, true));

    expect(keysOf(body)).toStrictEqual(['output', 'request_id', 'usage']);
    expect(keysOf(body.output)).toStrictEqual(['results']);
    expect(body.request_id).toBe(CONTEXT.requestId);
  });

  it('returns the client object document as sent', () => {
    const source = { text: 'requests is popular', title: 'requests' };

    const body = format([{ index: 0, score: 0.9, document: { text: source.text, source } }]);

    expect(body.output.results).toStrictEqual([{ index: 0, relevance_score: 0.9, document: source }]);
  });
});

describe('dashScopeDialect: document presence', () => {
  it('omits the document key (not null) on every result when documents were not asked for', () => {
    const seed = loadSeedObject<SeedResponse>('dashscope-response.json');

    const body = format(resultsFromSeed(seed, false));
    const wire = JSON.parse(JSON.stringify(body)) as DashScopeBody;

    expect(body.output.results).toHaveLength(2);
    for (const result of [...body.output.results, ...wire.output.results]) {
      expect(Object.hasOwn(result, 'document')).toBe(false);
      expect(keysOf(result)).toStrictEqual(['index', 'relevance_score']);
    }
  });

  it('end to end: seed request with top_n 2 and return_documents true -> two results, each with its own {text}', () => {
    const request = dashScopeDialect.parse(loadSeedObject('dashscope-request-top-n-2.json'));
    const results = normalizeResults([-3.2, -2.8, -2.7], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = dashScopeDialect.formatOutcome(outcomeOf(results, 10), CONTEXT).body as DashScopeBody;

    expect(body.output.results).toStrictEqual([
      { index: 2, relevance_score: -2.7, document: { text: 'httpx' } },
      { index: 1, relevance_score: -2.8, document: { text: 'requests' } },
    ]);
  });

  it('end to end: return_documents false -> no document key', () => {
    const seed = loadSeedObject<Json>('dashscope-request.json');
    const request = dashScopeDialect.parse({ ...seed, parameters: { top_n: 3, return_documents: false } });
    const results = normalizeResults([1, 2, 3], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = dashScopeDialect.formatOutcome(outcomeOf(results, 10), CONTEXT).body as DashScopeBody;

    expect(body.output.results).toStrictEqual([
      { index: 2, relevance_score: 3 },
      { index: 1, relevance_score: 2 },
      { index: 0, relevance_score: 1 },
    ]);
  });
});

describe('dashScopeDialect.parse: malformed bodies', () => {
  const cases: [string, unknown, string][] = [
    ['body null', null, 'body'],
    ['body an array', [validBody()], 'body'],
    ['input missing', { model: 'qwen3-rerank', query: 'q', documents: ['a'] }, 'input'],
    ['input null', withInput(null), 'input'],
    ['input a string', withInput('q'), 'input'],
    ['input an array', withInput(['q', ['a']]), 'input'],
    ['parameters a string', validBody('top_n=3'), 'parameters'],
    ['parameters an array', validBody([3, true]), 'parameters'],
    ['parameters a number', validBody(3), 'parameters'],
    ['input.query missing', withInput({ documents: ['a'] }), 'input.query'],
    ['input.query null', withInput({ query: null, documents: ['a'] }), 'input.query'],
    ['input.query a number', withInput({ query: 1, documents: ['a'] }), 'input.query'],
    ['input.documents missing', withInput({ query: 'q' }), 'input.documents'],
    ['input.documents a string', withInput({ query: 'q', documents: 'a' }), 'input.documents'],
    ['input.documents an object', withInput({ query: 'q', documents: { text: 'a' } }), 'input.documents'],
    ['a number document', withInput({ query: 'q', documents: ['a', 2] }), 'input.documents[1]'],
    ['a boolean document', withInput({ query: 'q', documents: [true] }), 'input.documents[0]'],
    ['an object document without text', withInput({ query: 'q', documents: [{ content: 'a' }] }), 'input.documents[0]'],
    ['top_n negative', validBody({ top_n: -2 }), 'parameters.top_n'],
    ['top_n non-integer', validBody({ top_n: 2.5 }), 'parameters.top_n'],
    ['top_n a string', validBody({ top_n: '2' }), 'parameters.top_n'],
    ['return_documents a string', validBody({ return_documents: 'yes' }), 'parameters.return_documents'],
    ['return_documents a number', validBody({ return_documents: 0 }), 'parameters.return_documents'],
    ['model a number', { ...validBody(), model: 3 }, 'model'],
    ['instruct a number', validBody({ instruct: 1 }), 'parameters.instruct'],
    ['batch_size zero', validBody({ batch_size: 0 }), 'parameters.batch_size'],
  ];

  it.each(byParam(cases))('%s -> invalid_request naming %s', (_name, param, body) => {
    expectInvalid(() => dashScopeDialect.parse(body), param);
  });

  it('the malformed-body error formats as a 400 InvalidParameter', () => {
    const error = expectInvalid(() => dashScopeDialect.parse(withInput({ query: 'q' })), 'input.documents');

    const response = dashScopeDialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(response.body).toStrictEqual({ code: 'InvalidParameter', message: error.message, request_id: CONTEXT.requestId });
  });
});

describe('dashScopeDialect + validateRerankRequest: semantic rules in the DashScope spelling', () => {
  it('spells the shared param names as DashScope clients send them', () => {
    expect(dashScopeDialect.name).toBe('dashscope');
    expect(dashScopeDialect.paramNames(dashScopeDialect.parse(validBody()))).toStrictEqual({
      query: 'input.query',
      documents: 'input.documents',
      batchSize: 'parameters.batch_size',
      prompt: 'parameters.instruct',
      model: 'model',
    });
  });

  it.each(
    byParam([
      ['empty query', withInput({ query: '', documents: ['a'] }), 'input.query'],
      ['blank query', withInput({ query: ' \t ', documents: ['a'] }), 'input.query'],
      ['empty documents', withInput({ query: 'q', documents: [] }), 'input.documents'],
      ['too many documents', withInput({ query: 'q', documents: Array.from({ length: 1001 }, () => 'd') }), 'input.documents'],
      ['batch_size above the limit', validBody({ batch_size: 1000 }), 'parameters.batch_size'],
    ]),
  )('%s -> invalid_request naming %s', (_name, param, body) => {
    const request = dashScopeDialect.parse(body);

    expectInvalid(() => validateRerankRequest(request, dashScopeDialect.paramNames(request), LIMITS), param);
  });
});

describe('dashScopeDialect.formatError', () => {
  const EXPECTED_CODE: Readonly<Record<RerankErrorKind, string>> = {
    invalid_request: 'InvalidParameter',
    unauthorized: 'InvalidApiKey',
    not_found: 'NotFound',
    method_not_allowed: 'MethodNotAllowed',
    payload_too_large: 'RequestTooLarge',
    unsupported_media_type: 'UnsupportedMediaType',
    uri_too_long: 'RequestURITooLong',
    conflict: 'Conflict',
    already_exists: 'Conflict',
    unprocessable: 'InvalidParameter',
    rate_limited: 'Throttling',
    upstream: 'InternalError.Upstream',
    still_running: 'RequestTimeOut',
    timed_out: 'RequestTimeOut',
    model_failed: 'InternalError.Algo',
    internal: 'InternalError',
  };

  it.each(ALL_KINDS)('%s -> its status and the {code, message, request_id} envelope', (kind) => {
    const error = new RerankError(kind, 'detail for the client', { param: 'input.query' });

    const response = dashScopeDialect.formatError(error, CONTEXT);
    const body = response.body as Json;

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    expect(keysOf(body)).toStrictEqual(['code', 'message', 'request_id']);
    expect(body['code']).toBe(EXPECTED_CODE[kind]);
    expect(typeof body['message']).toBe('string');
    expect(body['request_id']).toBe(CONTEXT.requestId);
  });

  it('invalid_request -> 400 InvalidParameter, unauthorized -> 401 InvalidApiKey, with the message', () => {
    const invalid = dashScopeDialect.formatError(new RerankError('invalid_request', 'input.query is required'), CONTEXT);
    const unauthorized = dashScopeDialect.formatError(new RerankError('unauthorized', 'Invalid API-key provided.'), CONTEXT);

    expect(invalid).toStrictEqual({
      status: 400,
      body: { code: 'InvalidParameter', message: 'input.query is required', request_id: CONTEXT.requestId },
    });
    expect(unauthorized).toStrictEqual({
      status: 401,
      body: { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: CONTEXT.requestId },
    });
  });

  it('never exposes the original message of an internal error', () => {
    const secret = 'onnxruntime: failed to allocate 4096MB at /opt/models (token=abc123)';
    const errors = [new RerankError('internal', secret), toRerankError(new TypeError(secret)), toRerankError(secret)];

    for (const error of errors) {
      const response = dashScopeDialect.formatError(error, CONTEXT);

      expect(response.status).toBe(500);
      expect(response.body).toStrictEqual({ code: 'InternalError', message: 'Internal server error', request_id: CONTEXT.requestId });
      expect(JSON.stringify(response.body)).not.toContain('abc123');
    }
  });
});
