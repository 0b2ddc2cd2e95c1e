import { RankServiceClient } from '@google-cloud/discoveryengine';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS, MANY_DOCS, QUERY, SDK_KEY, STILL_RUNNING, startSdkServer, type SdkServer } from './sdk-server.js';

/**
 * Google's Vertex AI ranking client, unchanged: RankServiceClient over its REST fallback (`fallback: true`) pointed
 * at npm start, the API key held as the OAuth2 access token it sends as `Authorization: Bearer`. It posts to
 * `/v1/projects/{p}/locations/{l}/rankingConfigs/{c}:rank?$alt=json;enum-encoding=int`.
 */
let api: SdkServer;

beforeAll(async () => {
  api = await startSdkServer();
});

afterAll(async () => {
  await api?.stop();
});

function client(key = SDK_KEY): RankServiceClient {
  const url = new URL(api.url);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: key, expiry_date: Date.now() + 3_600_000 });
  return new RankServiceClient({ fallback: true, apiEndpoint: url.hostname, port: Number(url.port), protocol: 'http', authClient });
}

const failureOf = (promise: Promise<unknown>): Promise<{ code?: number; message: string }> =>
  promise.then(
    () => ({ message: 'no error' }),
    (e: unknown) => e as { code?: number; message: string },
  );

describe('@google-cloud/discoveryengine RankServiceClient', () => {
  it('ranks as our API does: records best first with id, score, title and content', async () => {
    const rankService = client();
    const [reply] = await rankService.rank({
      rankingConfig: rankService.rankingConfigPath('my-project', 'global', 'default_ranking_config'),
      model: 'semantic-ranker-default@latest',
      query: QUERY,
      records: DOCS.map((content, i) => ({ id: `doc-${i}`, title: '', content })),
      topN: 2,
    });
    await rankService.close();

    const expected = await api.rerank({ query: QUERY, documents: DOCS, top_n: 2 });
    expect(reply.records?.map((r) => [r.id, r.score, r.content])).toEqual(
      expected.map((r) => [`doc-${r.index}`, expect.closeTo(r.relevance_score, 6), DOCS[r.index]]),
    );
  });

  it('returns ids and scores only with ignoreRecordDetailsInResponse', async () => {
    const rankService = client();
    const [reply] = await rankService.rank({
      rankingConfig: rankService.rankingConfigPath('p', 'global', 'default_ranking_config'),
      query: QUERY,
      records: DOCS.map((content, i) => ({ id: `doc-${i}`, title: `title ${i}`, content })),
      ignoreRecordDetailsInResponse: true,
    });
    await rankService.close();
    expect(reply.records).toHaveLength(DOCS.length);
    for (const record of reply.records ?? []) {
      expect(record.id).toMatch(/^doc-\d$/);
      expect(record.title ?? '').toBe('');
      expect(record.content ?? '').toBe('');
    }
  });

  it('surfaces our Google error body: 401 UNAUTHENTICATED, 400 INVALID_ARGUMENT naming the record, 504 DEADLINE_EXCEEDED for a job that outlives the wait', async () => {
    const config = (rankService: RankServiceClient) => rankService.rankingConfigPath('p', 'global', 'default_ranking_config');
    const wrongKey = client('sk-wrong');
    const unauthorized = await failureOf(
      wrongKey.rank({ rankingConfig: config(wrongKey), query: QUERY, records: [{ id: '1', content: DOCS[0] }] }),
    );
    await wrongKey.close();
    // Over the REST fallback the request is sent by the auth client (gaxios), which throws on any non-2xx status its
    // own error: `code` the HTTP status, `message` our body, Google's {error: {code, message, status}}.
    const googleError = (e: { message: string }) =>
      (JSON.parse(e.message) as { error: { code: number; message: string; status: string } }).error;
    expect(unauthorized.code).toBe(401);
    expect(googleError(unauthorized)).toEqual({
      code: 401,
      message: expect.stringContaining('invalid API key'),
      status: 'UNAUTHENTICATED',
    });

    const rankService = client();
    const bad = await failureOf(rankService.rank({ rankingConfig: config(rankService), query: QUERY, records: [{ id: 'empty' }] }));
    expect(bad.code).toBe(400);
    expect(googleError(bad)).toEqual({ code: 400, message: expect.stringContaining('records[0]'), status: 'INVALID_ARGUMENT' });

    const running = await failureOf(
      rankService.rank({
        rankingConfig: config(rankService),
        query: QUERY,
        records: MANY_DOCS.map((content, i) => ({ id: String(i), content })),
      }),
    );
    await rankService.close();
    expect(running.code).toBe(504);
    expect(googleError(running)).toMatchObject({ code: 504, status: 'DEADLINE_EXCEEDED' });
    expect(googleError(running).message).toMatch(STILL_RUNNING);
  });
});
