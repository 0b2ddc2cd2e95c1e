import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

const lengthScorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

const body = JSON.stringify(DIALECTS['bedrock-invoke'].example);

async function invoke(contentType: string | undefined, path = '/model/length/invoke') {
  const { app } = testRuntime({ scorers: [lengthScorer] });
  const event = apiGatewayEvent({ method: 'POST', path, body, headers: contentType === undefined ? {} : { 'content-type': contentType } });
  // The event factory puts application/json by default: take it out for the untyped case.
  if (contentType === undefined) delete (event.headers as Record<string, string>)['content-type'];
  return app.handle(event);
}

describe("InvokeModel reads its body as JSON whatever the SDK's default type, as Bedrock does", () => {
  it('takes no Content-Type (boto3 without contentType) and application/octet-stream (the AWS JS SDK)', async () => {
    for (const type of [undefined, 'application/octet-stream', 'application/json']) {
      const reply = await invoke(type);
      expect(reply.statusCode, String(type)).toBe(200);
      expect((JSON.parse(reply.body as string) as { results: unknown[] }).results).toHaveLength(2);
    }
  });

  it('still refuses text/plain and the form types (415, a ValidationException); other routes still refuse octet-stream', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const reply = await invoke(type);
      expect(reply.statusCode, type).toBe(415);
      expect(reply.headers?.['x-amzn-ErrorType']).toBe('ValidationException');
    }
    const { app } = testRuntime({ scorers: [lengthScorer] });
    const openai = await app.handle(
      apiGatewayEvent({ method: 'POST', path: '/v1/rerank', body, headers: { 'content-type': 'application/octet-stream' } }),
    );
    expect(openai.statusCode).toBe(415);
  });
});
