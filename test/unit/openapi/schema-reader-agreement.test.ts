import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatDialect } from '../../../shared/dialects/chat/chat-dialect.js';
import { chatContentFields, chatRequestFields } from '../../../shared/dialects/chat/chat-request-fields.js';
import { cohereV2Dialect } from '../../../shared/dialects/cohere-v2/cohere-v2-dialect.js';
import { dashScopeDialect } from '../../../shared/dialects/dashscope/dashscope-dialect.js';
import type { Dialect } from '../../../shared/dialects/dialect.js';
import { llamaStackDialect } from '../../../shared/dialects/llama-stack/llama-stack-dialect.js';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
import { pipelineDialect } from '../../../shared/dialects/pipeline/pipeline-dialect.js';
import { ragToolDialect } from '../../../shared/dialects/rag-tool/rag-tool-dialect.js';
import type { JsonSchema } from '../../../shared/dialects/json-schema.js';
import { propertyParams } from '../../property/support/property-params.js';
import { readerError, schemaError } from './schema-reader-agreement.js';

/**
 * The schema runs first, so it must never refuse a body the reader accepts. Both derive from the dialect's
 * declaration, field by field; this checks the rest: the custom readers (chat content, rank_fields, RAG documents
 * and config, the pipeline's two lists) against their hand-written schema fragments and cross-field rules. For
 * bodies built from valid ones with fields (every path the schema declares) replaced by edge values (null, wrong
 * types, empty lists, image items, URL contents...) or removed, "the schema rejects" implies "the reader rejects".
 * The schema never throws anything but a 400.
 */

const REMOVE = Symbol('remove');

const EDGE_VALUES: readonly unknown[] = [
  REMOVE,
  null,
  true,
  false,
  0,
  -1,
  1,
  2.5,
  1e300,
  '',
  ' ',
  'x',
  'DEFAULT',
  'http://127.0.0.1:9/v1/rerank',
  [],
  ['a'],
  ['a', 'b'],
  [1],
  [null],
  [[]],
  [{}],
  [{ text: 'a' }],
  [{ text: 1 }],
  [{ title: 't' }],
  [{ content: 'c' }],
  [{ content: { uri: 'u' } }],
  [{ type: 'text', text: 't' }],
  [{ type: 'image' }],
  ['title'],
  ['text'],
  {},
  { text: 'a' },
  { type: 'text', text: 'q' },
  { type: 'image', text: 'q' },
  { uri: 'u' },
  { terms: ['a'] },
  { fields: [{ field: 'f', value: 1, weight: 1 }] },
  { fields: [{ field: 'f', value: [], weight: 1 }] },
];

const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

type Body = Record<string, unknown>;

const isRecord = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets (or removes) a dotted path in a deep copy; a path through a non-object is left alone. */
function withField(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target: unknown = copy;
  for (const key of keys.slice(0, -1)) target = isRecord(target) ? target[key] : undefined;
  const last = keys[keys.length - 1] as string;
  if (isRecord(target)) {
    if (value === REMOVE) delete target[last];
    else target[last] = value;
  }
  return copy;
}

/** A valid body, then up to four of the dialect's fields replaced by edge values. */
const mutated = (valid: Body, fields: readonly string[]): fc.Arbitrary<unknown> =>
  fc
    .array(fc.tuple(fc.constantFrom(...fields), edgeValue), { maxLength: 4 })
    .map((edits) => edits.reduce<unknown>((body, [path, value]) => withField(body, path, value), valid));

/** Chat bodies: the content JSON mutated like a body, then wrapped in messages bent out of shape. */
const chatBodies: fc.Arbitrary<unknown> = fc
  .tuple(
    mutated({ query: 'q', candidates: ['a', 'b'], top_k: 1 }, fieldPaths(chatContentFields.schema)),
    fc.constantFrom('string', 'parts', 'raw', 'junk-first', 'no-user', 'second-user-junk'),
    edgeValue,
    mutated(
      { model: 'm' },
      fieldPaths(chatRequestFields.schema).filter((path) => path !== 'messages'),
    ),
  )
  .map(([content, shape, junk, envelope]) => {
    const text = JSON.stringify(content);
    const messages: Record<string, unknown[]> = {
      string: [{ role: 'user', content: text }],
      parts: [{ role: 'user', content: [{ type: 'text', text }] }],
      raw: [{ role: 'user', content: junk === REMOVE ? undefined : junk }],
      'junk-first': [junk === REMOVE ? 0 : junk, { role: 'user', content: text }],
      'no-user': [{ role: 'system', content: text }],
      'second-user-junk': [
        { role: 'user', content: text },
        { role: 'user', content: junk === REMOVE ? 1 : junk },
      ],
    };
    return { ...(envelope as Body), messages: messages[shape] };
  });

/** Every property path a schema declares (`parameters.top_n`, `rerank_config.boost.terms`): the fields to bend. */
function fieldPaths(schema: JsonSchema, prefix = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => [`${prefix}${key}`, ...fieldPaths(child, `${prefix}${key}.`)]);
}

/** A valid body per dialect, bent along every field its declaration publishes. */
const VALID: readonly (readonly [Dialect, Body])[] = [
  [openAiDialect, { query: 'q', documents: ['a', { text: 'b' }] }],
  [dashScopeDialect, { input: { query: 'q', documents: ['a'] }, parameters: {} }],
  [ragToolDialect, { query: 'q', retrieved_docs: ['a', { content: 'b' }], rerank_config: { boost: {} } }],
  [llamaStackDialect, { query: 'q', items: ['a', { type: 'text', text: 'b' }] }],
  [pipelineDialect, { query: 'q', retrieval_docs: ['a'] }],
  [cohereV2Dialect, { query: 'q', documents: ['a'] }],
];

const CASES: readonly (readonly [Dialect, fc.Arbitrary<unknown>])[] = [
  ...VALID.map(([dialect, valid]) => [dialect, mutated(valid, fieldPaths(dialect.requestSchema))] as const),
  [chatDialect, chatBodies],
];

describe('request schema and reader agree', () => {
  it.each(CASES.map(([d, bodies]) => [d.name, d, bodies] as const))(
    '%s: the schema never refuses a body the reader accepts',
    (_name, dialect, bodies) => {
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(bodies, (body) => {
          const bySchema = schemaError(dialect, body);
          const byReader = readerError(dialect, body);
          if (bySchema) {
            refused++;
            expect(byReader, `schema refused (${bySchema.message}) what the reader accepts: ${JSON.stringify(body)}`).toBeDefined();
          }
          if (!byReader) accepted++;
        }),
        propertyParams(1500),
      );
      // Both verdicts occur, so the property is not vacuous.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
  );
});
