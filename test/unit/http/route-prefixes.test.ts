import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/config-error.js';
import { DEFAULT_WEAVIATE_PREFIX, readRoutePrefix, weaviatePrefixFromEnv } from '../../../shared/config/route-prefix-config.js';
import { API_ROUTES, buildApiRoutes, matchRoute } from '../../../shared/http/api-routes.js';

const keys = (routes: ReturnType<typeof buildApiRoutes>) => routes.map((r) => `${r.method} ${r.path}`);

describe('the Weaviate route prefix (RERANK_WEAVIATE_PREFIX, CDK rerank:weaviatePrefix)', () => {
  it('defaults to /weaviate and takes plain multi-segment paths', () => {
    expect(weaviatePrefixFromEnv({})).toBe(DEFAULT_WEAVIATE_PREFIX);
    expect(weaviatePrefixFromEnv({ RERANK_WEAVIATE_PREFIX: ' /reranker/v1 ' })).toBe('/reranker/v1');
  });

  it('refuses what is not a plain path, naming the setting', () => {
    for (const bad of ['weaviate', '/weaviate/', '/a//b', '/a/../b', '/a b', '/{x}', `/${'a'.repeat(300)}`]) {
      expect(() => readRoutePrefix('RERANK_WEAVIATE_PREFIX', bad, DEFAULT_WEAVIATE_PREFIX), bad).toThrow(
        /RERANK_WEAVIATE_PREFIX must be a path/,
      );
    }
  });

  it('puts the three Weaviate routes under the prefix, and nowhere else', () => {
    const routes = keys(buildApiRoutes({ weaviate: '/reranker/v1' }));
    expect(routes).toEqual(
      expect.arrayContaining(['POST /reranker/v1/rerank', 'GET /reranker/v1/meta', 'GET /reranker/v1/.well-known/ready']),
    );
    expect(routes.filter((key) => key.includes('weaviate'))).toEqual([]);
    expect(keys(API_ROUTES)).toEqual(
      expect.arrayContaining(['POST /weaviate/rerank', 'GET /weaviate/meta', 'GET /weaviate/.well-known/ready']),
    );
    expect(matchRoute('GET', '/weaviate/.well-known/ready')).toMatchObject({ found: 'route', route: { public: true } });
  });

  it("refuses a prefix whose routes take another route's path", () => {
    // `/v1` would put Weaviate's rerank on the OpenAI-compatible /v1/rerank.
    expect(() => buildApiRoutes({ weaviate: '/v1' })).toThrow(ConfigError);
    expect(() => buildApiRoutes({ weaviate: '' })).toThrow(/choose another prefix/);
  });
});
