import fc from 'fast-check';

/**
 * JSON text the service may receive but `JSON.stringify` never writes: numbers beyond float64
 * (`1e400` parses to Infinity), `-0`, long digit runs, and nesting deep enough to trouble recursive code.
 * A generated value carries such text as a marked string that `toJsonText` splices in unquoted.
 */
const RAW_MARK = '\u0001raw\u0001';
const RAW_QUOTED = /"\\u0001raw\\u0001((?:[^"\\]|\\.)*?)\\u0001"/g;

export const rawJson = (text: string): string => `${RAW_MARK}${text}\u0001`;

export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(RAW_QUOTED, (_, text: string) => JSON.parse(`"${text}"`) as string);
}

export const extremeNumberLiteral = fc.constantFrom(
  '1e400',
  '-1e400',
  '1E+999',
  '0e-99999',
  '-0',
  '-0.0',
  '1.0',
  '2.50',
  '123456789012345678901234567890',
  '9007199254740993',
  '4.9e-324',
  '1.7976931348623157e308',
  '0.1e1',
);

/** `[[[...]]]` or `{"a":{"a":...}}` nested `depth` levels. */
export const nestedJsonText = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`;

export const deepNesting = (maxDepth: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 2, max: maxDepth }), fc.constantFrom('array' as const, 'object' as const))
    .map(([depth, kind]) => rawJson(nestedJsonText(depth, kind)));
