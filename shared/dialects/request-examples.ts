import type { DialectName } from './dialect.js';
import { DIALECTS } from './dialects.js';

/** Every dialect's published example (Dialect.example) by name: the OpenAPI examples and the tests' bodies. */
export const REQUEST_EXAMPLES: Readonly<Record<DialectName, Readonly<Record<string, unknown>>>> = Object.fromEntries(
  Object.values(DIALECTS).map((dialect) => [dialect.name, dialect.example]),
) as Record<DialectName, Readonly<Record<string, unknown>>>;
