import { describe, expect, it } from 'vitest';
import { failureResult } from '../../../shared/http/api-app.js';
import { apiGatewayEvent } from '../../support/event-factory.js';

describe('failureResult (the service could not start)', () => {
  it("answers 500 in the called route's own envelope, never the failure's text", () => {
    const cause = new Error('RERANK_MODELS: models/secret-path has no tokenizer.json');
    const openai = failureResult(apiGatewayEvent({ method: 'POST', path: '/v1/rerank' }), cause);
    const dashscope = failureResult(apiGatewayEvent({ method: 'POST', path: '/api/v1/services/rerank/text-rerank/text-rerank' }), cause);
    expect(openai.statusCode).toBe(500);
    expect(dashscope.statusCode).toBe(500);
    expect(JSON.parse(openai.body as string)).toHaveProperty('error.message');
    expect(JSON.parse(dashscope.body as string)).toMatchObject({ code: expect.any(String), message: 'Internal server error' });
    expect(openai.body).not.toEqual(dashscope.body);
    for (const r of [openai, dashscope]) expect(r.body).not.toContain('secret-path');
  });
});
