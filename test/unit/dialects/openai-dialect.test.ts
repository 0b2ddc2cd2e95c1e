import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { RerankError, toRerankError } from '../../../shared/core/rerank-error.js';
import type { RankedResult } from '../../../shared/core/rerank-outcome.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
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
  results: SeedResult[];
  usage: { total_tokens: number };
}
interface OpenAiBody {
  id: unknown;
  object: unknown;
  model: unknown;
  results: Json[];
  usage: { total_tokens: unknown; prompt_tokens?: unknown; completion_tokens?: unknown };
}

const SEED_DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
];

const validBody = (): Json => ({ model: 'm', query: 'q', documents: ['a', 'b'] });

const resultsFromSeed = (seed: SeedResponse, withDocuments: boolean): RankedResult[] =>
  seed.results.map((r) => ({
    index: r.index,
    score: r.relevance_score,
    ...(withDocuments ? { document: { text: r.document.text } } : {}),
  }));

const format = (results: readonly RankedResult[], totalTokens = 150): OpenAiBody => {
  const response = openAiDialect.formatOutcome(outcomeOf(results, totalTokens), CONTEXT);
  expect(response.status).toBe(200);
  return response.body as OpenAiBody;
};

describe('openAiDialect.parse: seed request examples', () => {
  it('parses the seed 000 OpenAI-compatible request body', () => {
    // Arrange
    const body = loadSeedObject('openai-request.json');

    // Act
    const request = openAiDialect.parse(body);

    // Assert
    expect(request).toStrictEqual(
      expectedRequest({
        model: 'jina-reranker-v3',
        query: 'python http library',
        documents: textDocs(SEED_DOCS),
        topN: 3,
        returnDocuments: true,
      }),
    );
  });

  it('parses the seed 000 OpenAI-compatible transformation (top_n 2)', () => {
    const body = loadSeedObject('openai-request-top-n-2.json');

    const request = openAiDialect.parse(body);

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'jina-reranker-v3',
        query: 'python http library',
        documents: textDocs(['urllib', 'requests', 'httpx']),
        topN: 2,
        returnDocuments: true,
      }),
    );
  });

  it('seed requests pass the shared validation unchanged', () => {
    for (const name of ['openai-request.json', 'openai-request-top-n-2.json']) {
      const request = openAiDialect.parse(loadSeedObject(name));

      expect(validateRerankRequest(request, openAiDialect.paramNames(request), LIMITS)).toBe(request);
    }
  });

  it('defaults: no top_n means all results, no return_documents means no documents', () => {
    const request = openAiDialect.parse({ query: 'q', documents: ['a'] });

    expect(request).toStrictEqual(expectedRequest({ query: 'q', documents: textDocs(['a']) }));
  });

  it('accepts null for optional fields as absent (Python clients send None)', () => {
    const request = openAiDialect.parse({
      query: 'q',
      documents: ['a'],
      model: null,
      top_n: null,
      return_documents: null,
      rerank_threshold: null,
      batch_size: null,
      raw_scores: null,
    });

    expect(request).toStrictEqual(expectedRequest({ query: 'q', documents: textDocs(['a']) }));
  });

  it('reads the extras: raw_scores, rerank_threshold, batch_size, top_n 0', () => {
    const raw = openAiDialect.parse({ query: 'q', documents: ['a'], raw_scores: true, rerank_threshold: 0.5, batch_size: 8, top_n: 0 });
    const sig = openAiDialect.parse({ query: 'q', documents: ['a'], raw_scores: false });

    expect(raw.activation).toBe('none');
    expect(raw.threshold).toBe(0.5);
    expect(raw.batchSize).toBe(8);
    expect(raw.topN).toBe(0);
    expect(sig.activation).toBe('sigmoid');
  });

  it('keeps Cohere/Jina object documents as sent, scoring their text', () => {
    const doc = { text: 'requests is popular', title: 'requests' };

    const request = openAiDialect.parse({ query: 'q', documents: ['plain', doc] });

    expect(request.documents).toStrictEqual([{ text: 'plain' }, { text: 'requests is popular', source: doc }]);
  });
});

describe('openAiDialect.formatOutcome: seed response examples', () => {
  it('reproduces the seed 000 OpenAI-compatible response', () => {
    // Arrange
    const seed = loadSeedObject<SeedResponse>('openai-response.json');

    // Act
    const body = format(resultsFromSeed(seed, true), seed.usage.total_tokens);

    // Assert
    expect(body.results).toStrictEqual(seed.results);
    expect(body.usage.total_tokens).toBe(seed.usage.total_tokens);
    expect(body).toMatchObject(seed as unknown as Json);
  });

  it('reproduces the seed 000 short OpenAI-compatible response (Response Data Transformation)', () => {
    const seed = loadSeedObject<SeedResponse>('openai-response-short.json');

    const body = format(resultsFromSeed(seed, true), seed.usage.total_tokens);

    expect(body.results).toStrictEqual(seed.results);
    expect(body.usage.total_tokens).toBe(150);
  });

  it('adds only well-typed extra fields (id, object, model, usage.prompt_tokens/completion_tokens, Cohere v1 meta)', () => {
    const seed = loadSeedObject<SeedResponse>('openai-response.json');

    const body = format(resultsFromSeed(seed, true));

    expect(keysOf(body)).toStrictEqual(['id', 'meta', 'model', 'object', 'results', 'usage']);
    // Cohere v1's meta, which its SDK, LangChain and LiteLLM read: 3 documents are one search unit.
    expect((body as unknown as { meta: unknown }).meta).toEqual({ api_version: { version: '1' }, billed_units: { search_units: 1 } });
    expect(body.id).toBe('rr-0001');
    expect(body.object).toBe('rerank');
    expect(body.model).toBe('test-model');
    // completion_tokens: Together AI clients require it.
    expect(keysOf(body.usage)).toStrictEqual(['completion_tokens', 'prompt_tokens', 'total_tokens']);
    expect(body.usage.completion_tokens).toBe(0);
    expect(typeof body.usage.prompt_tokens).toBe('number');
    expect(Number.isInteger(body.usage.total_tokens)).toBe(true);
  });

  it('returns the client object document as sent (Cohere style)', () => {
    const source = { text: 'requests is popular', title: 'requests' };
    const results: RankedResult[] = [{ index: 0, score: 0.9, document: { text: source.text, source } }];

    const body = format(results);

    expect(body.results).toStrictEqual([{ index: 0, relevance_score: 0.9, document: source }]);
  });

  it('keeps the order, indices and scores it is given (negative logits included)', () => {
    const results: RankedResult[] = [
      { index: 2, score: -2.7788209915161133 },
      { index: 1, score: -2.8233261108398438 },
      { index: 0, score: -3.203111410140991 },
    ];

    const body = format(results);

    expect(body.results).toStrictEqual([
      { index: 2, relevance_score: -2.7788209915161133 },
      { index: 1, relevance_score: -2.8233261108398438 },
      { index: 0, relevance_score: -3.203111410140991 },
    ]);
  });
});

describe('openAiDialect: document presence', () => {
  it('omits the document key (not null) on every result when documents were not asked for', () => {
    const seed = loadSeedObject<SeedResponse>('openai-response.json');

    const body = format(resultsFromSeed(seed, false));
    const wire = JSON.parse(JSON.stringify(body)) as OpenAiBody;

    expect(body.results).toHaveLength(3);
    for (const result of [...body.results, ...wire.results]) {
      expect(Object.hasOwn(result, 'document')).toBe(false);
      expect(keysOf(result)).toStrictEqual(['index', 'relevance_score']);
    }
  });

  it('end to end: return_documents false -> no document key on any result', () => {
    const request = openAiDialect.parse({ ...loadSeedObject<Json>('openai-request.json'), return_documents: false });
    const results = normalizeResults([0.1, 2, -1], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = openAiDialect.formatOutcome(outcomeOf(results, 10), CONTEXT).body as OpenAiBody;

    expect(body.results.map((r) => r['index'])).toStrictEqual([1, 0, 2]);
    expect(body.results.every((r) => !Object.hasOwn(r, 'document'))).toBe(true);
  });

  it('end to end: seed request (return_documents true) -> every result carries {text} of its own index', () => {
    const request = openAiDialect.parse(loadSeedObject('openai-request.json'));
    const results = normalizeResults([0.1, 2, -1], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = openAiDialect.formatOutcome(outcomeOf(results, 10), CONTEXT).body as OpenAiBody;

    expect(body.results).toStrictEqual([
      { index: 1, relevance_score: 2, document: { text: SEED_DOCS[1] } },
      { index: 0, relevance_score: 0.1, document: { text: SEED_DOCS[0] } },
      { index: 2, relevance_score: -1, document: { text: SEED_DOCS[2] } },
    ]);
  });
});

describe('openAiDialect.parse: malformed bodies', () => {
  const cases: [string, unknown, string][] = [
    ['body null', null, 'body'],
    ['body an array', [validBody()], 'body'],
    ['body a string', '{"query":"q"}', 'body'],
    ['query missing', { documents: ['a'] }, 'query'],
    ['query null', { query: null, documents: ['a'] }, 'query'],
    ['query a number', { query: 42, documents: ['a'] }, 'query'],
    ['query an array', { query: ['q'], documents: ['a'] }, 'query'],
    ['documents missing', { query: 'q' }, 'documents'],
    ['documents null', { query: 'q', documents: null }, 'documents'],
    ['documents a string', { query: 'q', documents: 'a' }, 'documents'],
    ['documents an object', { query: 'q', documents: { 0: 'a' } }, 'documents'],
    ['a number document', { query: 'q', documents: ['a', 5] }, 'documents[1]'],
    ['a null document', { query: 'q', documents: [null] }, 'documents[0]'],
    ['an array document', { query: 'q', documents: [['a']] }, 'documents[0]'],
    ['an object document without text', { query: 'q', documents: ['a', 'b', { title: 't' }] }, 'documents[2]'],
    ['an object document with non-string text', { query: 'q', documents: [{ text: 3 }] }, 'documents[0]'],
    ['top_n negative', { ...validBody(), top_n: -1 }, 'top_n'],
    ['top_n non-integer', { ...validBody(), top_n: 1.5 }, 'top_n'],
    ['top_n a string', { ...validBody(), top_n: '3' }, 'top_n'],
    ['top_n a boolean', { ...validBody(), top_n: true }, 'top_n'],
    ['top_n beyond safe integers', { ...validBody(), top_n: 1e300 }, 'top_n'],
    ['return_documents a string', { ...validBody(), return_documents: 'true' }, 'return_documents'],
    ['return_documents a number', { ...validBody(), return_documents: 1 }, 'return_documents'],
    ['model a number', { ...validBody(), model: 7 }, 'model'],
    ['raw_scores a string', { ...validBody(), raw_scores: 'yes' }, 'raw_scores'],
    ['rerank_threshold a string', { ...validBody(), rerank_threshold: '0.5' }, 'rerank_threshold'],
    ['batch_size zero', { ...validBody(), batch_size: 0 }, 'batch_size'],
  ];

  it.each(byParam(cases))('%s -> invalid_request naming %s', (_name, param, body) => {
    expectInvalid(() => openAiDialect.parse(body), param);
  });

  it('the malformed-body error formats as a 400 naming the field', () => {
    const error = expectInvalid(() => openAiDialect.parse({ query: 'q', documents: 'a' }), 'documents');

    const response = openAiDialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(response.body).toStrictEqual({
      message: error.message,
      error: { message: error.message, type: 'invalid_request_error', param: 'documents', code: 'invalid_value' },
    });
  });
});

describe('openAiDialect + validateRerankRequest: semantic rules in the OpenAI spelling', () => {
  it('spells the shared param names as OpenAI clients send them', () => {
    expect(openAiDialect.name).toBe('openai');
    expect(openAiDialect.paramNames(openAiDialect.parse({ query: 'q', documents: ['a'] }))).toStrictEqual({
      query: 'query',
      documents: 'documents',
      batchSize: 'batch_size',
      model: 'model',
      maxChunksPerDoc: 'max_chunks_per_doc',
      prompt: 'instruction',
      maxTokensPerDocument: 'max_tokens_per_doc',
      metadata: 'metadata',
      maxTokensPerQuery: 'max_tokens_per_query',
      truncationSide: 'truncation_side',
      priority: 'priority',
    });
  });

  it.each(
    byParam([
      ['empty query', { query: '', documents: ['a'] }, 'query'],
      ['blank query', { query: '  \n', documents: ['a'] }, 'query'],
      ['empty documents', { query: 'q', documents: [] }, 'documents'],
      ['too many documents', { query: 'q', documents: Array.from({ length: 1001 }, () => 'd') }, 'documents'],
      ['batch_size above the limit', { query: 'q', documents: ['a'], batch_size: 65 }, 'batch_size'],
    ]),
  )('%s -> invalid_request naming %s', (_name, param, body) => {
    const request = openAiDialect.parse(body);

    expectInvalid(() => validateRerankRequest(request, openAiDialect.paramNames(request), LIMITS), param);
  });
});

describe('openAiDialect.formatError', () => {
  it.each(ALL_KINDS)('%s -> its status and the {"message", "error":{message,type,param,code}} envelope', (kind) => {
    const error = new RerankError(kind, 'detail for the client', { param: 'top_n' });

    const response = openAiDialect.formatError(error, CONTEXT);
    const body = response.body as { error: Json; message: unknown };

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    // Cohere v1-style clients read the top-level message; OpenAI-style ones error.message.
    expect(keysOf(body)).toStrictEqual(['error', 'message']);
    expect(body['message']).toBe(body.error['message']);
    expect(keysOf(body.error)).toStrictEqual(['code', 'message', 'param', 'type']);
    expect(typeof body.error['message']).toBe('string');
    expect(typeof body.error['type']).toBe('string');
    expect(typeof body.error['code']).toBe('string');
    expect(body.error['param']).toBe('top_n');
  });

  it('maps the kinds onto the OpenAI type/code vocabulary', () => {
    const envelope = (kind: (typeof ALL_KINDS)[number]): Json =>
      (openAiDialect.formatError(new RerankError(kind, 'x'), CONTEXT).body as { error: Json }).error;

    expect(envelope('invalid_request')).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value' });
    expect(envelope('unauthorized')).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(envelope('rate_limited')).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(envelope('internal')).toMatchObject({ type: 'server_error', code: 'internal_error' });
  });

  it('param is null (present, not absent) when the error names no field', () => {
    const response = openAiDialect.formatError(new RerankError('unauthorized', 'missing API key'), CONTEXT);

    expect(response.body).toStrictEqual({
      message: 'missing API key',
      error: { message: 'missing API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
  });

  it('never exposes the original message of an internal error', () => {
    const secret = 'ENOENT: /var/task/models/model.onnx (password=hunter2)';
    const errors = [new RerankError('internal', secret), toRerankError(new Error(secret)), toRerankError(secret)];

    for (const error of errors) {
      const response = openAiDialect.formatError(error, CONTEXT);

      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toContain('hunter2');
      expect((response.body as { error: Json }).error['message']).toBe('Internal server error');
    }
  });
});
