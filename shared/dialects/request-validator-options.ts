import type { Options } from 'ajv';

/**
 * ajv's options for the request schemas, shared by the run-time compiler (request-body-validator.ts) and the ahead-of-time
 * one (`npm run validators`), so both report the same errors: the first violation only (`allErrors: false`, cheapest),
 * strict about the schemas themselves, and `verbose` so an error carries the value and the schema node it failed on.
 * Checking each schema against the 2020-12 meta-schema would compile that meta-schema on a cold start (over 100 ms);
 * the unit tests check it instead (test/unit/openapi/request-schemas.test.ts).
 */
export const REQUEST_VALIDATOR_OPTIONS: Options = {
  allErrors: false,
  strict: true,
  allowUnionTypes: true,
  verbose: true,
  validateSchema: false,
};

/** Keywords of ours in the schemas, which strict mode must know: the hint a 400 adds to its message. */
export const REQUEST_VALIDATOR_VOCABULARY = ['x-error-hint'] as const;
