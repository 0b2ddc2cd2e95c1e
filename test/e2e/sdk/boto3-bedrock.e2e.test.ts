import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanServerEnv } from '../../support/start-dev-server.js';
import { DOCS, QUERY, SDK_KEY, startSdkServer, type SdkServer } from './sdk-server.js';

// boto3 (python3's, as CI has it for moto): bedrock-agent-runtime `rerank` and bedrock-runtime `invoke_model`, with
// `endpoint_url` set to the service and the key as the access key id.
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

const SCRIPT = fileURLToPath(new URL('boto3_bedrock.py', import.meta.url));

interface Boto3Answers {
  readonly rerank: [number, number, string][];
  readonly rerank_error: [string, string];
  readonly invoke: { index: number; relevance_score: number }[];
  readonly invoke_untyped: { index: number; relevance_score: number }[];
  readonly invoke_error: [string, string];
}

describe('boto3 bedrock-agent-runtime and bedrock-runtime', () => {
  it('rerank and invoke_model (with and without contentType) rank as our API does; errors arrive as the ClientError codes AWS would raise', async () => {
    const { stdout } = await promisify(execFile)('python3', [SCRIPT, api.url, SDK_KEY, QUERY, ...DOCS], {
      env: cleanServerEnv(),
      timeout: 60_000,
    });
    const answers = JSON.parse(stdout) as Boto3Answers;

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(answers.rerank).toEqual(expected.map((r) => [r.index, expect.closeTo(r.relevance_score, 5), DOCS[r.index]]));
    expect(answers.invoke).toEqual(expected.map((r) => ({ index: r.index, relevance_score: r.relevance_score })));
    // invoke_model without contentType: no Content-Type sent, the body read as JSON all the same.
    expect(answers.invoke_untyped).toEqual(answers.invoke);
    expect(answers.rerank_error).toEqual(['ValidationException', expect.stringContaining('nextToken')]);
    expect(answers.invoke_error).toEqual(['ValidationException', expect.stringContaining('documents')]);
  });
});
