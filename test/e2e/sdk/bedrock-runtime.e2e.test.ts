import { BedrockRuntimeClient, InvokeModelCommand, ValidationException } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { BedrockClientV2 } from 'cohere-ai/aws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, QUERY, SDK_KEY, startSdkServer, type SdkServer } from './sdk-server.js';

// Bedrock's InvokeModel with Cohere's rerank body: the AWS SDK's InvokeModelCommand with `endpoint` set, and
// cohere-ai's BedrockClientV2, which hard-codes the AWS host: its requests are sent here by a test-only fetch.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const MODEL = 'cohere.rerank-v3-5:0';

const client = (accessKeyId = SDK_KEY) =>
  new BedrockRuntimeClient({
    region: 'us-west-2',
    endpoint: api.url,
    credentials: { accessKeyId, secretAccessKey: 'not-checked' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });

const invoke = (body: unknown, accessKeyId?: string) =>
  client(accessKeyId).send(
    new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(body) }),
  );

interface CohereReply {
  readonly id: string;
  readonly results: { index: number; relevance_score: number }[];
  readonly meta: unknown;
}

describe("@aws-sdk/client-bedrock-runtime InvokeModelCommand with Cohere's rerank body", () => {
  it("ranks as our API does and answers Cohere's v2 reply", async () => {
    const reply = await invoke({ query: QUERY, documents: DOCS, top_n: 2, api_version: 2 });
    const body = JSON.parse(new TextDecoder().decode(reply.body)) as CohereReply;

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(body.results).toEqual(expected.map((r) => ({ index: r.index, relevance_score: r.relevance_score })));
    expect(body).toMatchObject({ id: expect.any(String), meta: { api_version: { version: '2' } } });
  });

  it('takes the body as JSON without a contentType (the SDK then sends application/octet-stream), as Bedrock does', async () => {
    const reply = await client().send(
      new InvokeModelCommand({ modelId: MODEL, body: JSON.stringify({ query: QUERY, documents: DOCS, top_n: 2, api_version: 2 }) }),
    );
    const body = JSON.parse(new TextDecoder().decode(reply.body)) as CohereReply;
    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(body.results).toEqual(expected.map((r) => ({ index: r.index, relevance_score: r.relevance_score })));
  });

  it('raises ValidationException for a body Cohere would refuse, AccessDeniedException for a wrong key', async () => {
    const invalid = await invoke({ query: QUERY, documents: [{ text: 'objects are v1' }], api_version: 2 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationException);
    expect((invalid as Error).message).toMatch(/documents\[0\]/);
    const version = await invoke({ query: QUERY, documents: DOCS, api_version: 1 }).catch((e: unknown) => e);
    expect((version as Error).message).toMatch(/api_version must be 2/);
    const denied = await invoke({ query: QUERY, documents: DOCS, api_version: 2 }, 'sk-wrong').catch((e: unknown) => e);
    expect((denied as Error).name).toBe('AccessDeniedException');
  });
});

describe("cohere-ai BedrockClientV2 (Cohere's own Bedrock client)", () => {
  it('sends a body this route ranks, and reads our answer as a V2RerankResponse', async () => {
    const realFetch = globalThis.fetch;
    const sent: { url: string; body: unknown }[] = [];
    // The client posts to https://bedrock-runtime.<region>.amazonaws.com; the same request goes to the test server.
    globalThis.fetch = (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      sent.push({ url: url.pathname, body: JSON.parse(String(init?.body)) as unknown });
      return realFetch(`${api.url}${url.pathname}`, init);
    };
    try {
      const cohere = new BedrockClientV2({ awsRegion: 'us-west-2', awsAccessKey: SDK_KEY, awsSecretKey: 'not-checked' });
      const reply = await cohere.rerank({ model: MODEL, query: QUERY, documents: DOCS, topN: 2 });

      // Cohere's v2 rerank body with the model moved to the path and api_version added, as Bedrock documents it.
      expect(sent).toHaveLength(1);
      expect(sent[0]?.url).toMatch(/^\/model\/cohere\.rerank-v3-5(:|%3A)0\/invoke$/);
      expect(sent[0]?.body).toEqual({ query: QUERY, documents: DOCS, top_n: 2, api_version: 2 });
      const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
      expect(reply.results.map((r) => [r.index, r.relevanceScore])).toEqual(expected.map((r) => [r.index, r.relevance_score]));
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
