import { describe, expect, it } from 'vitest';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { zeroEntropyDialect } from '../../../shared/dialects/zeroentropy/zeroentropy-dialect.js';
import { invalidRequest } from '../../../shared/core/rerank-error.js';
import { CONTEXT, expectInvalid, outcomeOf } from './dialect-test-helpers.js';

/** The body of ZeroEntropy's rerank docs, as the `zeroentropy` client sends `models.rerank()`. */
const EXAMPLE = {
  model: 'zerank-2',
  query: 'What is 2+2?',
  documents: ['4', 'The answer is definitely 1 million.'],
  top_n: 1,
  latency: 'slow',
};

describe('ZeroEntropy dialect: requests', () => {
  it("reads ZeroEntropy's body: model, query, documents, top_n, latency", () => {
    expect(() => validateRequestBody(zeroEntropyDialect.requestSchema, EXAMPLE)).not.toThrow();
    const request = zeroEntropyDialect.parse(EXAMPLE);
    expect(request).toMatchObject({ model: 'zerank-2', query: EXAMPLE.query, topN: 1, latency: 'slow' });
    expect(request.documents.map((d) => d.text)).toEqual(EXAMPLE.documents);
    const unset = zeroEntropyDialect.parse({ ...EXAMPLE, latency: null, top_n: null });
    expect([unset.latency, unset.topN]).toEqual([undefined, undefined]);
    expect(zeroEntropyDialect.parse({ ...EXAMPLE, latency: 'fast' }).latency).toBe('fast');
  });

  it('refuses what it cannot read, naming the field as ZeroEntropy spells it', () => {
    expectInvalid(() => zeroEntropyDialect.parse({ ...EXAMPLE, latency: 'auto' }), 'latency');
    expectInvalid(() => zeroEntropyDialect.parse({ ...EXAMPLE, documents: [{ text: 'object' }] }), 'documents[0]');
    expectInvalid(() => zeroEntropyDialect.parse({ ...EXAMPLE, top_n: -1 }), 'top_n');
  });
});

describe('ZeroEntropy dialect: replies', () => {
  it('answers results best first with relevance_score, the tier that served it, latencies, bytes and tokens', () => {
    const request = zeroEntropyDialect.parse(EXAMPLE);
    const outcome = outcomeOf([{ index: 0, score: 0.9 }], 17);
    const body = zeroEntropyDialect.formatOutcome(outcome, CONTEXT, request).body;
    expect(body).toEqual({
      results: [{ index: 0, relevance_score: 0.9 }],
      actual_latency_mode: 'fast',
      e2e_latency: 0.002,
      inference_latency: 0.001,
      total_bytes: Buffer.byteLength('What is 2+2?4The answer is definitely 1 million.'),
      total_tokens: 17,
    });
    // A job's answer, waited for or polled (no request then), was served slow.
    expect(zeroEntropyDialect.formatOutcome({ ...outcome, queued: true }, CONTEXT, request).body).toMatchObject({
      actual_latency_mode: 'slow',
    });
    expect(zeroEntropyDialect.formatOutcome(outcome, CONTEXT).body).toMatchObject({ actual_latency_mode: 'slow', total_bytes: 0 });
  });

  it("errors in FastAPI's {detail}", () => {
    expect(zeroEntropyDialect.formatError(invalidRequest('latency must be "fast" or "slow"', 'latency'), CONTEXT)).toEqual({
      status: 400,
      body: { detail: 'latency must be "fast" or "slow"' },
    });
  });
});
