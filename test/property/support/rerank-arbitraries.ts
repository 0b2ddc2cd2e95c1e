import fc from 'fast-check';
import { FIXTURE_MODEL_ID } from '../../../shared/config/service-config.js';
import { deepNesting, extremeNumberLiteral, rawJson, toJsonText } from './json-text.js';
import type { WireDialect } from './response-oracle.js';

/**
 * A rerank request in domain terms, before a dialect spells it. A key that is absent is not sent;
 * mutated requests put any JSON value (or raw JSON text) under any key.
 */
export interface RerankFields {
  model?: unknown;
  query?: unknown;
  documents?: unknown;
  topN?: unknown;
  returnDocuments?: unknown;
  rawScores?: unknown;
  threshold?: unknown;
  batchSize?: unknown;
  prompt?: unknown;
  /** Chat only: `include_docs` or `return_documents` carries `returnDocuments`. */
  docsKey?: 'include_docs' | 'return_documents';
}

export const FIELD_NAMES = [
  'model',
  'query',
  'documents',
  'topN',
  'returnDocuments',
  'rawScores',
  'threshold',
  'batchSize',
  'prompt',
] as const;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Short text, mostly words, sometimes any unicode including lone surrogates and controls. */
export const shortText = (minLength = 0): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(fc.constantFrom('python', 'http', 'library', 'the', 'rerank', 'fast', 'κόσμε', '東京', '🙂', 'x'), {
          minLength,
          maxLength: 6,
        })
        .map((w) => w.join(' ')),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: 16 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.oneof(loneSurrogate, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })),
        minLength,
        maxLength: 12,
      }),
    },
  );

/** Strings a validator may mistake for something else. */
export const trickyString = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '\u0000',
      '\uFEFF',
      '\u202E',
      'NaN',
      'Infinity',
      '-Infinity',
      '1e309',
      '-1',
      '3',
      'null',
      'undefined',
      'true',
      '[]',
      '{}',
      '__proto__',
      'constructor',
      'toString',
    ),
  },
  { weight: 3, arbitrary: shortText() },
  // Long text is tokenized and truncated per pair: rarer, as it dominates scoring time.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 8_000 }).map((n) => 'long '.repeat(Math.ceil(n / 5)).slice(0, n)) },
);

/** Any value a field could wrongly hold: wrong types, null, extreme numbers, odd strings, deep or mixed structures. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0.5,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      1e21,
      [],
      {},
      [null],
      [[]],
      [{}],
      { text: null },
    ),
  },
  { weight: 2, arbitrary: trickyString },
  { weight: 2, arbitrary: extremeNumberLiteral.map(rawJson) },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: deepNesting(20_000) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.record({ text: fc.string() })), {
      maxLength: 8,
    }),
  },
);

/** A document as clients send it: a string, or an object with `text` and possibly more fields. */
export const validDocument: fc.Arbitrary<string | Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: shortText() },
  {
    weight: 1,
    arbitrary: fc.record(
      { text: shortText(), title: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }) },
      { requiredKeys: ['text'] },
    ),
  },
);

/** Documents arrays of mixed types: mostly good entries with a bad one somewhere. */
export const mixedDocuments: fc.Arbitrary<unknown> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: validDocument as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: wrongValue },
    { weight: 1, arbitrary: fc.record({ text: wrongValue, extra: wrongValue }) },
    { weight: 1, arbitrary: fc.record({ text: shortText(), nested: wrongValue }) },
  ),
  { maxLength: 8 },
);

const nonBlankQuery = shortText(1).filter((q) => q.trim() !== '');

/** A request every dialect must answer with a ranking: few, short documents so thousands run quickly. */
export const validFields: fc.Arbitrary<RerankFields> = fc.record(
  {
    model: fc.constant(FIXTURE_MODEL_ID),
    query: nonBlankQuery,
    documents: fc.array(validDocument, { minLength: 1, maxLength: 8 }),
    topN: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant(2 ** 53 - 1), fc.constant(null)),
    returnDocuments: fc.oneof(fc.boolean(), fc.constant(null)),
    rawScores: fc.boolean(),
    threshold: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)),
    batchSize: fc.integer({ min: 1, max: 1_000 }),
    prompt: shortText(),
    docsKey: fc.constantFrom('include_docs' as const, 'return_documents' as const),
  },
  { requiredKeys: ['query', 'documents', 'docsKey'] },
);

/** A valid request with 1-3 fields replaced by wrong values or removed. */
export const mutatedFields: fc.Arbitrary<RerankFields> = fc
  .tuple(
    validFields,
    fc.array(
      fc.tuple(
        fc.constantFrom(...FIELD_NAMES),
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 6, arbitrary: wrongValue },
          { weight: 2, arbitrary: mixedDocuments },
          // Past RERANK_MAX_DOCUMENTS (400), or past the synchronous limit (a queued job the endpoint waits for).
          {
            weight: 1,
            arbitrary: fc
              .oneof({ weight: 4, arbitrary: fc.constant(10_001) }, { weight: 1, arbitrary: fc.constant(257) })
              .map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? '' : 'a'))),
          },
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([fields, mutations]) => {
    const mutated: RerankFields = { ...fields };
    for (const [name, value] of mutations) {
      if (value === undefined) delete mutated[name];
      else mutated[name] = value;
    }
    return mutated;
  });

const put = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (value !== undefined) target[key] = value;
};

/** The content JSON of a chat-based rerank request. */
export function chatContent(fields: RerankFields): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  put(content, 'query', fields.query);
  put(content, 'candidates', fields.documents);
  put(content, 'top_k', fields.topN);
  put(content, fields.docsKey ?? 'include_docs', fields.returnDocuments);
  put(content, 'raw_scores', fields.rawScores);
  put(content, 'rerank_threshold', fields.threshold);
  put(content, 'batch_size', fields.batchSize);
  put(content, 'prompt', fields.prompt);
  return content;
}

export const chatBody = (model: unknown, content: unknown): Record<string, unknown> => {
  const body: Record<string, unknown> = { messages: [{ role: 'user', content }] };
  put(body, 'model', model);
  return body;
};

/** The fields spelled as the dialect's JSON body (raw JSON markers still in place: send with `toJsonText`). */
export function wireBody(dialect: WireDialect, fields: RerankFields): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  switch (dialect) {
    case 'openai':
      put(body, 'model', fields.model);
      put(body, 'query', fields.query);
      put(body, 'documents', fields.documents);
      put(body, 'top_n', fields.topN);
      put(body, 'return_documents', fields.returnDocuments);
      put(body, 'raw_scores', fields.rawScores);
      put(body, 'rerank_threshold', fields.threshold);
      put(body, 'batch_size', fields.batchSize);
      return body;
    case 'dashscope': {
      const input: Record<string, unknown> = {};
      put(input, 'query', fields.query);
      put(input, 'documents', fields.documents);
      const parameters: Record<string, unknown> = {};
      put(parameters, 'top_n', fields.topN);
      put(parameters, 'return_documents', fields.returnDocuments);
      put(parameters, 'raw_scores', fields.rawScores);
      put(parameters, 'rerank_threshold', fields.threshold);
      put(parameters, 'batch_size', fields.batchSize);
      put(parameters, 'instruct', fields.prompt);
      put(body, 'model', fields.model);
      return { ...body, input, parameters };
    }
    case 'chat':
      return chatBody(fields.model, toJsonText(chatContent(fields)));
  }
}

/** Structural damage to a whole body: containers replaced, extra keys, the body wrapped or re-encoded. */
export const bodyMutation = (dialect: WireDialect): fc.Arbitrary<(body: Record<string, unknown>) => unknown> => {
  const containers =
    dialect === 'dashscope' ? ['input', 'parameters'] : dialect === 'chat' ? ['messages', 'stream'] : ['documents', 'query'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant((b: Record<string, unknown>) => b) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...containers), wrongValue).map(([key, value]) => (b: Record<string, unknown>) => ({
        ...b,
        [key]: value,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.string({ maxLength: 12 }), wrongValue).map(([key, value]) => (b: Record<string, unknown>) => ({
        ...b,
        [key]: value,
      })),
    },
    // Nesting far deeper than any recursive reader copes with, in a field the service ignores.
    { weight: 1, arbitrary: deepNesting(100_000).map((value) => (b: Record<string, unknown>) => ({ ...b, extra: value })) },
    { weight: 1, arbitrary: fc.constant((b: Record<string, unknown>) => [b]) },
    { weight: 1, arbitrary: fc.constant((b: Record<string, unknown>) => toJsonText(b)) },
    { weight: 1, arbitrary: fc.constant((b: Record<string, unknown>) => ({ body: b })) },
  );
};

/** The chat `messages` array bent out of shape around a given content. */
export const chatMessagesMutation: fc.Arbitrary<(content: unknown) => unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constant((content: unknown) => [{ role: 'user', content }]) },
  {
    weight: 1,
    arbitrary: fc.constant((content: unknown) => [
      { role: 'system', content: 'rank well' },
      { role: 'user', content },
    ]),
  },
  { weight: 1, arbitrary: fc.constant((content: unknown) => [{ role: 'assistant', content }]) },
  { weight: 1, arbitrary: fc.constant((content: unknown) => [null, 'user', { role: 'user', content }]) },
  { weight: 1, arbitrary: fc.constant((content: unknown) => [{ role: 'user', content: [{ type: 'text', text: content }] }]) },
  {
    weight: 1,
    arbitrary: fc.constant((content: unknown) => {
      const text = typeof content === 'string' ? content : toJsonText(content);
      const cut = Math.floor(text.length / 2);
      return [
        {
          role: 'user',
          content: [
            { type: 'text', text: text.slice(0, cut) },
            { type: 'text', text: text.slice(cut) },
          ],
        },
      ];
    }),
  },
  { weight: 1, arbitrary: wrongValue.map((role) => (content: unknown) => [{ role, content }]) },
  { weight: 1, arbitrary: fc.constant(() => []) },
);

/** Chat content strings: arbitrary JSON, JSON of near-valid rerank requests, free text, truncated JSON. */
export const chatContentText: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 3, arbitrary: mutatedFields.map((f) => toJsonText(chatContent(f))) },
  { weight: 1, arbitrary: trickyString },
  { weight: 1, arbitrary: mutatedFields.map((f) => toJsonText(chatContent(f))).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => toJsonText(toJsonText(v))) },
);

/** Bodies that are not JSON text at all: random bytes as base64, broken UTF-8, truncated or empty text. */
export const rawBodyEvent: fc.Arbitrary<{ body: string; isBase64Encoded: boolean }> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => ({ body: Buffer.from(b).toString('base64'), isBase64Encoded: true })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.json({ maxDepth: 2 }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([json, junk]) => ({
      body: Buffer.concat([Buffer.from(json), Buffer.from(junk.map((x) => x | 0x80))]).toString('base64'),
      isBase64Encoded: true,
    })),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }).map((s) => ({ body: s, isBase64Encoded: true })) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }).map((s) => ({ body: s, isBase64Encoded: false })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', '\n', 'null', '{', '{"query":', '[]', '""', '0', 'true', '\uFEFF{}')
      .map((s) => ({ body: s, isBase64Encoded: false })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.json({ maxDepth: 2 }), fc.nat())
      .map(([t, n]) => ({ body: t.slice(0, t.length === 0 ? 0 : n % t.length), isBase64Encoded: false })),
  },
);

/** Headers a client may send: junk authorization, `Prefer: respond-async` spellings, odd content types, any case. */
export const requestHeaders = (validKey?: string): fc.Arbitrary<Record<string, string>> =>
  fc
    .tuple(
      fc.record(
        {
          authorization: fc.oneof(
            ...(validKey ? [fc.constant(`Bearer ${validKey}`), fc.constant(`bearer   ${validKey}  `)] : []),
            fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'Token x'),
            fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `Bearer ${s}`),
            fc.string({ maxLength: 40 }),
          ),
          prefer: fc.constantFrom('respond-async', 'RESPOND-ASYNC', 'wait=5, respond-async', 'respond-asyncx', 'return=minimal', ''),
          'content-type': fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            '',
          ),
        },
        { requiredKeys: [] },
      ),
      fc.boolean(),
    )
    .map(([headers, capitalize]) => {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined)
          out[capitalize ? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()) : name] = value;
      }
      return out;
    });

/** Path spellings of a route that should still reach it, plus query strings the API ignores. */
export const pathVariant = (path: string): fc.Arbitrary<string> =>
  fc.constantFrom('', '/', '//', '?x=1', '/?a=b&c', '?top_n=1').map((suffix) => `${path}${suffix}`);
