import { RerankError } from '../../core/rerank-error.js';
import type { ApiAppDeps } from '../api-app-deps.js';
import { callerOf, header, type ApiExchange, type ApiResult } from '../pipeline/api-exchange.js';
import { MethodNotAllowedError } from '../pipeline/method-not-allowed-error.js';
import { readBodyBytes, readJsonBody } from '../pipeline/read-body.js';
import { discoveryRoute } from './discovery-routes.js';
import { cancelJobRoute, getJobRoute, submitJobRoute } from './job-routes.js';
import { rerankRoute } from './rerank-route.js';
import { refuseMisdirectedVoyageClient } from './misdirected-voyage-client.js';

/** The innermost handler: the route the exchange matched does its work; a path that matched none is refused. */
export async function routeExchange(deps: ApiAppDeps, exchange: ApiExchange): Promise<ApiResult> {
  const { match, method, path, event } = exchange;
  if (match.found === 'too-long') {
    throw new RerankError(
      'uri_too_long',
      `the path is ${match.length} characters; this service serves paths of at most ${match.maxPathChars}`,
    );
  }
  if (match.found === 'none') throw new RerankError('not_found', `no route for ${method} ${path}`);
  if (match.found === 'wrong-method') throw new MethodNotAllowedError(method, path, match.allowed);
  const { route, params } = match;
  const action = route.action;
  switch (action.kind) {
    case 'health':
    case 'openapi':
    case 'docs':
    case 'docs-asset':
    case 'models':
    case 'model':
    case 'info':
    case 'index':
    case 'weaviate-meta':
      return discoveryRoute(action.kind, exchange, params, deps);
    case 'rerank':
      refuseMisdirectedVoyageClient(exchange);
      return rerankRoute(deps, exchange, action.dialect, action.byBody);
    case 'submit-job':
      return submitJobRoute(deps, exchange, action.dialect);
    case 'get-job':
      return getJobRoute(deps, exchange, params['id'] ?? '');
    case 'cancel-job':
      return cancelJobRoute(deps, exchange, params['id'] ?? '');
    case 'batches': {
      if (!deps.batches) throw new RerankError('not_found', `batches are not enabled on ${path}`);
      const readBody = () => readJsonBody(event, deps.limits.maxBodyBytes);
      return deps.batches.handle(action.operation, {
        event,
        caller: callerOf(exchange),
        params,
        readBody,
        header: (name) => header(event, name),
      });
    }
    case 'files': {
      if (!deps.files) throw new RerankError('not_found', `files are not enabled on ${path}`);
      const maxBytes = deps.limits.maxBodyBytes;
      return deps.files.handle(action.operation, {
        event,
        caller: callerOf(exchange),
        params,
        readBytes: () => readBodyBytes(event, maxBytes, route),
        readJson: () => readJsonBody(event, maxBytes, { route }),
        header: (name) => header(event, name),
      });
    }
  }
}
