import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { voyageDialect } from '../../../shared/dialects/voyage/voyage-dialect.js';
import { CONTEXT, EXPECTED_STATUS, expectInvalid, outcomeOf, textDocs } from './dialect-test-helpers.js';

/** A request shaped like the example in Voyage's rerank API reference. */
const VOYAGE_EXAMPLE = {
  query: 'When is Apple conference call scheduled?',
  documents: [
    'The Mediterranean diet emphasizes fish, olive oil, and vegetables.',
    "Apple's conference call to discuss fourth fiscal quarter results is scheduled for Thursday, November 2, 2023.",
  ],
  model: 'rerank-2',
  top_k: 1,
};

describe('Voyage dialect: requests', () => {
  it("reads Voyage's body: top_k is the result count, truncation defaults to true, documents are strings", () => {
    const request = voyageDialect.parse(VOYAGE_EXAMPLE);
    expect(request.query).toBe(VOYAGE_EXAMPLE.query);
    expect(request.documents).toEqual(textDocs(VOYAGE_EXAMPLE.documents));
    expect(request.model).toBe('rerank-2');
    expect(request.topN).toBe(1);
    expect(request.returnDocuments).toBe(false);
    expect(request.truncate).toBe(true);
    expect(voyageDialect.parse({ ...VOYAGE_EXAMPLE, truncation: false, return_documents: true })).toMatchObject({
      truncate: false,
      returnDocuments: true,
    });
  });

  it('refuses what Voyage refuses, naming the field as Voyage spells it', () => {
    expectInvalid(() => voyageDialect.parse({ ...VOYAGE_EXAMPLE, documents: [{ text: 'an object' }] }), 'documents[0]');
    expectInvalid(() => voyageDialect.parse({ ...VOYAGE_EXAMPLE, top_k: -1 }), 'top_k');
    expectInvalid(() => voyageDialect.parse({ documents: ['a'] }), 'query');
  });
});

describe('Voyage dialect: replies', () => {
  it("answers Voyage's list: data[] best first with relevance_score, the document text only when asked, usage.total_tokens", () => {
    const outcome = outcomeOf(
      [
        { index: 1, score: 0.9, document: { text: 'b' } },
        { index: 0, score: 0.1, document: { text: 'a' } },
      ],
      42,
      'use-lite-bm25',
    );
    expect(voyageDialect.formatOutcome(outcome, CONTEXT)).toEqual({
      status: 200,
      body: {
        object: 'list',
        data: [
          { index: 1, relevance_score: 0.9, document: 'b' },
          { index: 0, relevance_score: 0.1, document: 'a' },
        ],
        model: 'use-lite-bm25',
        usage: { total_tokens: 42 },
      },
    });
  });

  it("puts the message in detail (what Voyage's Python client reads) beside the OpenAI-style envelope, with the kind's status", () => {
    const reply = voyageDialect.formatError(new RerankError('rate_limited', 'slow down', { param: 'query' }), CONTEXT);
    expect(reply.status).toBe(EXPECTED_STATUS.rate_limited);
    expect(reply.body).toMatchObject({ detail: 'slow down', message: 'slow down', error: { message: 'slow down' } });
  });
});
