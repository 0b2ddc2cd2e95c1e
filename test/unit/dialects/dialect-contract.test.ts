import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { REQUEST_EXAMPLES } from '../../../shared/dialects/request-examples.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { ALL_KINDS, CONTEXT, outcomeOf } from './dialect-test-helpers.js';

// One contract every dialect in DIALECTS meets; a new dialect is covered by being listed there (and having an example).
const ajv = new Ajv({ strict: false, allErrors: true });
const dialects = Object.values(DIALECTS).map((d) => [d.name, d] as const);

/** Every key of a body, JSON-string values (the chat content) read as JSON too. */
function keysDeep(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      keysDeep(JSON.parse(value) as unknown, into);
    } catch {
      // Not JSON after all: a plain string.
    }
  } else if (Array.isArray(value)) value.forEach((v) => keysDeep(v, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      into.add(key);
      keysDeep(v, into);
    }
  }
  return into;
}

/** The last field of a param path such as `input.documents[2]` or `messages[0].content.candidates`. */
const lastField = (param: string): string =>
  param
    .replace(/\[\d+\]/g, '')
    .split('.')
    .at(-1)!;

describe.each(dialects)('dialect contract: %s', (name, dialect) => {
  const example = structuredClone(REQUEST_EXAMPLES[name]) as Record<string, unknown>;

  it('accepts its published example: valid against its request schema, parsed to the query and the three documents', () => {
    expect(() => validateRequestBody(dialect.requestSchema, example)).not.toThrow();
    const request = dialect.parse(example);
    expect(request.query).toBe('python http library');
    expect(request.documents.map((d) => d.text)).toEqual([
      'urllib is a built-in Python library for HTTP requests',
      'requests is a popular third-party HTTP library for Python',
      'Bamboo forests grow quickly in warm climates',
    ]);
  });

  it('names the fields as its body spells them', () => {
    const names = dialect.paramNames(dialect.parse(example));
    const keys = keysDeep(example);
    for (const param of [names.query, names.documents]) {
      expect(param.length).toBeGreaterThan(0);
      expect(keys, `${param} is not a field of the ${name} body`).toContain(lastField(param));
    }
  });

  it('refuses a body that is not an object with a RerankError, never a crash', () => {
    for (const body of [null, [], 'text', 42]) expect(() => dialect.parse(body)).toThrow(RerankError);
  });

  it('formats outcomes and every error kind in the shapes its schemas publish', () => {
    const request = dialect.parse(example);
    const outcome = outcomeOf(
      [
        { index: 1, score: 0.9 },
        { index: 0, score: 0.2 },
      ],
      12,
    );
    for (const formatted of [dialect.formatOutcome(outcome, CONTEXT, request), dialect.formatOutcome(outcomeOf([], 0), CONTEXT, request)]) {
      expect(formatted.status).toBe(200);
      if (formatted.events === undefined) expect(ajv.validate(dialect.responseSchema, formatted.body), ajv.errorsText()).toBe(true);
    }
    if (dialect.queueable !== false) {
      // A queued job's outcome is formatted without the request.
      expect(ajv.validate(dialect.responseSchema, dialect.formatOutcome(outcome, CONTEXT).body), ajv.errorsText()).toBe(true);
    }
    for (const kind of ALL_KINDS) {
      const reply = dialect.formatError(new RerankError(kind, 'what went wrong', { param: 'query' }), CONTEXT);
      expect(reply.status, kind).toBeGreaterThanOrEqual(400);
      expect(ajv.validate(dialect.errorSchema, reply.body), `${kind}: ${ajv.errorsText()}`).toBe(true);
      if (kind !== 'internal') expect(JSON.stringify(reply.body), kind).toContain('what went wrong');
    }
  });

  it('never says more than "Internal server error" about an internal error', () => {
    const reply = dialect.formatError(new RerankError('internal', 'stack: /secret/path'), CONTEXT);
    expect(JSON.stringify(reply.body)).not.toContain('/secret/path');
  });
});
