import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { chatContentFields, chatRequestFields } from '../../../shared/dialects/chat/chat-request-fields.js';
import { cohereV2RequestFields } from '../../../shared/dialects/cohere-v2/cohere-v2-request-fields.js';
import { dashScopeRequestFields } from '../../../shared/dialects/dashscope/dashscope-request-fields.js';
import { defineWireFields, toRerankRequest } from '../../../shared/dialects/define-wire-fields.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { llamaStackRequestFields } from '../../../shared/dialects/llama-stack/llama-stack-request-fields.js';
import { openAiRequestFields } from '../../../shared/dialects/openai/openai-request-fields.js';
import { pipelineRequestFields } from '../../../shared/dialects/pipeline/pipeline-request-fields.js';
import { ragToolRequestFields } from '../../../shared/dialects/rag-tool/rag-tool-request-fields.js';
import { at, withDefault, type WireType } from '../../../shared/dialects/wire-field.js';
import { BATCH_SIZE, MODEL, QUERY, TOP_N, booleanOrAbsent, documents, stringOrAbsent } from '../../../shared/dialects/wire-types.js';
import type { JsonSchema } from '../../../shared/dialects/json-schema.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { expectInvalid } from './dialect-test-helpers.js';

/** A reader that sees the wire-only inputs read before it: upper-cases the query when `shout` is sent. */
const SHOUTED_QUERY: WireType<string, { readonly shout: boolean | undefined }> = {
  ...QUERY,
  read: (value, param, { shout }) => {
    const query = QUERY.read(value, param, undefined);
    return shout ? query.toUpperCase() : query;
  },
};

const nested = defineWireFields({
  title: 'NestedRequest',
  inputs: { shout: at(['options', 'shout'], booleanOrAbsent('Upper-case the query.')) },
  fields: {
    model: at('model', MODEL),
    query: at(['input', 'query'], SHOUTED_QUERY),
    documents: at(['input', 'documents'], documents('The candidates.')),
    topN: at(['options', 'top_n'], TOP_N),
    returnDocuments: at(['options', 'return_documents'], withDefault(booleanOrAbsent('Echo documents.'), true)),
    batchSize: at(['options', 'batch_size'], BATCH_SIZE),
  },
});

describe('defineWireFields: the schema', () => {
  it('nests fields along their paths; an object holding a required field is required, the others may be null', () => {
    expect(nested.schema).toStrictEqual({
      title: 'NestedRequest',
      type: 'object',
      required: ['input'],
      properties: {
        model: MODEL.schema,
        input: {
          type: 'object',
          required: ['query', 'documents'],
          properties: { query: QUERY.schema, documents: documents('The candidates.').schema },
        },
        options: {
          type: ['object', 'null'],
          properties: {
            top_n: TOP_N.schema,
            return_documents: booleanOrAbsent('Echo documents.').schema,
            batch_size: BATCH_SIZE.schema,
            shout: booleanOrAbsent('Upper-case the query.').schema,
          },
        },
      },
    });
  });

  it('appends cross-field rules and the description', () => {
    const rules = { if: { required: ['a'] }, then: { required: ['b'] } } satisfies JsonSchema;
    const fields = defineWireFields({ title: 'R', description: 'd', fields: { query: at('q', QUERY) }, rules });

    expect(fields.schema).toStrictEqual({
      title: 'R',
      type: 'object',
      required: ['q'],
      description: 'd',
      properties: { q: QUERY.schema },
      ...rules,
    });
  });
});

const body = { model: 'm', input: { query: 'q', documents: ['a', { text: 'b' }] }, options: { top_n: 1, shout: true } };

/** `body` with one value replaced at a path. */
function withValue(path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, copy);
  parent[path[path.length - 1] as string] = value;
  return copy;
}

describe('defineWireFields: the reader', () => {
  it('reads each field at its path, inputs first (a field reader sees them), defaults for absent values', () => {
    const { inputs, fields } = nested.read(body);

    expect(inputs).toStrictEqual({ shout: true });
    expect(fields).toStrictEqual({
      model: 'm',
      query: 'Q',
      documents: [{ text: 'a' }, { text: 'b', source: { text: 'b' } }],
      topN: 1,
      returnDocuments: true,
      batchSize: undefined,
    });
  });

  it('an absent or null optional object reads as empty; an absent required one is a 400 naming it', () => {
    expect(nested.read({ input: { query: 'q', documents: ['a'] }, options: null }).fields.topN).toBeUndefined();
    expect(expectInvalid(() => nested.read({ options: {} }), 'input').message).toBe('input is required');
    expectInvalid(() => nested.read({ input: [], options: {} }), 'input');
    expectInvalid(() => nested.read('x'), 'body');
  });

  it('a 400 from a field names its path as the client spells it', () => {
    expectInvalid(() => nested.read(withValue(['options', 'top_n'], -1)), 'options.top_n');
    expectInvalid(() => nested.read(withValue(['input', 'documents'], ['a', 2])), 'input.documents[1]');
  });

  it('the schema and the reader name the same param for a value of the wrong type', () => {
    for (const [path, value, param] of [
      [['options', 'top_n'], 'x', 'options.top_n'],
      [['input', 'query'], 1, 'input.query'],
      [['model'], false, 'model'],
      [['options', 'shout'], 'yes', 'options.shout'],
    ] as const) {
      const bad = withValue(path, value);

      expectInvalid(() => validateRequestBody(nested.schema, bad), param);
      expectInvalid(() => nested.read(bad), param);
    }
  });
});

describe('defineWireFields: names and the mapping', () => {
  it('spells declared fields, and the fields validateRerankRequest names', () => {
    expect(nested.param('topN')).toBe('options.top_n');
    expect(nested.param('shout')).toBe('options.shout');
    expect(nested.paramNames()).toStrictEqual({
      query: 'input.query',
      documents: 'input.documents',
      batchSize: 'options.batch_size',
      model: 'model',
    });
    expect(nested.paramNames({ documents: 'other' }).documents).toBe('other');
    expect(() => defineWireFields({ title: 'NoDocs', fields: { query: at('q', QUERY) } }).paramNames()).toThrow(/no query or documents/);
  });

  it('hands over the value sent at a declared path, unread', () => {
    expect(nested.sent(body, 'topN')).toBe(1);
    expect(nested.sent({ options: 'x' }, 'topN')).toBeUndefined();
  });

  it('toRerankRequest: undeclared fields take their defaults, undefined optional ones are left out', () => {
    const request = toRerankRequest({ query: 'q', documents: [{ text: 'a' }], topN: 2, truncate: undefined, model: undefined });

    expect(request).toStrictEqual({
      model: undefined,
      query: 'q',
      documents: [{ text: 'a' }],
      topN: 2,
      returnDocuments: false,
      threshold: undefined,
      batchSize: undefined,
      activation: undefined,
      prompt: undefined,
    });
    expect('truncate' in request).toBe(false);
  });

  it('a field named after a RerankRequest field must read that field type (checked by the compiler)', () => {
    // @ts-expect-error topN is a number, not a string
    const wrong = defineWireFields({ title: 'Wrong', fields: { topN: at('top_n', stringOrAbsent('x')) } });
    // @ts-expect-error no RerankRequest field is called colour
    const unknown = defineWireFields({ title: 'Unknown', fields: { colour: at('colour', stringOrAbsent('x')) } });

    expect([wrong.schema.title, unknown.schema.title]).toEqual(['Wrong', 'Unknown']);
  });
});

/** Each dialect's published request schema is its declaration's. */
const DECLARATIONS = [
  ['openai', openAiRequestFields],
  ['dashscope', dashScopeRequestFields],
  ['chat', chatRequestFields],
  ['rag-tool', ragToolRequestFields],
  ['llama-stack', llamaStackRequestFields],
  ['pipeline', pipelineRequestFields],
  ['cohere-v2', cohereV2RequestFields],
] as const;

describe('every dialect publishes and validates with its declaration', () => {
  it.each(DECLARATIONS)('%s: requestSchema is the declared schema', (name, declaration) => {
    expect(DIALECTS[name].requestSchema).toBe(declaration.schema);
  });

  it('the chat content JSON is described by its own declaration', () => {
    const messages = chatRequestFields.schema.properties?.['messages'];
    const content = messages?.contains?.properties?.['content']?.anyOf?.[0];

    expect(content?.contentSchema).toBe(chatContentFields.schema);
  });

  it('refuses a body that is not an object with the same 400 in every dialect', () => {
    for (const [, declaration] of DECLARATIONS) {
      const error = expectInvalid(() => declaration.read([]), 'body');
      expect(error).toBeInstanceOf(RerankError);
    }
  });
});
