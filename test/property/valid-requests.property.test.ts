import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiApp } from '../../shared/http/api-app.js';
import { createApiApp } from '../../shared/http/create-api-app.js';
import { apiGatewayEvent } from '../support/event-factory.js';
import { VALID_RUNS } from './support/case-budget.js';
import { loadInProcessApi, type InProcessApi } from './support/in-process-api.js';
import { toJsonText } from './support/json-text.js';
import { propertyParams, propertyTimeoutMs } from './support/property-params.js';
import { pathVariant, validFields, wireBody, type RerankFields } from './support/rerank-arbitraries.js';
import { expectDialectSuccess, expectJobView, type WireDialect, type WireResult } from './support/response-oracle.js';
import { DASHSCOPE_PATH, RERANK_ROUTES, expectApiResponse } from './support/route-oracle.js';
import { waitForProgress } from '../../scripts/support/wait-for-progress.js';

const SYNC_MAX_DOCUMENTS_OVER_LIMIT = 3;
let api: InProcessApi;
/** The same runtime with a tiny synchronous limit: 4+ documents take the queued-job path and are waited for. */
let overLimitApp: ApiApp;

beforeAll(async () => {
  api = await loadInProcessApi();
  const { config } = api.runtime;
  overLimitApp = createApiApp({
    ...api.runtime,
    config: { ...config, jobs: { ...config.jobs, syncMaxDocuments: SYNC_MAX_DOCUMENTS_OVER_LIMIT } },
  });
});

const routesOf = (dialect: WireDialect) => Object.keys(RERANK_ROUTES).filter((p) => RERANK_ROUTES[p] === dialect);

async function rerank(app: ApiApp, dialect: WireDialect, path: string, fields: RerankFields, headers: Record<string, string> = {}) {
  const event = apiGatewayEvent({ path, body: toJsonText(wireBody(dialect, fields)), headers });
  return expectApiResponse(event, await app.handle(event));
}

/** Sigmoid scores unless raw scores were asked for. */
function expectScoreRange(results: readonly WireResult[], fields: RerankFields): void {
  if (fields.rawScores === true) return;
  for (const r of results) {
    expect(r.score).toBeGreaterThanOrEqual(0);
    expect(r.score).toBeLessThanOrEqual(1);
  }
}

/** Polls until the job leaves `running`, as a client following `poll_url` would; stuck when its body stops changing for 20 s. */
async function pollUntilDone(pollUrl: string): Promise<Record<string, unknown>> {
  return waitForProgress(
    async () => {
      const event = apiGatewayEvent({ method: 'GET', path: pollUrl });
      const response = expectApiResponse(event, await api.app.handle(event));
      expect(response.status).toBe(200);
      return { done: response.body['status'] !== 'running', progress: JSON.stringify(response.body), value: response.body };
    },
    { stallMs: 20_000, pollMs: 2, what: pollUrl },
  );
}

describe.each(['openai', 'dashscope', 'chat'] as const)('%s: valid requests', (dialect) => {
  const route = fc.constantFrom(...routesOf(dialect)).chain(pathVariant);

  it(
    `answer 200 with a permutation of a subset of the indices, best first (${VALID_RUNS[dialect]} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(route, validFields, async (path, fields) => {
          // expectApiResponse checks the ranking against the request: unique indices in [0, n), sorted, min(top_n, n), documents iff asked.
          const response = await rerank(api.app, dialect, path, fields);
          expect(response.status).toBe(200);
          expectScoreRange(expectDialectSuccess(dialect, response.body), fields);
        }),
        propertyParams(VALID_RUNS[dialect]),
      );
    },
    propertyTimeoutMs(),
  );
});

describe('valid requests through the job path', () => {
  const dialectRoute = fc.constantFrom<[WireDialect, string]>(
    ['openai', '/v1/rerank'],
    ['dashscope', DASHSCOPE_PATH],
    ['chat', '/v1/chat/completions'],
  );

  it(
    `Prefer: respond-async answers 202; the polled result ranks like the synchronous answer (${VALID_RUNS.respondAsync} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(dialectRoute, validFields, async ([dialect, path], fields) => {
          const accepted = await rerank(api.app, dialect, path, fields, { prefer: 'respond-async' });
          expect(accepted.status).toBe(202);
          expect(accepted.body['dialect']).toBe(dialect);
          const job = await pollUntilDone(accepted.body['poll_url'] as string);
          expectJobView(job);
          expect(job['status']).toBe('succeeded');
          const viaJob = expectDialectSuccess(dialect, job['result'] as Record<string, unknown>);
          const viaSync = expectDialectSuccess(dialect, (await rerank(api.app, dialect, path, fields)).body);
          // Same normalization on both paths; chunked inference may differ in the last float bits only.
          if (fields.threshold === undefined || fields.threshold === null) {
            expect(viaJob.map((r) => r.index).sort()).toEqual(viaSync.map((r) => r.index).sort());
          }
          const syncScore = new Map(viaSync.map((r) => [r.index, r.score as number]));
          for (const r of viaJob) {
            const expected = syncScore.get(r.index as number);
            if (expected !== undefined) expect(r.score as number).toBeCloseTo(expected, 4);
          }
          expectScoreRange(viaJob, fields);
        }),
        propertyParams(VALID_RUNS.respondAsync),
      );
    },
    propertyTimeoutMs(),
  );

  it(
    `above the synchronous limit the endpoint waits for the job and answers 200 (${VALID_RUNS.overSyncLimit} runs)`,
    async () => {
      const overLimit = validFields.filter((f) => Array.isArray(f.documents) && f.documents.length > SYNC_MAX_DOCUMENTS_OVER_LIMIT);
      await fc.assert(
        fc.asyncProperty(dialectRoute, overLimit, async ([dialect, path], fields) => {
          const response = await rerank(overLimitApp, dialect, path, fields);
          expect(response.status).toBe(200);
          expect(typeof response.headers['x-rerank-job-id']).toBe('string');
          expectScoreRange(expectDialectSuccess(dialect, response.body), fields);
        }),
        propertyParams(VALID_RUNS.overSyncLimit),
      );
    },
    propertyTimeoutMs(),
  );
});
