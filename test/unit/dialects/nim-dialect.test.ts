import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { nimDialect } from '../../../shared/dialects/nim/nim-dialect.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { CONTEXT, EXPECTED_STATUS, expectInvalid, outcomeOf, textDocs } from './dialect-test-helpers.js';

/** The request in NVIDIA's NeMo Retriever text reranking NIM docs ("Getting started": curl to /v1/ranking). */
const NIM_EXAMPLE = {
  model: 'nvidia/nv-rerankqa-mistral-4b-v3',
  query: { text: 'which way should i go?' },
  passages: [
    {
      text: 'two roads diverged in a yellow wood, and sorry i could not travel both and be one traveler, long i stood and looked down one as far as i could to where it bent in the undergrowth;',
    },
    {
      text: 'then took the other, as just as fair, and having perhaps the better claim because it was grassy and wanted wear, though as for that the passing there had worn them really about the same,',
    },
    {
      text: 'and both that morning equally lay in leaves no step had trodden black. oh, i marked the first for another day! yet knowing how way leads on to way i doubted if i should ever come back.',
    },
  ],
  truncate: 'END',
};

describe('NIM dialect: requests', () => {
  it("reads NIM's documented body: query.text, passages[].text, truncate END; scores on the logit scale", () => {
    expect(() => validateRequestBody(nimDialect.requestSchema, NIM_EXAMPLE)).not.toThrow();
    const request = nimDialect.parse(NIM_EXAMPLE);
    expect(request.query).toBe('which way should i go?');
    expect(request.documents).toEqual(textDocs(NIM_EXAMPLE.passages.map((p) => p.text)));
    expect(request.model).toBe('nvidia/nv-rerankqa-mistral-4b-v3');
    expect(request.truncate).toBe(true);
    expect(request.activation).toBe('logit');
    expect(request.topN).toBeUndefined();
    expect(nimDialect.parse({ ...NIM_EXAMPLE, truncate: 'NONE' }).truncate).toBe(false);
    expect(nimDialect.parse({ query: NIM_EXAMPLE.query, passages: NIM_EXAMPLE.passages }).truncate).toBeUndefined();
  });

  it('refuses what NIM refuses, naming the field as NIM spells it', () => {
    expectInvalid(() => nimDialect.parse({ ...NIM_EXAMPLE, query: 'a bare string' }), 'query');
    expectInvalid(() => nimDialect.parse({ ...NIM_EXAMPLE, query: {} }), 'query.text');
    expectInvalid(() => nimDialect.parse({ ...NIM_EXAMPLE, passages: ['a bare string'] }), 'passages[0]');
    expectInvalid(() => nimDialect.parse({ ...NIM_EXAMPLE, passages: [{ content: 'x' }] }), 'passages[0].text');
    expectInvalid(() => nimDialect.parse({ ...NIM_EXAMPLE, truncate: 'START' }), 'truncate');
    expect(() => validateRequestBody(nimDialect.requestSchema, { ...NIM_EXAMPLE, truncate: 'START' })).toThrow(RerankError);
  });
});

describe('NIM dialect: replies', () => {
  it("answers NIM's rankings: best first, index and logit only", () => {
    const outcome = outcomeOf(
      [
        { index: 0, score: 0.7646484375 },
        { index: 2, score: -1.1044921875 },
        { index: 1, score: -2.5 },
      ],
      99,
    );
    expect(nimDialect.formatOutcome(outcome, CONTEXT)).toEqual({
      status: 200,
      body: {
        rankings: [
          { index: 0, logit: 0.7646484375 },
          { index: 2, logit: -1.1044921875 },
          { index: 1, logit: -2.5 },
        ],
      },
    });
  });

  it("errors as FastAPI's {detail}, with the service's status", () => {
    const reply = nimDialect.formatError(
      new RerankError('invalid_request', 'passages[0].text must be a string', { param: 'passages[0].text' }),
      CONTEXT,
    );
    expect(reply).toEqual({ status: EXPECTED_STATUS.invalid_request, body: { detail: 'passages[0].text must be a string' } });
    expect(nimDialect.formatError(new RerankError('unauthorized', 'invalid API key'), CONTEXT).status).toBe(401);
  });

  it('is served from DIALECTS on /v1/ranking', () => {
    expect(DIALECTS.nim).toBe(nimDialect);
    expect(nimDialect.paths).toEqual(['/v1/ranking']);
  });
});
