import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

const scorer: Scorer = {
  id: 'length',
  scoreKind: 'similarity',
  score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: docs.length }),
};

async function get(path: string) {
  const rt = testRuntime({ scorers: [scorer] });
  const result = await rt.app.handle(apiGatewayEvent({ method: 'GET', path }));
  return { status: result.statusCode, body: JSON.parse(result.body as string) as Record<string, unknown> };
}

describe('GET /v1/models/{id} and GET /', () => {
  it("answers a served model's object, and a 404 naming the served ids for any other", async () => {
    expect(await get('/v1/models/length')).toEqual({
      status: 200,
      body: { id: 'length', object: 'model', created: 0, owned_by: 'rerank-service', aliases: expect.arrayContaining(['rerank-2']) },
    });
    const missing = await get('/v1/models/no-such-model');
    expect(missing.status).toBe(404);
    expect(missing.body['error']).toMatchObject({ param: 'model', message: expect.stringMatching(/serves length/) });
  });

  it('points the base URL at the docs, the OpenAPI document, health, the models and the service info', async () => {
    expect(await get('/')).toEqual({
      status: 200,
      body: { service: 'rerank-service', docs: '/docs', openapi: '/openapi.json', health: '/health', models: '/v1/models', info: '/info' },
    });
  });

  it("sends /docs/ to /docs, where the page's relative file URLs resolve (from /docs/ it stayed blank)", async () => {
    const rt = testRuntime({ scorers: [scorer] });
    for (const path of ['/docs/', '/docs//']) {
      const result = await rt.app.handle(apiGatewayEvent({ method: 'GET', path }));
      expect(result.statusCode).toBe(308);
      expect(result.headers?.['location']).toBe('/docs');
    }
    const page = await rt.app.handle(apiGatewayEvent({ method: 'GET', path: '/docs' }));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="docs/swagger-ui.css"');
  });
});

describe('aliases on /v1/models', () => {
  it("lists each served model with the names that reach it, and answers an alias's object with the model that scores it", async () => {
    const list = await get('/v1/models');
    const [first] = list.body['data'] as Record<string, unknown>[];
    expect(first).toMatchObject({ id: 'length', object: 'model', owned_by: 'rerank-service' });
    expect(first?.['aliases']).toEqual(expect.arrayContaining(['rerank-v3.5', 'BAAI/bge-reranker-v2-m3', 'amazon.rerank-v1:0']));

    expect(await get('/v1/models/rerank-v3.5')).toEqual({
      status: 200,
      body: { id: 'rerank-v3.5', object: 'model', created: 0, owned_by: 'rerank-service', alias_of: 'length' },
    });
    expect((await get('/v1/models/constructor')).status).toBe(404);
  });
});
