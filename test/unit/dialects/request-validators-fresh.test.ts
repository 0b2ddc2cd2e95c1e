import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { REQUEST_VALIDATORS } from '../../../shared/dialects/request-validators.generated.js';
import { REQUEST_VALIDATORS_FILE, requestValidatorsCode } from '../../../scripts/ops/request-validators/request-validators-code.js';

describe('request validators compiled ahead of time', () => {
  it('are what `npm run validators` writes from the schemas as they are now', () => {
    const written = readFileSync(path.resolve(REQUEST_VALIDATORS_FILE), 'utf8');
    expect(written === requestValidatorsCode(), 'a request schema changed: run `npm run validators`').toBe(true);
  });

  it("cover every dialect's request schema", () => {
    for (const dialect of Object.values(DIALECTS)) expect(REQUEST_VALIDATORS.has(JSON.stringify(dialect.requestSchema))).toBe(true);
  });

  it('answer as the run-time compiler does: a valid body passes, an invalid one names its field', () => {
    const openai = DIALECTS.openai.requestSchema;
    expect(() => validateRequestBody(openai, { query: 'q', documents: ['a'] })).not.toThrow();
    expect(() => validateRequestBody(openai, { query: '', documents: ['a'] })).toThrow('query must be a non-empty string');
    expect(() => validateRequestBody(openai, { query: 'q', documents: [1] })).toThrow(/^documents\[0\] must be/);
    // The same schema as a copy, compiled at run time (no precompiled function is found by identity).
    const copy = { ...openai, title: 'a copy' };
    expect(() => validateRequestBody(copy, { query: '', documents: ['a'] })).toThrow('query must be a non-empty string');
  });
});
