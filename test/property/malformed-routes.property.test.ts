import { normalizePath } from '../../shared/http/api-routes.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiGatewayEvent, type ApiEventInit } from '../support/event-factory.js';
import { MALFORMED_RUNS, malformedTotal } from './support/case-budget.js';
import { OTHER_API_KEY, PROPERTY_API_KEY, loadInProcessApi, type InProcessApi } from './support/in-process-api.js';
import { toJsonText } from './support/json-text.js';
import { propertyParams, propertyTimeoutMs } from './support/property-params.js';
import {
  bodyMutation,
  mutatedFields,
  pathVariant,
  rawBodyEvent,
  requestHeaders,
  validFields,
  wireBody,
  wrongValue,
} from './support/rerank-arbitraries.js';
import type { WireDialect } from './support/response-oracle.js';
import { RERANK_ROUTES, expectApiResponse } from './support/route-oracle.js';
import type { ApiApp } from '../../shared/http/api-app.js';

const runs = MALFORMED_RUNS.routes;
let api: InProcessApi;
/** Jobs submitted before the properties run: real ids to poll, anonymously (auth off) and with the other key. */
const anonymousJobIds: string[] = [];
const otherKeyJobIds: string[] = [];

const anyMethod = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'get', 'Post') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
);

/** No body, a JSON body, or a body that is not JSON. */
const anyBody: fc.Arbitrary<Pick<ApiEventInit, 'body' | 'isBase64Encoded'>> = fc.oneof(
  fc.constant({}),
  fc.json({ maxDepth: 2 }).map((body) => ({ body })),
  rawBodyEvent,
);

const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('v1', 'rerank', 'jobs', 'api', 'services', 'text-rerank', 'chat', 'completions', 'models', 'health', 'v2'),
  },
  { weight: 1, arbitrary: fc.constantFrom('', '.', '..', '%', '%2F', '%E0%A4%A', '{id}', 'RERANK', '%00', 'jobs%2F1') },
  { weight: 1, arbitrary: fc.webSegment() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const anyPath = fc.oneof(
  fc.array(segment, { maxLength: 7 }).map((s) => `/${s.join('/')}`),
  fc.webPath(),
  fc.string({ maxLength: 30 }).map((s) => `/${s}`),
);

const send = async (app: ApiApp, init: ApiEventInit) => {
  const event = apiGatewayEvent(init);
  return expectApiResponse(event, await app.handle(event));
};

beforeAll(async () => {
  api = await loadInProcessApi();
  for (const documents of [['a'], ['a', 'b', 'c']]) {
    const response = await send(api.app, { path: '/v1/rerank/jobs', json: { query: 'q', documents } });
    expect(response.status).toBe(202);
    anonymousJobIds.push(response.body['id'] as string);
    const keyed = await send(api.authedApp, {
      path: '/v1/rerank/jobs',
      json: { query: 'q', documents },
      headers: { authorization: `Bearer ${OTHER_API_KEY}` },
    });
    expect(keyed.status).toBe(202);
    otherKeyJobIds.push(keyed.body['id'] as string);
  }
});

describe('routes other than the dialect endpoints: malformed and extreme requests', () => {
  it('the malformed budget is at least 10,000 requests per run', () => {
    expect(malformedTotal()).toBeGreaterThanOrEqual(10_000);
  });

  it(
    `POST /v1/rerank/jobs with near-valid OpenAI bodies (${runs.submitJob} runs)`,
    async () => {
      const method = fc.oneof({ weight: 10, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: anyMethod });
      await fc.assert(
        fc.asyncProperty(
          pathVariant('/v1/rerank/jobs'),
          method,
          fc.oneof({ weight: 4, arbitrary: mutatedFields }, { weight: 1, arbitrary: validFields }),
          bodyMutation('openai'),
          requestHeaders(),
          async (path, m, fields, mutate, headers) => {
            const response = await send(api.app, { method: m, path, body: toJsonText(mutate(wireBody('openai', fields))), headers });
            expect(response.status).not.toBe(200);
          },
        ),
        propertyParams(runs.submitJob),
      );
    },
    propertyTimeoutMs(),
  );

  it(
    `GET /v1/rerank/jobs/{id} with real, random and undecodable ids (${runs.getJob} runs)`,
    async () => {
      const id = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...anonymousJobIds).map(encodeURIComponent) },
        { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%00', '..', '.', 'a/b', '%2F', '{id}', ' ', '%20') },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      );
      const method = fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: anyMethod });
      await fc.assert(
        fc.asyncProperty(
          id,
          fc.constantFrom('', '/', '//', '?wait=1'),
          method,
          anyBody,
          requestHeaders(),
          async (jobId, suffix, m, body, headers) => {
            await send(api.app, { method: m, path: `/v1/rerank/jobs/${jobId}${suffix}`, ...body, headers });
          },
        ),
        propertyParams(runs.getJob),
      );
    },
    propertyTimeoutMs(),
  );

  it(
    `/v1/models, /models and /health with any method, body and headers (${runs.modelsAndHealth} runs)`,
    async () => {
      const path = fc.constantFrom('/v1/models', '/models', '/health').chain(pathVariant);
      await fc.assert(
        fc.asyncProperty(path, anyMethod, anyBody, requestHeaders(), async (p, m, body, headers) => {
          await send(api.app, { method: m, path: p, ...body, headers });
        }),
        propertyParams(runs.modelsAndHealth),
      );
    },
    propertyTimeoutMs(),
  );

  it(
    `unknown paths and methods (${runs.unknownPaths} runs)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(anyPath, anyMethod, anyBody, requestHeaders(), async (path, m, body, headers) => {
          await send(api.app, { method: m, path, ...body, headers });
        }),
        propertyParams(runs.unknownPaths),
      );
    },
    propertyTimeoutMs(),
  );
});

describe('with API keys configured', () => {
  const routes = [...Object.entries(RERANK_ROUTES), ['/v1/rerank/jobs', 'openai'] as const];
  const keyIsValid = (authorization: string | undefined): boolean => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return match?.[1] === PROPERTY_API_KEY;
  };

  it(
    `every route answers 401 in its envelope without the key, and never 401 with it (${runs.withAuth} runs)`,
    async () => {
      const request = fc.oneof(
        fc.tuple(fc.constantFrom(...routes), fc.oneof(validFields, mutatedFields)).map(([[path, dialect], fields]) => ({
          method: 'POST',
          path,
          body: toJsonText(wireBody(dialect as WireDialect, fields)),
        })),
        fc
          .constantFrom('/v1/models', '/health', ...otherKeyJobIds.map((id) => `/v1/rerank/jobs/${id}`))
          .map((path) => ({ method: 'GET', path })),
        fc.tuple(anyPath, anyMethod, wrongValue).map(([path, method, body]) => ({ method, path, body: toJsonText(body) })),
      );
      await fc.assert(
        fc.asyncProperty(request, requestHeaders(PROPERTY_API_KEY), async (init, headers) => {
          const response = await send(api.authedApp, { ...init, headers });
          const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
          if (response.status === 200 || response.status === 202) {
            const routed = normalizePath(init.path.split('?')[0] as string);
            expect(keyIsValid(authorization) || routed === '/health' || routed === '/').toBe(true);
          }
          if (keyIsValid(authorization)) expect(response.status).not.toBe(401);
          // A job belongs to the key that submitted it: the other key's jobs are invisible to this one.
          if (init.path.startsWith('/v1/rerank/jobs/') && keyIsValid(authorization)) expect(response.status).toBe(404);
        }),
        propertyParams(runs.withAuth),
      );
    },
    propertyTimeoutMs(),
  );
});
