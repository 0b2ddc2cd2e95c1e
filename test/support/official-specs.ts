import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * The vendors' official OpenAPI documents, kept in the repo (test/fixtures/specs; its README names each one's source,
 * commit and licence) so a clone with nothing beside it runs the conformance checks.
 *
 * How they are read: JSON Schema 2020-12 as written (no `required` or `additionalProperties: false` added); OpenAPI
 * 3.0's `nullable: true` (TEI, and 22 places of the OpenAI extract) as "null also allowed"; an error reply against the
 * response its operation declares for that status - exact, then `4XX`, then `default`. Quirks: Cohere's error
 * responses are objects with no `required` (anything passes); Cohere v1 documents require `text`; Llama Stack's
 * declared `Error` is RFC 7807-like while its server sends `{error: {message}}`; TEI's boolean defaults are strings.
 */
export const SPECS_DIR = resolve(import.meta.dirname, '../fixtures/specs');

type Json = Record<string, unknown>;

/** OpenAPI 3.0's `nullable: true` read as "null also allowed" (the specs' README), the rest of each schema as written. */
function withNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullable);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, example, ...rest } = schema as Record<string, unknown>;
  void example;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withNullable(v)]));
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

const pointer = (...parts: string[]): string => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** A validator over one official document: bodies checked against the schema an operation declares for a status. */
export class OfficialSpec {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  readonly #doc: Json;

  constructor(readonly file: string) {
    const path = resolve(SPECS_DIR, file);
    if (!existsSync(path))
      throw new Error(`${path} is missing: the conformance checks read the copies in test/fixtures/specs (see its README)`);
    this.#doc = withNullable(JSON.parse(readFileSync(path, 'utf8'))) as Json;
    this.#ajv.addSchema({ ...this.#doc, $id: 'spec' });
  }

  /**
   * The errors of `body` against the response `method path` declares for `status` (exact, then `4XX`, then `default`,
   * as the README says), or undefined when it validates.
   */
  checkResponse(method: string, path: string, status: number, body: unknown): string | undefined {
    const operation = ((this.#doc['paths'] as Json)[path] as Json)[method] as Json;
    const responses = operation['responses'] as Json;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) return `no response declared for ${status}`;
    let location = pointer('paths', path, method, 'responses', key);
    let response = responses[key] as Json;
    const ref = response['$ref'];
    if (typeof ref === 'string') {
      location = ref.slice(2);
      response = ref
        .slice(2)
        .split('/')
        .reduce((node: Json, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')] as Json, this.#doc);
    }
    if (!(response['content'] as Json | undefined)?.['application/json']) return `response ${key} has no JSON body`;
    const schemaRef = `spec#/${location}/${pointer('content', 'application/json', 'schema')}`;
    return this.#ajv.validate({ $ref: schemaRef }, body) ? undefined : this.#ajv.errorsText(this.#ajv.errors, { dataVar: 'body' });
  }

  /** The errors of `value` against `#/components/schemas/<name>`, or undefined. */
  checkSchema(name: string, value: unknown): string | undefined {
    return this.#ajv.validate({ $ref: `spec#/components/schemas/${name}` }, value)
      ? undefined
      : this.#ajv.errorsText(this.#ajv.errors, { dataVar: 'value' });
  }
}
