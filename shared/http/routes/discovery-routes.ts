import { echoText } from '../../core/echo-text.js';
import { RerankError } from '../../core/rerank-error.js';
import { DOCS_CONTENT_SECURITY_POLICY, docsAsset, docsPage, type DocsAsset } from '../api-docs-page.js';
import type { ApiAppDeps } from '../api-app-deps.js';
import { openApiDocument } from '../openapi-document.js';
import { json, type ApiExchange, type ApiResult } from '../pipeline/api-exchange.js';

export type DiscoveryAction = 'health' | 'openapi' | 'docs' | 'docs-asset' | 'models' | 'model' | 'info' | 'index' | 'weaviate-meta';

/** OpenAI's model object, for `/v1/models` and `/v1/models/{id}`. */
const modelObject = (id: string) => ({ id, object: 'model', created: 0, owned_by: 'rerank-service' });

/**
 * A served model's object with the other names that reach it (`aliases`), or an alias's with the model that scores
 * it (`alias_of`): OpenAI's model object allows more fields, and clients that list models read the four they know.
 */
function describedModel(id: string, deps: ApiAppDeps): Record<string, unknown> | undefined {
  const aliases = deps.modelAliases ?? {};
  if (deps.modelIds.includes(id)) {
    const names = Object.keys(aliases).filter((alias) => aliases[alias] === id);
    return { ...modelObject(id), ...(names.length > 0 ? { aliases: names } : {}) };
  }
  const target = Object.hasOwn(aliases, id) ? aliases[id] : undefined;
  return target === undefined ? undefined : { ...modelObject(id), alias_of: target };
}

/** The docs page and its files: cacheable, and confined by a CSP to loading from this service. */
const docsResponse = (asset: DocsAsset): ApiResult => ({
  statusCode: 200,
  headers: {
    'content-type': asset.contentType,
    'cache-control': 'public, max-age=3600',
    'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  },
  body: asset.body,
});

/** What a client or an operator reads to find its way: health, the API's description, the served models. */
export function discoveryRoute(
  action: DiscoveryAction,
  exchange: ApiExchange,
  params: Readonly<Record<string, string>>,
  deps: ApiAppDeps,
): ApiResult {
  const { basePath } = exchange.context;
  switch (action) {
    case 'health':
      return json(200, { status: 'ok' });
    case 'openapi':
      return json(200, openApiDocument(basePath));
    case 'docs':
      // The page loads its files by relative URLs (so it works under any stage or base path): from `/docs/` they
      // would resolve under `/docs/docs/` and the page would stay blank, so that spelling is sent to `/docs`.
      if (exchange.path.endsWith('/')) return { statusCode: 308, headers: { location: `${basePath}/docs` }, body: '' };
      return docsResponse(docsPage());
    case 'docs-asset': {
      const asset = docsAsset(params['asset'] ?? '');
      if (!asset) throw new RerankError('not_found', `no docs file '${params['asset'] ?? ''}'`);
      return docsResponse(asset);
    }
    case 'models':
      return json(200, { object: 'list', data: deps.modelIds.map((id) => describedModel(id, deps)) });
    case 'model': {
      const id = params['id'] ?? '';
      const model = describedModel(id, deps);
      if (!model) {
        throw new RerankError('not_found', `no model '${echoText(id)}'; this service serves ${deps.modelIds.join(', ')}`, {
          param: 'model',
        });
      }
      return json(200, model);
    }
    case 'info':
      if (!deps.info) throw new RerankError('not_found', `no service info on ${exchange.path}`);
      return json(200, deps.info);
    case 'weaviate-meta':
      // reranker-transformers answers its model's config; Weaviate shows whatever object comes back.
      return json(200, { model: { _name_or_path: deps.modelIds[0] ?? '' }, models: deps.modelIds });
    case 'index':
      return json(200, {
        service: 'rerank-service',
        docs: `${basePath}/docs`,
        openapi: `${basePath}/openapi.json`,
        health: `${basePath}/health`,
        models: `${basePath}/v1/models`,
        info: `${basePath}/info`,
      });
  }
}
