import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { chatDialect } from '../../../shared/dialects/chat/chat-dialect.js';
import { cohereV2Dialect } from '../../../shared/dialects/cohere-v2/cohere-v2-dialect.js';
import { dashScopeDialect } from '../../../shared/dialects/dashscope/dashscope-dialect.js';
import type { Dialect } from '../../../shared/dialects/dialect.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { llamaStackDialect } from '../../../shared/dialects/llama-stack/llama-stack-dialect.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
import { pipelineDialect } from '../../../shared/dialects/pipeline/pipeline-dialect.js';
import { ragToolDialect } from '../../../shared/dialects/rag-tool/rag-tool-dialect.js';
import { loadSeed } from '../dialects/dialect-test-helpers.js';
import { readerError, schemaError } from './schema-reader-agreement.js';

const user = (content: unknown) => ({ role: 'user', content: typeof content === 'string' ? content : JSON.stringify(content) });
const chat = (content: unknown, extra: Record<string, unknown> = {}) => ({ model: 'm', messages: [user(content)], ...extra });
const Q = 'python http library';

/** Bodies every reader accepts: the schema must accept them too (it may never be stricter than the reader). */
const VALID: readonly (readonly [Dialect, string, unknown])[] = [
  [openAiDialect, 'seed openai-request.json', loadSeed('openai-request.json')],
  [openAiDialect, 'seed openai-request-top-n-2.json', loadSeed('openai-request-top-n-2.json')],
  [
    openAiDialect,
    'nulls are absent, object documents, every option',
    {
      model: null,
      query: Q,
      documents: ['a', { text: 'b', id: 1 }],
      top_n: null,
      return_documents: null,
      rerank_threshold: 0.5,
      batch_size: 2,
      raw_scores: false,
      truncate: true,
      max_chunks_per_doc: 2,
      rank_fields: null,
    },
  ],
  [
    openAiDialect,
    'rank_fields: objects without text',
    { query: Q, documents: [{ title: 't', body: 'b' }], rank_fields: ['title', 'body'] },
  ],
  [openAiDialect, 'unknown fields are ignored', { query: Q, documents: ['a'], user: 'someone', top_n: 0 }],
  [dashScopeDialect, 'seed dashscope-request.json', loadSeed('dashscope-request.json')],
  [dashScopeDialect, 'seed dashscope-request-top-n-2.json', loadSeed('dashscope-request-top-n-2.json')],
  [dashScopeDialect, 'parameters null', { input: { query: Q, documents: ['a', { text: 'b' }] }, parameters: null }],
  [
    dashScopeDialect,
    'every parameter',
    {
      model: 'm',
      input: { query: Q, documents: ['a'] },
      parameters: {
        top_n: 0,
        return_documents: true,
        rerank_threshold: 0.1,
        batch_size: 1,
        raw_scores: true,
        instruct: 'x',
        truncate: false,
      },
    },
  ],
  [chatDialect, 'seed chat-request.json', loadSeed('chat-request.json')],
  [chatDialect, 'seed chat-request-top-k-2.json', loadSeed('chat-request-top-k-2.json')],
  [chatDialect, 'seed chat-request-complete.json', loadSeed('chat-request-complete.json')],
  [
    chatDialect,
    'content as text parts',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '{"query": "q", ' },
            { type: 'text', text: '"candidates": ["a"]}' },
          ],
        },
      ],
    },
  ],
  [
    chatDialect,
    'only the first user message is read; other messages may be anything',
    {
      stream: false,
      messages: [42, { role: 'system', content: 5 }, user({ query: Q, candidates: ['a'] }), { role: 'user', content: 7 }],
    },
  ],
  [
    chatDialect,
    'content options',
    chat({ query: Q, candidates: ['a', { text: 'b' }], top_k: null, include_docs: true, raw_scores: true, prompt: 'p' }, { stream: null }),
  ],
  [ragToolDialect, 'empty retrieved_docs', { query: Q, retrieved_docs: [] }],
  [
    ragToolDialect,
    'RAGDocuments and InterleavedContent',
    {
      query: [{ type: 'text', text: 'python' }, 'http'],
      retrieved_docs: [
        'plain',
        { document_id: 'd1', content: { type: 'text', text: 'item' }, metadata: { source: 'x' } },
        { content: ['a', { text: 'b' }] },
      ],
      top_k: null,
      rerank_strategy: 'DEFAULT',
      reranker_model_id: null,
    },
  ],
  [
    ragToolDialect,
    'upstream fields are not read without api_url',
    { query: Q, retrieved_docs: ['a'], rerank_config: { mode: 5, timeout: 'soon', api_key: [] } },
  ],
  [
    ragToolDialect,
    'boost rules',
    {
      query: Q,
      retrieved_docs: ['a'],
      rerank_strategy: 'boost',
      rerank_config: {
        boost: { terms: ['http'], weight: 0.2, fields: [{ field: 'metadata.source', value: true, weight: 0.3 }] },
        fallback: false,
      },
    },
  ],
  [
    ragToolDialect,
    'an upstream',
    { query: Q, retrieved_docs: ['a'], rerank_config: { api_url: 'http://127.0.0.1:9/v1/rerank', mode: 'OpenAI', timeout: 2 } },
  ],
  [
    llamaStackDialect,
    'strings and text items',
    { model: 'm', query: { type: 'text', text: Q }, items: ['a', { type: 'text', text: 'b' }, { text: 'c' }], max_num_results: 2 },
  ],
  [pipelineDialect, 'retrieval_docs', { query: Q, retrieval_docs: ['a', { text: 'b' }], anything: { else: 1 } }],
  [pipelineDialect, 'an empty refining_docs falls back to retrieval_docs', { query: Q, refining_docs: [], retrieval_docs: ['a'] }],
  [pipelineDialect, 'refining_docs wins; retrieval_docs is then not read', { query: Q, refining_docs: ['b'], retrieval_docs: 'not read' }],
  [pipelineDialect, 'refining_docs null', { query: Q, refining_docs: null, retrieval_docs: ['a'], top_k: 1, raw_scores: null }],
  [
    cohereV2Dialect,
    'every option',
    { model: 'm', query: Q, documents: ['a', 'b'], top_n: 1, max_tokens_per_doc: 3, return_documents: true, batch_size: 4 },
  ],
];

/** Malformed bodies: the schema rejects each, naming `param`, and the reader rejects it too. */
const MALFORMED: readonly (readonly [Dialect, string, unknown, string])[] = [
  [openAiDialect, 'an array body', [], 'body'],
  [openAiDialect, 'a string body', 'q', 'body'],
  [openAiDialect, 'missing query', { documents: ['a'] }, 'query'],
  [openAiDialect, 'query a number', { query: 42, documents: ['a'] }, 'query'],
  [openAiDialect, 'query empty', { query: '', documents: ['a'] }, 'query'],
  [openAiDialect, 'missing documents', { query: Q }, 'documents'],
  [openAiDialect, 'documents a string', { query: Q, documents: 'a' }, 'documents'],
  [openAiDialect, 'documents empty', { query: Q, documents: [] }, 'documents'],
  [openAiDialect, 'a number document', { query: Q, documents: ['a', 1] }, 'documents[1]'],
  [openAiDialect, 'an object document without text', { query: Q, documents: [{ title: 't' }] }, 'documents[0].text'],
  [openAiDialect, 'a document with a number text', { query: Q, documents: [{ text: 5 }] }, 'documents[0].text'],
  [openAiDialect, 'top_n negative', { query: Q, documents: ['a'], top_n: -1 }, 'top_n'],
  [openAiDialect, 'top_n fractional', { query: Q, documents: ['a'], top_n: 1.5 }, 'top_n'],
  [openAiDialect, 'top_n a string', { query: Q, documents: ['a'], top_n: '2' }, 'top_n'],
  [openAiDialect, 'return_documents a string', { query: Q, documents: ['a'], return_documents: 'yes' }, 'return_documents'],
  [openAiDialect, 'batch_size 0', { query: Q, documents: ['a'], batch_size: 0 }, 'batch_size'],
  [openAiDialect, 'raw_scores a string', { query: Q, documents: ['a'], raw_scores: 'true' }, 'raw_scores'],
  [openAiDialect, 'rerank_threshold a string', { query: Q, documents: ['a'], rerank_threshold: '0.5' }, 'rerank_threshold'],
  [openAiDialect, 'model a number', { model: 5, query: Q, documents: ['a'] }, 'model'],
  [openAiDialect, 'rank_fields empty', { query: Q, documents: [{ a: 1 }], rank_fields: [] }, 'rank_fields'],
  [openAiDialect, 'rank_fields of numbers', { query: Q, documents: [{ a: 1 }], rank_fields: [1] }, 'rank_fields[0]'],
  [openAiDialect, 'rank_fields with an array document', { query: Q, documents: [[1]], rank_fields: ['a'] }, 'documents[0]'],
  [openAiDialect, 'max_chunks_per_doc 0', { query: Q, documents: ['a'], max_chunks_per_doc: 0 }, 'max_chunks_per_doc'],
  [dashScopeDialect, 'input missing', { model: 'x' }, 'input'],
  [dashScopeDialect, 'input a string', { input: 'q' }, 'input'],
  [dashScopeDialect, 'input.query missing', { input: { documents: ['a'] } }, 'input.query'],
  [dashScopeDialect, 'a number document', { input: { query: Q, documents: ['a', 2] } }, 'input.documents[1]'],
  [dashScopeDialect, 'parameters an array', { input: { query: Q, documents: ['a'] }, parameters: [] }, 'parameters'],
  [dashScopeDialect, 'top_n negative', { input: { query: Q, documents: ['a'] }, parameters: { top_n: -3 } }, 'parameters.top_n'],
  [dashScopeDialect, 'instruct a number', { input: { query: Q, documents: ['a'] }, parameters: { instruct: 5 } }, 'parameters.instruct'],
  [chatDialect, 'messages missing', { model: 'm' }, 'messages'],
  [chatDialect, 'messages empty', { messages: [] }, 'messages'],
  [chatDialect, 'messages an object', { messages: { role: 'user', content: '{}' } }, 'messages'],
  [chatDialect, 'no user message', { messages: [{ role: 'system', content: '{}' }] }, 'messages'],
  [chatDialect, 'user content a number', { messages: [{ role: 'user', content: 7 }] }, 'messages'],
  [chatDialect, 'stream a string', chat({ query: Q, candidates: ['a'] }, { stream: 'no' }), 'stream'],
  [chatDialect, 'model a number', chat({ query: Q, candidates: ['a'] }, { model: 1 }), 'model'],
  [ragToolDialect, 'query missing', { retrieved_docs: [] }, 'query'],
  [ragToolDialect, 'an image query', { query: { type: 'image', image: { url: 'x' } }, retrieved_docs: ['a'] }, 'query.text'],
  [ragToolDialect, 'a typed image query with text', { query: { type: 'image_url', text: 'x' }, retrieved_docs: ['a'] }, 'query.type'],
  [ragToolDialect, 'an empty query list', { query: [], retrieved_docs: ['a'] }, 'query'],
  [ragToolDialect, 'retrieved_docs a string', { query: Q, retrieved_docs: 'a' }, 'retrieved_docs'],
  [ragToolDialect, 'a number document', { query: Q, retrieved_docs: [5] }, 'retrieved_docs[0]'],
  [ragToolDialect, 'a URL document', { query: Q, retrieved_docs: [{ content: { uri: 'http://x' } }] }, 'retrieved_docs[0].content'],
  [
    ragToolDialect,
    'a URL document with text',
    { query: Q, retrieved_docs: [{ content: { uri: 'http://x', text: 'y' } }] },
    'retrieved_docs[0].content',
  ],
  [ragToolDialect, 'a document without content', { query: Q, retrieved_docs: [{ document_id: 'd' }] }, 'retrieved_docs[0].content'],
  [ragToolDialect, 'top_k negative', { query: Q, retrieved_docs: ['a'], top_k: -1 }, 'top_k'],
  [ragToolDialect, 'rerank_strategy a number', { query: Q, retrieved_docs: ['a'], rerank_strategy: 5 }, 'rerank_strategy'],
  [ragToolDialect, 'rerank_config an array', { query: Q, retrieved_docs: ['a'], rerank_config: [] }, 'rerank_config'],
  [
    ragToolDialect,
    'timeout 0 with an upstream',
    { query: Q, retrieved_docs: ['a'], rerank_config: { api_url: 'http://h/x', timeout: 0 } },
    'rerank_config.timeout',
  ],
  [
    ragToolDialect,
    'mode a number with an upstream',
    { query: Q, retrieved_docs: ['a'], rerank_config: { api_url: 'http://h/x', mode: 1 } },
    'rerank_config.mode',
  ],
  [
    ragToolDialect,
    'boost terms of numbers',
    { query: Q, retrieved_docs: ['a'], rerank_config: { boost: { terms: [1] } } },
    'rerank_config.boost.terms[0]',
  ],
  [
    ragToolDialect,
    'boost field value an object',
    {
      query: Q,
      retrieved_docs: ['a'],
      rerank_config: { boost: { fields: [{ field: 'f', value: {}, weight: 1 }] } },
    },
    'rerank_config.boost.fields[0].value',
  ],
  [
    ragToolDialect,
    'boost field without weight',
    {
      query: Q,
      retrieved_docs: ['a'],
      rerank_config: { boost: { fields: [{ field: 'f', value: 'v' }] } },
    },
    'rerank_config.boost.fields[0].weight',
  ],
  [llamaStackDialect, 'items missing', { query: Q }, 'items'],
  [llamaStackDialect, 'items empty', { query: Q, items: [] }, 'items'],
  [llamaStackDialect, 'an image item', { query: Q, items: [{ type: 'image', image: { url: 'x' } }] }, 'items[0].text'],
  [llamaStackDialect, 'a list query', { query: ['a'], items: ['a'] }, 'query'],
  [llamaStackDialect, 'max_num_results negative', { query: Q, items: ['a'], max_num_results: -1 }, 'max_num_results'],
  [pipelineDialect, 'query missing', { retrieval_docs: ['a'] }, 'query'],
  [pipelineDialect, 'no documents', { query: Q }, 'retrieval_docs'],
  [pipelineDialect, 'retrieval_docs a string', { query: Q, retrieval_docs: 'x' }, 'retrieval_docs'],
  [pipelineDialect, 'retrieval_docs empty', { query: Q, retrieval_docs: [] }, 'retrieval_docs'],
  [pipelineDialect, 'refining_docs a string', { query: Q, refining_docs: 'x', retrieval_docs: ['a'] }, 'refining_docs'],
  [pipelineDialect, 'a number refining doc', { query: Q, refining_docs: [5] }, 'refining_docs[0]'],
  [pipelineDialect, 'top_k fractional', { query: Q, retrieval_docs: ['a'], top_k: 1.5 }, 'top_k'],
  [cohereV2Dialect, 'object documents', { query: Q, documents: [{ text: 'a' }] }, 'documents[0]'],
  [cohereV2Dialect, 'max_tokens_per_doc 0', { query: Q, documents: ['a'], max_tokens_per_doc: 0 }, 'max_tokens_per_doc'],
];

/** Well-formed for the schema, refused by the reader: what a JSON Schema cannot say (documented in /openapi.json). */
const LEFT_TO_THE_READER: readonly (readonly [Dialect, string, unknown, string])[] = [
  [chatDialect, 'content that is not JSON', chat('please rerank these'), 'messages[0].content'],
  [chatDialect, 'content without candidates', chat({ query: Q }), 'messages[0].content'],
  [chatDialect, 'a negative top_k in the content', chat({ query: Q, candidates: ['a'], top_k: -1 }), 'top_k'],
  [chatDialect, 'no candidates in the content', chat({ query: Q, candidates: [] }), 'candidates'],
  [openAiDialect, 'whitespace query', { query: '  ', documents: ['a'] }, 'query'],
  [openAiDialect, 'batch_size above the configured maximum', { query: Q, documents: ['a'], batch_size: 65 }, 'batch_size'],
  [
    openAiDialect,
    'a document lacking a rank field',
    { query: Q, documents: [{ title: 'a' }], rank_fields: ['title', 'body'] },
    'documents[0].body',
  ],
  [ragToolDialect, 'an unknown strategy', { query: Q, retrieved_docs: ['a'], rerank_strategy: 'magic' }, 'rerank_strategy'],
  [
    ragToolDialect,
    'a relative api_url',
    { query: Q, retrieved_docs: ['a'], rerank_config: { api_url: '/v1/rerank' } },
    'rerank_config.api_url',
  ],
];

describe('request schemas', () => {
  it.each(Object.values(DIALECTS).map((d) => [d.name, d] as const))(
    '%s: the schema compiles and has a title (its OpenAPI component name)',
    (_name, dialect) => {
      expect(() => schemaError(dialect, {})).not.toThrow();
      expect(dialect.requestSchema.title).toMatch(/^[A-Z][A-Za-z0-9]+$/);
    },
  );

  it.each(Object.values(DIALECTS).map((d) => [d.name, d] as const))('%s: the schema is valid JSON Schema 2020-12', (_name, dialect) => {
    const metaValidator = new Ajv2020({ strict: true, allowUnionTypes: true });
    metaValidator.addVocabulary(['x-error-hint']);
    expect(metaValidator.validateSchema(dialect.requestSchema as object), metaValidator.errorsText()).toBe(true);
  });

  it.each(VALID.map(([d, name, body]) => [d.name, name, d, body] as const))(
    '%s accepts %s (schema and reader)',
    (_d, _name, dialect, body) => {
      expect(readerError(dialect, body)?.message).toBeUndefined();
      expect(schemaError(dialect, body)?.message).toBeUndefined();
    },
  );

  it.each(MALFORMED.map(([d, name, body, param]) => [d.name, name, param, d, body] as const))(
    '%s rejects %s: param %s (schema and reader)',
    (_d, _name, param, dialect, body) => {
      const error = schemaError(dialect, body);
      expect(error, 'the schema rejects it').toBeDefined();
      expect(error?.param).toBe(param);
      expect(error?.message.startsWith(param === 'body' ? 'body ' : param)).toBe(true);
      expect(readerError(dialect, body), 'the reader rejects it too').toBeDefined();
    },
  );

  it.each(LEFT_TO_THE_READER.map(([d, name, body, param]) => [d.name, name, param, d, body] as const))(
    '%s: %s passes the schema and the reader refuses it (param %s)',
    (_d, _name, param, dialect, body) => {
      expect(schemaError(dialect, body)).toBeUndefined();
      expect(readerError(dialect, body)?.param).toBe(param);
    },
  );

  it('messages name what is expected and what was sent', () => {
    expect(schemaError(openAiDialect, { query: Q, documents: ['a', 1] })?.message).toBe(
      'documents[1] must be a string or an object with a string "text" field, got a number',
    );
    expect(schemaError(openAiDialect, [])?.message).toBe('body must be a JSON object, got an array');
    expect(schemaError(openAiDialect, { query: Q, documents: ['a'], top_n: -1 })?.message).toBe('top_n must be an integer >= 0');
    expect(schemaError(dashScopeDialect, { input: { query: Q } })?.message).toBe('input.documents is required');
    expect(schemaError(chatDialect, { messages: [{ role: 'system', content: '{}' }] })?.message).toBe(
      'messages must contain an object with role "user" and a "content" field',
    );
    expect(schemaError(chatDialect, chat({}, { stream: 'yes' }))?.message).toMatch(/^stream must be/);
    expect(schemaError(cohereV2Dialect, { query: Q, documents: [{ text: 'a' }] })?.message).toMatch(/strings only/);
    expect(schemaError(llamaStackDialect, { query: Q, items: [{ type: 'image' }] })?.message).toMatch(/only text items/);
    expect(schemaError(ragToolDialect, { query: Q, retrieved_docs: [{ content: { uri: 'u' } }] })?.message).toMatch(/URL/);
  });

  it('the template seed (content is a placeholder, not JSON) passes the schema and is refused by the reader', () => {
    const body = loadSeed('chat-request-template.json');
    expect(schemaError(chatDialect, body)).toBeUndefined();
    expect(readerError(chatDialect, body)?.param).toBe('messages[0].content');
  });
});
