import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

type Schema = Record<string, unknown>;

/** OpenAPI 3.0's `nullable: true` (still used by the line formats) read as "null also allowed" (see test/fixtures/specs/README.md). */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullable);
  if (typeof node !== 'object' || node === null) return node;
  const copy: Schema = Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !k.startsWith('x-'))
      .map(([k, v]) => [k, withNullable(v)]),
  );
  if (copy['nullable'] === true) {
    delete copy['nullable'];
    return { anyOf: [copy, { type: 'null' }] };
  }
  return copy;
}

const document = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/specs/openai-batch-schemas.json'), 'utf8')) as Schema;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openai-batch', ...(withNullable(document) as Schema) });

/** Validates a value against one of OpenAI's batch schemas (`Batch`, `ListBatchesResponse`, `BatchRequestOutput`, ...); returns the errors. */
export function openAiBatchSchemaErrors(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`openai-batch#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
