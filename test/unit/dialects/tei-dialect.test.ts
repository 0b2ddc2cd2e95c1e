import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { teiDialect } from '../../../shared/dialects/tei/tei-dialect.js';
import { isTeiBody } from '../../../shared/dialects/tei/tei-request-fields.js';
import { ALL_KINDS, CONTEXT, LIMITS, expectInvalid, expectedRequest, outcomeOf, textDocs, type Json } from './dialect-test-helpers.js';

const valid = (extra: Json = {}): Json => ({ query: 'What is Deep Learning?', texts: ['Deep Learning is ...', 'cheese'], ...extra });
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });

describe('teiDialect.parse', () => {
  it("parses TEI's body with its defaults: sigmoid scores unless raw_scores, no text unless return_text", () => {
    const request = teiDialect.parse(valid());
    expect(request).toStrictEqual(
      expectedRequest({ query: 'What is Deep Learning?', documents: textDocs(['Deep Learning is ...', 'cheese']) }),
    );
    expect(validateRerankRequest(request, teiDialect.paramNames(request), LIMITS)).toBe(request);
  });

  it('maps raw_scores, return_text, truncate and truncation_direction (both spellings of Right)', () => {
    const request = teiDialect.parse(valid({ raw_scores: true, return_text: true, truncate: true, truncation_direction: 'right' }));
    expect(request).toStrictEqual(
      expectedRequest({
        query: 'What is Deep Learning?',
        documents: textDocs(['Deep Learning is ...', 'cheese']),
        activation: 'none',
        returnDocuments: true,
        truncate: true,
        truncationSide: 'right',
      }),
    );
    expect(teiDialect.parse(valid({ truncation_direction: 'Right', raw_scores: false })).activation).toBe('sigmoid');
    // Left is applied now: a cut keeps a text's end.
    expect(teiDialect.parse(valid({ truncation_direction: 'Left' })).truncationSide).toBe('left');
  });

  it('names the field at fault as TEI spells it', () => {
    expectInvalid(() => teiDialect.parse(valid({ texts: 'one text' })), 'texts');
    expectInvalid(() => teiDialect.parse(valid({ texts: [{ text: 'objects are Cohere, not TEI' }] })), 'texts[0]');
    expectInvalid(() => teiDialect.parse(valid({ query: 3 })), 'query');
    expectInvalid(() => teiDialect.parse(valid({ return_text: 'yes' })), 'return_text');
    expectInvalid(() => teiDialect.parse(valid({ truncation_direction: 'Up' })), 'truncation_direction');
  });

  it('is told apart from the OpenAI-compatible body on the same path by `texts`', () => {
    expect(isTeiBody(valid())).toBe(true);
    expect(isTeiBody({ query: 'q', documents: ['a'] })).toBe(false);
    expect(isTeiBody({ query: 'q', documents: ['a'], texts: ['b'] })).toBe(false);
    expect(isTeiBody([{ texts: [] }])).toBe(false);
    expect(isTeiBody(null)).toBe(false);
  });

  it('is registered by name, so a job submitted in it formats back in it', () => {
    expect(DIALECTS.tei).toBe(teiDialect);
  });
});

describe('teiDialect.formatOutcome', () => {
  const outcome = outcomeOf(
    [
      { index: 1, score: 0.9, document: { text: 'b' } },
      { index: 0, score: 0.2, document: { text: 'a' } },
    ],
    12,
  );

  it("answers TEI's bare array of ranks, best first, with text only when asked", () => {
    const reply = teiDialect.formatOutcome(outcome, CONTEXT);
    expect(reply).toEqual({
      status: 200,
      body: [
        { index: 1, score: 0.9, text: 'b' },
        { index: 0, score: 0.2, text: 'a' },
      ],
    });
    const bare = teiDialect.formatOutcome(outcomeOf([{ index: 0, score: 0.5 }], 3), CONTEXT);
    expect(bare.body).toEqual([{ index: 0, score: 0.5 }]);
    expect(ajv.validate(teiDialect.responseSchema, reply.body), ajv.errorsText()).toBe(true);
  });
});

describe('teiDialect.formatError', () => {
  it("uses TEI's statuses for the types TEI defines and its {error, error_type} shape for every kind", () => {
    const statusOf = (kind: (typeof ALL_KINDS)[number]) =>
      teiDialect.formatError(new RerankError(kind, `a ${kind} failure`), CONTEXT).status;
    expect(statusOf('invalid_request')).toBe(422);
    expect(statusOf('payload_too_large')).toBe(413);
    expect(statusOf('rate_limited')).toBe(429);
    expect(statusOf('upstream')).toBe(424);
    expect(statusOf('unauthorized')).toBe(401);
    for (const kind of ALL_KINDS) {
      const reply = teiDialect.formatError(new RerankError(kind, `a ${kind} failure`), CONTEXT);
      expect(ajv.validate(teiDialect.errorSchema, reply.body), `${kind}: ${ajv.errorsText()}`).toBe(true);
      expect(reply.status).toBeGreaterThanOrEqual(400);
    }
    // 5xx details never leave the service.
    expect(teiDialect.formatError(new RerankError('internal', 'stack trace here'), CONTEXT).body).toEqual({
      error: 'Internal server error',
      error_type: 'Backend',
    });
  });
});

describe("Elasticsearch's hugging_face rerank service on TEI's dialect", () => {
  // elastic/elasticsearch HuggingFaceRerankRequestEntityTests: the body its hugging_face service posts.
  const ELASTICSEARCH_BODY = { texts: ['luke', 'leia'], query: 'star wars main character', return_text: true, top_n: 8 };

  it('is claimed as TEI on /rerank and read whole: texts, query, return_text and top_n (an extension TEI lacks)', () => {
    expect(isTeiBody(ELASTICSEARCH_BODY)).toBe(true);
    expect(ajv.validate(teiDialect.requestSchema, ELASTICSEARCH_BODY), ajv.errorsText()).toBe(true);
    expect(teiDialect.parse(ELASTICSEARCH_BODY)).toMatchObject({
      query: 'star wars main character',
      documents: textDocs(['luke', 'leia']),
      returnDocuments: true,
      topN: 8,
    });
    expect(teiDialect.parse({ texts: ['luke'], query: 'q' }).topN).toBeUndefined();
    expectInvalid(() => teiDialect.parse({ ...ELASTICSEARCH_BODY, top_n: -1 }), 'top_n');
  });

  it('answers the bare array HuggingFaceRerankResponseEntity parses, with no key it would throw on (index, score, text only)', () => {
    const request = teiDialect.parse(ELASTICSEARCH_BODY);
    const outcome = outcomeOf(
      [
        { index: 0, score: -0.0799, document: { text: 'luke' } },
        { index: 1, score: -0.0839, document: { text: 'leia' } },
      ],
      9,
    );
    const body = teiDialect.formatOutcome(outcome, CONTEXT, request).body as Json[];
    expect(Array.isArray(body)).toBe(true);
    expect(body).toEqual([
      { index: 0, score: -0.0799, text: 'luke' },
      { index: 1, score: -0.0839, text: 'leia' },
    ]);
    for (const rank of body)
      for (const key of Object.keys(rank)) expect(['index', 'score', 'relevance_score', 'text', 'document']).toContain(key);
  });
});
