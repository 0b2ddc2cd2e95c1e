import { describe, expect, it } from 'vitest';
import { openAiDialect } from '../../../shared/dialects/openai/openai-dialect.js';
import { readRankFieldDocuments } from '../../../shared/dialects/wire-fields.js';
import { CONTEXT, byParam, expectInvalid, expectedRequest, outcomeOf, textDocs, type Json } from './dialect-test-helpers.js';

/** Cohere v1's semi-structured example: object documents ranked on chosen fields. */
const EMAILS = [
  { from: 'hr@co.com', title: 'Health insurance', text: 'Enrol in the new plan by Friday.' },
  { from: 'it@co.com', title: 'Password reset', text: 'Your password expires soon.' },
];

describe('openAiDialect: Cohere v1 rank_fields', () => {
  it('scores each object as the listed fields, `field: value` lines in the given order; the object is the source', () => {
    const request = openAiDialect.parse({ query: 'insurance', documents: EMAILS, rank_fields: ['title', 'from'] });

    expect(request.documents).toEqual([
      { text: 'title: Health insurance\nfrom: hr@co.com', source: EMAILS[0] },
      { text: 'title: Password reset\nfrom: it@co.com', source: EMAILS[1] },
    ]);
  });

  it('objects need no text field when rank_fields are given; non-string values are JSON', () => {
    const request = openAiDialect.parse({
      query: 'q',
      documents: [{ year: 2024, tags: ['a'], ok: true }],
      rank_fields: ['year', 'tags', 'ok'],
    });

    expect(request.documents[0]?.text).toBe('year: 2024\ntags: ["a"]\nok: true');
  });

  it('a string document counts as {text}, and is returned as the string sent', () => {
    const request = openAiDialect.parse({ query: 'q', documents: ['plain'], rank_fields: ['text'], return_documents: true });
    expect(request.documents).toEqual([{ text: 'text: plain', source: { text: 'plain' } }]);

    const body = openAiDialect.formatOutcome(
      outcomeOf([{ index: 0, score: 1, document: request.documents[0] as { text: string } }], 1),
      CONTEXT,
    ).body as { results: Json[] };
    expect(body.results[0]?.['document']).toEqual({ text: 'plain' });
  });

  it('returned documents are the objects as sent', () => {
    const request = openAiDialect.parse({ query: 'q', documents: EMAILS, rank_fields: ['title'], return_documents: true });
    const body = openAiDialect.formatOutcome(
      outcomeOf([{ index: 1, score: 1, document: request.documents[1] as { text: string } }], 1),
      CONTEXT,
    ).body as { results: Json[] };

    expect(body.results[0]?.['document']).toEqual(EMAILS[1]);
  });

  it('without rank_fields nothing changes (null is absent)', () => {
    expect(openAiDialect.parse({ query: 'q', documents: ['a'], rank_fields: null, max_chunks_per_doc: null })).toStrictEqual(
      expectedRequest({ query: 'q', documents: textDocs(['a']) }),
    );
  });
});

describe('openAiDialect: Cohere v1 max_chunks_per_doc', () => {
  it('becomes maxChunksPerDoc', () => {
    expect(openAiDialect.parse({ query: 'q', documents: ['a'], max_chunks_per_doc: 3 }).maxChunksPerDoc).toBe(3);
  });

  it('absent leaves no key at all', () => {
    expect(openAiDialect.parse({ query: 'q', documents: ['a'] })).not.toHaveProperty('maxChunksPerDoc');
  });
});

describe('openAiDialect: malformed rank_fields / max_chunks_per_doc', () => {
  const CASES: readonly (readonly [string, unknown, string])[] = [
    ['rank_fields a string', { query: 'q', documents: EMAILS, rank_fields: 'title' }, 'rank_fields'],
    ['rank_fields empty', { query: 'q', documents: EMAILS, rank_fields: [] }, 'rank_fields'],
    ['rank_fields with a number', { query: 'q', documents: EMAILS, rank_fields: ['title', 1] }, 'rank_fields[1]'],
    ['a document lacks a listed field', { query: 'q', documents: EMAILS, rank_fields: ['subject'] }, 'documents[0].subject'],
    ['a listed field is null', { query: 'q', documents: [{ title: null }], rank_fields: ['title'] }, 'documents[0].title'],
    ['a document a number', { query: 'q', documents: [EMAILS[0], 4], rank_fields: ['title'] }, 'documents[1]'],
    ['a string document without text in rank_fields', { query: 'q', documents: ['plain'], rank_fields: ['title'] }, 'documents[0].title'],
    ['documents missing', { query: 'q', rank_fields: ['title'] }, 'documents'],
    ['max_chunks_per_doc zero', { query: 'q', documents: ['a'], max_chunks_per_doc: 0 }, 'max_chunks_per_doc'],
    ['max_chunks_per_doc fractional', { query: 'q', documents: ['a'], max_chunks_per_doc: 1.5 }, 'max_chunks_per_doc'],
    ['max_chunks_per_doc a string', { query: 'q', documents: ['a'], max_chunks_per_doc: '2' }, 'max_chunks_per_doc'],
  ];

  it.each(byParam(CASES))('%s -> 400 on %s in the OpenAI envelope', (_name, param, body) => {
    const error = expectInvalid(() => openAiDialect.parse(body), param);
    expect(openAiDialect.formatError(error, CONTEXT)).toEqual({
      status: 400,
      body: { message: error.message, error: { message: error.message, type: 'invalid_request_error', param, code: 'invalid_value' } },
    });
  });
});

describe('readRankFieldDocuments', () => {
  it('keeps the order of the fields, not of the object', () => {
    expect(readRankFieldDocuments([{ b: 'B', a: 'A' }], 'docs', ['a', 'b'])[0]?.text).toBe('a: A\nb: B');
  });

  it("names the reader's param spelling", () => {
    expectInvalid(() => readRankFieldDocuments({}, 'input.documents', ['a']), 'input.documents');
  });
});
