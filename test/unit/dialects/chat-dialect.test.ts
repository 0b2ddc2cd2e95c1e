import { describe, expect, it } from 'vitest';
import { normalizeResults } from '../../../shared/core/normalize-results.js';
import { RerankError, toRerankError } from '../../../shared/core/rerank-error.js';
import type { RankedResult } from '../../../shared/core/rerank-outcome.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { chatDialect } from '../../../shared/dialects/chat/chat-dialect.js';
import {
  ALL_KINDS,
  CONTEXT,
  EXPECTED_STATUS,
  LIMITS,
  expectInvalid,
  expectedRequest,
  byParam,
  keysOf,
  loadSeed,
  loadSeedObject,
  outcomeOf,
  seedText,
  textDocs,
  type Json,
} from './dialect-test-helpers.js';

interface ContentResult {
  index: number;
  score: number;
  document?: string;
}
interface ResultsContent {
  results: ContentResult[];
}
interface SeedChatResponse {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  choices: { index?: number; message: { role?: string; content: string }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens: number };
}
interface ChatBody {
  id: unknown;
  object: unknown;
  created: unknown;
  model: unknown;
  choices: { index: unknown; message: { role: unknown; content: string }; finish_reason: unknown }[];
  usage: { prompt_tokens: unknown; completion_tokens: unknown; total_tokens: unknown };
}

const SEED_DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'requests is a popular third-party HTTP library for Python',
  'httpx is a modern async HTTP client for Python',
];

/** A chat body whose single user message carries `content` (a string, or anything for malformed cases). */
const chatBody = (content: unknown, extra: Json = {}): Json => ({
  model: 'RerankService',
  messages: [{ role: 'user', content }],
  stream: false,
  ...extra,
});

/** A chat body whose content is the JSON encoding of `data`. */
const dataBody = (data: unknown): Json => chatBody(JSON.stringify(data));

const validData = (extra: Json = {}): Json => ({ query: 'q', candidates: ['a', 'b'], ...extra });

const contentOf = (seed: SeedChatResponse): ResultsContent => {
  const choice = seed.choices[0];
  if (choice === undefined) throw new Error('seed has no choice');
  return JSON.parse(choice.message.content) as ResultsContent;
};

const resultsFromContent = (content: ResultsContent): RankedResult[] =>
  content.results.map((r) => ({
    index: r.index,
    score: r.score,
    ...(r.document === undefined ? {} : { document: { text: r.document } }),
  }));

const format = (results: readonly RankedResult[], totalTokens = 150, model = 'RerankService'): ChatBody => {
  const response = chatDialect.formatOutcome(outcomeOf(results, totalTokens, model), CONTEXT);
  expect(response.status).toBe(200);
  return response.body as ChatBody;
};

const replyContent = (body: ChatBody): unknown => {
  expect(body.choices).toHaveLength(1);
  const choice = body.choices[0];
  expect(typeof choice?.message.content).toBe('string');
  return JSON.parse(choice?.message.content ?? 'null') as unknown;
};

describe('chatDialect.parse: seed request examples', () => {
  it.each(['chat-request.json', 'chat-request-complete.json'])('parses the seed request %s (top_k 3)', (name) => {
    // Arrange
    const body = loadSeedObject(name);

    // Act
    const request = chatDialect.parse(body);

    // Assert
    expect(request).toStrictEqual(
      expectedRequest({
        model: 'RerankService',
        query: 'python http library',
        documents: textDocs(SEED_DOCS),
        topN: 3,
        returnDocuments: true, // chat replies carry documents unless told not to
      }),
    );
  });

  it('parses the seed 000 Chat-Based Transformation (top_k 2)', () => {
    const body = loadSeedObject('chat-request-top-k-2.json');

    const request = chatDialect.parse(body);

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'RerankService',
        query: 'python http library',
        documents: textDocs(['urllib', 'requests', 'httpx']),
        topN: 2,
        returnDocuments: true, // chat replies carry documents unless told not to
      }),
    );
  });

  it('parses the seed 001 "Rerank Data JSON String" (prompt and batch_size included) sent verbatim as content', () => {
    const content = seedText('chat-content-rerank-data.json');

    const request = chatDialect.parse(chatBody(content, { model: 'rerank-model-name' }));

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'rerank-model-name',
        query: 'search query text',
        documents: textDocs(['document text 1', 'document text 2', 'document text 3']),
        topN: 3,
        prompt: 'optional prompt text',
        batchSize: 10,
        returnDocuments: true, // chat replies carry documents unless told not to
      }),
    );
  });

  it('parses the seed 001 "Example JSON string" as message content', () => {
    const content = loadSeed('chat-content-example-string.json');
    expect(typeof content).toBe('string');

    const request = chatDialect.parse(chatBody(content));

    expect(request).toStrictEqual(
      expectedRequest({
        model: 'RerankService',
        query: 'python http library',
        documents: textDocs(['urllib is a built-in library', 'requests is popular', 'httpx is modern']),
        topN: 3,
        returnDocuments: true, // chat replies carry documents unless told not to
      }),
    );
  });

  it('rejects the seed 001 request template, whose content is a placeholder and not JSON', () => {
    const body = loadSeedObject('chat-request-template.json');

    expectInvalid(() => chatDialect.parse(body), 'messages[0].content');
  });

  it('seed requests pass the shared validation unchanged', () => {
    for (const name of ['chat-request.json', 'chat-request-complete.json', 'chat-request-top-k-2.json']) {
      const request = chatDialect.parse(loadSeedObject(name));

      expect(validateRerankRequest(request, chatDialect.paramNames(request), LIMITS)).toBe(request);
    }
  });

  it('reads include_docs (seed 000 parameter name) and return_documents for documents', () => {
    const includeDocs = chatDialect.parse(dataBody(validData({ include_docs: true })));
    const returnDocuments = chatDialect.parse(dataBody(validData({ return_documents: true })));
    const precedence = chatDialect.parse(dataBody(validData({ include_docs: false, return_documents: true })));

    expect(includeDocs.returnDocuments).toBe(true);
    expect(returnDocuments.returnDocuments).toBe(true);
    expect(precedence.returnDocuments).toBe(false);
  });

  it('accepts stream absent or null, null optional fields, and no model', () => {
    const request = chatDialect.parse({
      messages: [{ role: 'user', content: JSON.stringify(validData({ top_k: null, prompt: null, batch_size: null, include_docs: null })) }],
      stream: null,
    });

    expect(request).toStrictEqual(expectedRequest({ query: 'q', documents: textDocs(['a', 'b']), returnDocuments: true }));
  });

  it('stream_options.include_usage: the usage comes in an extra last chunk with choices [], every other chunk usage null', () => {
    const request = chatDialect.parse(chatBody(JSON.stringify(validData()), { stream: true, stream_options: { include_usage: true } }));
    const response = chatDialect.formatOutcome(outcomeOf([{ index: 0, score: 0.5 }], 3), CONTEXT, request);
    const events = response.events as { choices: unknown[]; usage: unknown }[];
    expect(events).toHaveLength(4);
    expect(events.slice(0, 3).map((e) => e.usage)).toStrictEqual([null, null, null]);
    expect(events[3]).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 },
    });
    // Without it no chunk carries a usage.
    const plain = chatDialect.formatOutcome(
      outcomeOf([{ index: 0, score: 0.5 }], 3),
      CONTEXT,
      chatDialect.parse(chatBody(JSON.stringify(validData()), { stream: true })),
    );
    expect((plain.events as Record<string, unknown>[]).every((e) => !('usage' in e))).toBe(true);
  });

  it('stream: true is read into the request (the reply is then server-sent chunks)', () => {
    const request = chatDialect.parse(chatBody(JSON.stringify(validData()), { stream: true }));

    expect(request.echo).toStrictEqual({ stream: true, includeUsage: false });
    const response = chatDialect.formatOutcome(outcomeOf([{ index: 0, score: 0.5 }], 3), CONTEXT, request);
    const events = response.events as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[] }[];
    expect(events.map((e) => e.object)).toStrictEqual(['chat.completion.chunk', 'chat.completion.chunk', 'chat.completion.chunk']);
    expect(JSON.parse(events.map((e) => e.choices[0]?.delta.content ?? '').join(''))).toStrictEqual(
      replyContent(response.body as ChatBody),
    );
    expect(events.map((e) => e.choices[0]?.finish_reason)).toStrictEqual([null, null, 'stop']);
  });

  it('turns documents off only when the content says include_docs or return_documents false', () => {
    expect(chatDialect.parse(dataBody(validData({}))).returnDocuments).toBe(true);
    expect(chatDialect.parse(dataBody(validData({ include_docs: false }))).returnDocuments).toBe(false);
    expect(chatDialect.parse(dataBody(validData({ return_documents: false }))).returnDocuments).toBe(false);
  });

  it('finds the user message after a system message, and accepts content as text parts', () => {
    const afterSystem = chatDialect.parse({
      messages: [
        { role: 'system', content: 'You are a reranker.' },
        { role: 'user', content: JSON.stringify(validData()) },
      ],
    });
    const parts = chatDialect.parse(
      chatBody([
        { type: 'text', text: '{"query": "q", ' },
        { type: 'text', text: '"candidates": ["a", "b"]}' },
      ]),
    );

    expect(afterSystem.documents).toStrictEqual(textDocs(['a', 'b']));
    expect(parts.query).toBe('q');
    expect(parts.documents).toStrictEqual(textDocs(['a', 'b']));
  });

  it('reads rerank_threshold and raw_scores from the content', () => {
    const request = chatDialect.parse(dataBody(validData({ rerank_threshold: -3, raw_scores: true })));

    expect(request.threshold).toBe(-3);
    expect(request.activation).toBe('none');
  });
});

describe('chatDialect.formatOutcome: seed response examples', () => {
  it('reproduces the content and usage of the seed 000 chat response (documents as plain strings)', () => {
    // Arrange
    const seed = loadSeedObject<SeedChatResponse>('chat-response.json');
    const expectedContent = contentOf(seed);

    // Act
    const body = format(resultsFromContent(expectedContent), seed.usage?.total_tokens);

    // Assert
    expect(replyContent(body)).toStrictEqual(expectedContent);
    expect(body.usage.total_tokens).toBe(200);
    expect(body).toMatchObject({ usage: seed.usage });
  });

  it('reproduces the seed 000 short chat response (Response Data Transformation)', () => {
    const seed = loadSeedObject<SeedChatResponse>('chat-response-short.json');
    const expectedContent = contentOf(seed);

    const body = format(resultsFromContent(expectedContent), 200);

    expect(replyContent(body)).toStrictEqual({
      results: [
        { index: 0, score: 0.95, document: 'requests' },
        { index: 1, score: 0.85, document: 'httpx' },
      ],
    });
    expect(replyContent(body)).toStrictEqual(expectedContent);
    expect(body.usage.total_tokens).toBe(200);
  });

  it('reproduces the seed 000 alternative "Dict with Results" content when documents are not asked for', () => {
    const seed = loadSeedObject<SeedChatResponse>('chat-response-alt-dict-results.json');
    const expectedContent = contentOf(seed);

    const body = format(resultsFromContent(expectedContent));

    expect(replyContent(body)).toStrictEqual(expectedContent);
  });

  it('reproduces the seed 001 "Example 1: Dictionary format with results" exactly, except id and token split', () => {
    const seed = loadSeedObject<SeedChatResponse>('chat-response-complete-example1.json');
    const expectedContent = contentOf(seed);
    const totalTokens = seed.usage?.total_tokens ?? -1;

    const body = format(resultsFromContent(expectedContent), totalTokens, 'RerankService');

    expect(replyContent(body)).toStrictEqual(expectedContent);
    expect(replyContent(body)).toStrictEqual(loadSeed('chat-content-results-format1-results.json'));
    expect(body.object).toBe(seed.object);
    expect(body.created).toBe(seed.created);
    expect(body.model).toBe(seed.model);
    expect(body.choices[0]?.index).toBe(0);
    expect(body.choices[0]?.message.role).toBe('assistant');
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(body.usage.total_tokens).toBe(88);
  });

  it('has the field set and types of the seed 001 response structure', () => {
    const template = loadSeedObject<SeedChatResponse>('chat-response-template.json');
    const body = format([{ index: 1, score: 0.95 }], 150);

    expect(keysOf(body)).toStrictEqual(keysOf(template));
    // The seed's fields, plus the two OpenAI's schema requires (nullable) that strict clients check: logprobs, refusal.
    expect(keysOf(body.choices[0])).toStrictEqual([...keysOf(template.choices[0]), 'logprobs'].sort());
    expect(keysOf(body.choices[0]?.message)).toStrictEqual([...keysOf(template.choices[0]?.message), 'refusal'].sort());
    expect(body.choices[0]).toMatchObject({ logprobs: null, message: { refusal: null } });
    expect(keysOf(body.usage)).toStrictEqual(keysOf(template.usage));
    expect(typeof body.id).toBe('string');
    expect(body.id).toBe('chatcmpl-rr-0001');
    expect(body.object).toBe('chat.completion');
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.created).toBe(CONTEXT.now);
    expect(body.model).toBe('RerankService');
    for (const value of Object.values(body.usage)) expect(Number.isInteger(value)).toBe(true);
    expect(body.usage.total_tokens).toBe(150);
  });

  it('content is always the recommended {"results": [...]} object, never a bare list', () => {
    const body = format([
      { index: 2, score: -2.7788209915161133 },
      { index: 1, score: -2.8233261108398438 },
      { index: 0, score: -3.203111410140991 },
    ]);

    const content = replyContent(body);

    expect(Array.isArray(content)).toBe(false);
    expect(content).toStrictEqual({
      results: [
        { index: 2, score: -2.7788209915161133 },
        { index: 1, score: -2.8233261108398438 },
        { index: 0, score: -3.203111410140991 },
      ],
    });
  });

  it('sends the document as a plain string even for object documents', () => {
    const source = { text: 'requests is popular', title: 'requests' };

    const body = format([{ index: 0, score: 0.9, document: { text: source.text, source } }]);

    expect(replyContent(body)).toStrictEqual({ results: [{ index: 0, score: 0.9, document: 'requests is popular' }] });
  });

  it('keeps an empty-string document rather than dropping it', () => {
    const body = format([{ index: 0, score: 0.5, document: { text: '' } }]);

    expect(replyContent(body)).toStrictEqual({ results: [{ index: 0, score: 0.5, document: '' }] });
  });
});

describe('chatDialect: document presence', () => {
  it('omits the document key (not null) on every result when documents were not asked for', () => {
    const seed = loadSeedObject<SeedChatResponse>('chat-response.json');
    const withoutDocs = resultsFromContent(contentOf(seed)).map(({ index, score }) => ({ index, score }));

    const content = replyContent(format(withoutDocs)) as { results: Json[] };

    expect(content.results).toHaveLength(2);
    for (const result of content.results) {
      expect(Object.hasOwn(result, 'document')).toBe(false);
      expect(keysOf(result)).toStrictEqual(['index', 'score']);
    }
  });

  it('end to end: seed top_k 2 request with include_docs -> two results, each with its own text', () => {
    const seed = loadSeedObject<{ messages: { content: string }[] }>('chat-request-top-k-2.json');
    const data = JSON.parse(seed.messages[0]?.content ?? '') as Json;
    const request = chatDialect.parse(dataBody({ ...data, include_docs: true }));
    const results = normalizeResults([0.2, 0.9, 0.5], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = chatDialect.formatOutcome(outcomeOf(results, 20), CONTEXT).body as ChatBody;

    expect(replyContent(body)).toStrictEqual({
      results: [
        { index: 1, score: 0.9, document: 'requests' },
        { index: 2, score: 0.5, document: 'httpx' },
      ],
    });
  });

  it("end to end: the seed top_k 2 request as sent (no include_docs) -> documents on (seed 000's client drops results without one)", () => {
    const asSent = chatDialect.parse(loadSeedObject('chat-request-top-k-2.json'));
    expect(asSent.returnDocuments).toBe(true);
  });

  it('end to end: the seed top_k 2 request with include_docs false -> no document key', () => {
    const seed = loadSeedObject<{ messages: { content: string }[] }>('chat-request-top-k-2.json');
    const data = JSON.parse(seed.messages[0]?.content ?? '') as Json;
    const request = chatDialect.parse(dataBody({ ...data, include_docs: false }));
    const results = normalizeResults([0.2, 0.9, 0.5], {
      activation: 'none',
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });

    const body = chatDialect.formatOutcome(outcomeOf(results, 20), CONTEXT).body as ChatBody;

    expect(replyContent(body)).toStrictEqual({
      results: [
        { index: 1, score: 0.9 },
        { index: 2, score: 0.5 },
      ],
    });
  });
});

describe('chatDialect.parse: malformed bodies', () => {
  const CONTENT = 'messages[0].content';
  const cases: [string, unknown, string][] = [
    ['body null', null, 'body'],
    ['body an array', [chatBody('{}')], 'body'],
    ['messages missing', { model: 'RerankService' }, 'messages'],
    ['messages null', { messages: null }, 'messages'],
    ['messages empty', { messages: [] }, 'messages'],
    ['messages a string', { messages: JSON.stringify(validData()) }, 'messages'],
    ['messages an object', { messages: { role: 'user', content: JSON.stringify(validData()) } }, 'messages'],
    ['no user message', { messages: [{ role: 'system', content: JSON.stringify(validData()) }] }, 'messages'],
    ['only non-object messages', { messages: ['hello', 3] }, 'messages'],
    ['content missing', { messages: [{ role: 'user' }] }, CONTENT],
    ['content null', chatBody(null), CONTENT],
    ['content a number', chatBody(42), CONTENT],
    ['content an object', chatBody(validData()), CONTENT],
    ['content parts that are not text', chatBody([{ type: 'image_url', image_url: { url: 'x' } }]), CONTENT],
    ['content not JSON', chatBody('rerank these please'), CONTENT],
    ['content empty', chatBody(''), CONTENT],
    ['content JSON without query', dataBody({ candidates: ['a'] }), CONTENT],
    ['content JSON without candidates', dataBody({ query: 'q' }), CONTENT],
    ['content JSON with documents instead of candidates', dataBody({ query: 'q', documents: ['a'] }), CONTENT],
    ['content JSON query null', dataBody({ query: null, candidates: ['a'] }), CONTENT],
    ['content JSON query a number', dataBody({ query: 1, candidates: ['a'] }), CONTENT],
    ['content JSON candidates a string', dataBody({ query: 'q', candidates: 'a' }), CONTENT],
    ['content a JSON array', dataBody([['requests', 0.9]]), CONTENT],
    ['content a JSON string', dataBody('{"query": "q"}'), CONTENT],
    ['content JSON null', chatBody('null'), CONTENT],
    ['a number candidate', dataBody(validData({ candidates: ['a', 1] })), 'candidates[1]'],
    ['an object candidate without text', dataBody(validData({ candidates: [{ doc: 'a' }] })), 'candidates[0]'],
    ['top_k negative', dataBody(validData({ top_k: -1 })), 'top_k'],
    ['top_k non-integer', dataBody(validData({ top_k: 2.5 })), 'top_k'],
    ['top_k a string', dataBody(validData({ top_k: '2' })), 'top_k'],
    ['include_docs a string', dataBody(validData({ include_docs: 'true' })), 'include_docs'],
    ['return_documents a number', dataBody(validData({ return_documents: 1 })), 'return_documents'],
    ['prompt a number', dataBody(validData({ prompt: 5 })), 'prompt'],
    ['batch_size zero', dataBody(validData({ batch_size: 0 })), 'batch_size'],
    ['stream a string', chatBody(JSON.stringify(validData()), { stream: 'false' }), 'stream'],
    ['model a number', chatBody(JSON.stringify(validData()), { model: 1 }), 'model'],
  ];

  it.each(byParam(cases))('%s -> invalid_request naming %s', (_name, param, body) => {
    expectInvalid(() => chatDialect.parse(body), param);
  });

  it('names the content of the user message it actually read (user message after a system message)', () => {
    const body = {
      messages: [
        { role: 'system', content: 'You are a reranker.' },
        { role: 'user', content: 'not json' },
      ],
    };

    expectInvalid(() => chatDialect.parse(body), 'messages[1].content');
  });

  it('a non-string content in a later user message names that message', () => {
    const body = {
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: 7 },
      ],
    };

    expectInvalid(() => chatDialect.parse(body), 'messages[1].content');
  });

  it('the malformed-body error formats as an OpenAI-style 400 naming the field', () => {
    const error = expectInvalid(() => chatDialect.parse(chatBody('not json')), CONTENT);

    const response = chatDialect.formatError(error, CONTEXT);

    expect(response.status).toBe(400);
    expect(response.body).toStrictEqual({
      error: { message: error.message, type: 'invalid_request_error', param: CONTENT, code: 'invalid_value' },
    });
  });
});

describe('chatDialect + validateRerankRequest: semantic rules in the chat spelling', () => {
  it('spells the shared param names as the rerank data JSON does', () => {
    expect(chatDialect.name).toBe('chat');
    expect(chatDialect.paramNames(chatDialect.parse(dataBody(validData())))).toStrictEqual({
      query: 'query',
      documents: 'candidates',
      batchSize: 'batch_size',
      prompt: 'prompt',
    });
  });

  it.each(
    byParam([
      ['empty query', dataBody({ query: '', candidates: ['a'] }), 'query'],
      ['blank query', dataBody({ query: '   ', candidates: ['a'] }), 'query'],
      ['empty candidates', dataBody({ query: 'q', candidates: [] }), 'candidates'],
      ['too many candidates', dataBody({ query: 'q', candidates: Array.from({ length: 1001 }, () => 'd') }), 'candidates'],
      ['batch_size above the limit', dataBody(validData({ batch_size: 65 })), 'batch_size'],
    ]),
  )('%s -> invalid_request naming %s', (_name, param, body) => {
    const request = chatDialect.parse(body);

    expectInvalid(() => validateRerankRequest(request, chatDialect.paramNames(request), LIMITS), param);
  });
});

describe('chatDialect.formatError', () => {
  it.each(ALL_KINDS)('%s -> its status and the OpenAI-style error envelope', (kind) => {
    const error = new RerankError(kind, 'detail for the client', { param: 'candidates' });

    const response = chatDialect.formatError(error, CONTEXT);
    const body = response.body as { error: Json };

    expect(response.status).toBe(EXPECTED_STATUS[kind]);
    expect(keysOf(body)).toStrictEqual(['error']);
    expect(keysOf(body.error)).toStrictEqual(['code', 'message', 'param', 'type']);
    expect(typeof body.error['message']).toBe('string');
    expect(typeof body.error['type']).toBe('string');
    expect(typeof body.error['code']).toBe('string');
    expect(body.error['param']).toBe('candidates');
  });

  it('unauthorized -> 401 with code invalid_api_key and param null', () => {
    const response = chatDialect.formatError(new RerankError('unauthorized', 'Invalid API key'), CONTEXT);

    expect(response).toStrictEqual({
      status: 401,
      body: { error: { message: 'Invalid API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    });
  });

  it('never exposes the original message of an internal error', () => {
    const secret = 'Cannot read properties of undefined (reading "scores") at /var/task/index.mjs';
    const errors = [new RerankError('internal', secret), toRerankError(new Error(secret)), toRerankError(secret)];

    for (const error of errors) {
      const response = chatDialect.formatError(error, CONTEXT);

      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toContain('/var/task');
      expect((response.body as { error: Json }).error['message']).toBe('Internal server error');
    }
  });
});
