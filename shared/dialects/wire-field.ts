import type { JsonSchema } from './json-schema.js';

/**
 * One value of a wire format, described once: the JSON Schema fragment the body is validated with (and that
 * `/openapi.json` publishes) and the reader that turns the value into its domain type come from the same
 * declaration, so what the service documents and what it reads cannot drift apart.
 *
 * `C` is what the reader may consult besides the value: the dialect's wire-only inputs, already read
 * (e.g. OpenAI documents are read differently when `rank_fields` is sent).
 */
export interface WireType<T, C = unknown> {
  readonly schema: JsonSchema;
  /** Absent (or null) is a 400 and the parent schema lists the field in `required`. */
  readonly required: boolean;
  /** Reads the value found at the field's path (`undefined` when absent); `param` is that path as the client spells it. */
  readonly read: (value: unknown, param: string, context: C) => T;
}

/** A path into the body: `['parameters', 'top_n']` is `parameters.top_n`. */
export type WirePath = readonly [string, ...string[]];

/** A wire type at a place in the body. */
export interface WireField<T, C = unknown> extends WireType<T, C> {
  readonly path: WirePath;
}

/** `at(['input', 'query'], QUERY)`: the field `input.query`, read and described as QUERY says. */
export const at = <T, C>(path: string | WirePath, type: WireType<T, C>): WireField<T, C> => ({
  ...type,
  path: typeof path === 'string' ? [path] : path,
});

/** The same type with its own description (the schema's other keywords, and the reader, unchanged). */
export const described = <T, C>(type: WireType<T, C>, description: string): WireType<T, C> => ({
  ...type,
  schema: { ...type.schema, description },
});

/** The declared default replaces an absent value. */
export const withDefault = <T, C>(type: WireType<T | undefined, C>, value: T): WireType<T, C> => ({
  ...type,
  read: (raw, param, context) => type.read(raw, param, context) ?? value,
});
