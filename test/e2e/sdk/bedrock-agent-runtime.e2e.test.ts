import {
  AccessDeniedException,
  BedrockAgentRuntimeClient,
  RerankCommand,
  ValidationException,
  type RerankCommandInput,
} from '@aws-sdk/client-bedrock-agent-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

// The AWS SDK's RerankCommand, unchanged: `endpoint` is the service, `requestHandler` the HTTP/1.1 handler (the client
// speaks HTTP/2 by default), and the key goes in as the access key id (SigV4 signs; the signature is not checked).
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const MODEL_ARN = 'arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0';

const client = (accessKeyId = SDK_KEY) =>
  new BedrockAgentRuntimeClient({
    region: 'us-west-2',
    endpoint: api.url,
    credentials: { accessKeyId, secretAccessKey: 'not-checked' },
    requestHandler: new NodeHttpHandler(),
    // A job still running past the wait is a 504, which the SDK would otherwise send again (and submit another job).
    maxAttempts: 1,
  });

const input = (documents: readonly string[], numberOfResults?: number): RerankCommandInput => ({
  queries: [{ type: 'TEXT', textQuery: { text: QUERY } }],
  sources: documents.map((text) => ({ type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text } } })),
  rerankingConfiguration: {
    type: 'BEDROCK_RERANKING_MODEL',
    bedrockRerankingConfiguration: {
      modelConfiguration: { modelArn: MODEL_ARN },
      ...(numberOfResults === undefined ? {} : { numberOfResults }),
    },
  },
});

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('@aws-sdk/client-bedrock-agent-runtime RerankCommand', () => {
  it('ranks as our API does: relevanceScore, index and each source as sent, numberOfResults as top_n', async () => {
    const reply = await client().send(new RerankCommand(input(DOCS, 2)));

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.results?.map((r) => [r.index, r.relevanceScore, r.document?.textDocument?.text])).toEqual(
      expected.map((r) => [r.index, expect.closeTo(r.relevance_score, 5), DOCS[r.index]]),
    );
    expect(reply.nextToken).toBeUndefined();
  });

  it('ranks JSON documents by their JSON text and returns them as sent', async () => {
    const json = DOCS.map((text, i) => ({ title: `doc ${i}`, body: text }));
    const reply = await client().send(
      new RerankCommand({
        ...input([]),
        sources: json.map((jsonDocument) => ({ type: 'INLINE', inlineDocumentSource: { type: 'JSON', jsonDocument } })),
      }),
    );
    const expected = await api.rerank({ query: QUERY, documents: json.map((d) => JSON.stringify(d)) });
    expect(reply.results?.map((r) => [r.index, r.document?.type, r.document?.jsonDocument])).toEqual(
      expected.map((r) => [r.index, 'JSON', json[r.index]]),
    );
  });

  it('raises the exception AWS would: ValidationException naming the field, AccessDeniedException for a wrong key', async () => {
    const invalid = await failure(client().send(new RerankCommand({ ...input(DOCS), queries: [] })));
    expect(invalid).toBeInstanceOf(ValidationException);
    expect((invalid as ValidationException).message).toMatch(/queries/);
    expect((invalid as ValidationException).$metadata.httpStatusCode).toBe(400);

    const denied = await failure(client('sk-wrong').send(new RerankCommand(input(DOCS))));
    expect(denied).toBeInstanceOf(AccessDeniedException);
    expect((denied as AccessDeniedException).message).toMatch(/^invalid API key: the SigV4 access key id .*accessKeyId: <key>/);
  });

  it('answers a set past the synchronous limit through a job: still running past the wait, named by its poll path', async () => {
    const running = await failure(client().send(new RerankCommand(input(MANY_DOCS))));
    expect((running as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(504);
    expect((running as Error).message).toMatch(STILL_RUNNING);
  });
});
