import type { JsonSchema } from './json-schema.js';

export interface ObjectSchemaOptions {
  readonly title?: string;
  readonly description?: string;
  /** The properties a value may leave out; every other property is required. */
  readonly optional?: readonly string[];
}

/**
 * `{type: 'object', required, properties}` with `required` read off the properties: every property is required but
 * those named `optional`. The wire formats list each field once, so a field added to a reply cannot be left out of
 * what the schema promises (nor a renamed one left behind in `required`).
 */
export function objectSchema(properties: Readonly<Record<string, JsonSchema>>, options: ObjectSchemaOptions = {}): JsonSchema {
  const optional = new Set(options.optional);
  const unknown = [...optional].filter((name) => !(name in properties));
  if (unknown.length > 0) throw new TypeError(`optional names no property: ${unknown.join(', ')}`);
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    ...(options.title === undefined ? {} : { title: options.title }),
    type: 'object',
    ...(required.length === 0 ? {} : { required }),
    properties,
    ...(options.description === undefined ? {} : { description: options.description }),
  };
}
