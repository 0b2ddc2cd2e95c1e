import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { expect } from 'vitest';
import { matchRoute, normalizePath } from '../../../shared/http/api-routes.js';
import {
  expectDialectSuccess,
  expectErrorEnvelope,
  expectJobView,
  expectRanking,
  parseResponse,
  type ParsedResponse,
  type RankingExpectation,
  type WireDialect,
} from './response-oracle.js';

export const DASHSCOPE_PATH = '/api/v1/services/rerank/text-rerank/text-rerank';

/** The rerank endpoints and the dialect each speaks (README, "dialect | route"). */
export const RERANK_ROUTES: Readonly<Record<string, WireDialect>> = {
  '/v1/rerank': 'openai',
  '/rerank': 'openai',
  [DASHSCOPE_PATH]: 'dashscope',
  '/v1/chat/completions': 'chat',
  '/chat/completions': 'chat',
};

/** The routes these properties own; other dialects' endpoints (added alongside) get only the floor checks. */
const IN_SCOPE_PATHS = new Set([
  ...Object.keys(RERANK_ROUTES),
  '/v1/rerank/jobs',
  '/v1/rerank/jobs/{id}',
  '/v1/models',
  '/models',
  '/health',
]);
/** A path some route other than these serves (templates included: `/v1/files/abc` is `/v1/files/{id}`'s). */
const isOutOfScopeRoute = (path: string): boolean =>
  ['GET', 'POST', 'DELETE'].some((method) => {
    const match = matchRoute(method, path);
    return match.found === 'route' && !IN_SCOPE_PATHS.has(match.route.path);
  });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** DashScope's envelope on its own prefix, OpenAI's (which chat shares) everywhere else. */
export const errorDialectForPath = (rawPath: string): WireDialect =>
  normalizePath(rawPath).startsWith('/api/v1/services/') ? 'dashscope' : 'openai';

function sentJson(event: APIGatewayProxyEventV2): unknown {
  if (event.body === undefined) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function chatContentOf(body: Record<string, unknown>): unknown {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return undefined;
  const user = messages.find((m): m is Record<string, unknown> => isRecord(m) && m['role'] === 'user');
  const content = user?.['content'];
  const text = Array.isArray(content)
    ? content.map((p: unknown) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('')
    : content;
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a 200 must show for the body that was sent, read back from the JSON actually sent. */
export function rankingExpectation(dialect: WireDialect, sent: unknown): RankingExpectation {
  if (!isRecord(sent)) return {};
  let fields: Record<string, unknown>;
  let docsKey = 'documents';
  let topNKey = 'top_n';
  let returnDocuments: unknown;
  if (dialect === 'openai') {
    fields = sent;
    returnDocuments = sent['return_documents'];
  } else if (dialect === 'dashscope') {
    const parameters = isRecord(sent['parameters']) ? sent['parameters'] : {};
    fields = { ...parameters, documents: isRecord(sent['input']) ? sent['input']['documents'] : undefined };
    returnDocuments = parameters['return_documents'];
  } else {
    const content = chatContentOf(sent);
    if (!isRecord(content)) return {};
    fields = content;
    docsKey = 'candidates';
    topNKey = 'top_k';
    // Chat replies carry documents unless the content turns them off.
    returnDocuments = content['include_docs'] ?? content['return_documents'] ?? true;
  }
  const documents = fields[docsKey];
  const topN = fields[topNKey];
  const threshold = fields['rerank_threshold'];
  return {
    ...(Array.isArray(documents) ? { documents } : {}),
    ...(typeof topN === 'number' ? { topN } : {}),
    ...(typeof threshold === 'number' ? { threshold } : {}),
    returnDocuments: returnDocuments === true,
  };
}

/** The Content-Type as ApiApp reads it: the exact lower-case name first, else any spelling. */
function sentContentType(event: APIGatewayProxyEventV2): string | undefined {
  const headers = event.headers ?? {};
  return headers['content-type'] ?? Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
}

const isJsonContentType = (value: string | undefined): boolean =>
  /^application\/json\s*(;\s*charset="?utf-?8"?\s*)?$/i.test(value?.trim() ?? '');

/**
 * The oracle for any event on any path: never a 5xx; errors in the envelope of the path's dialect;
 * 202 a job view; 200 the route's success shape, rankings checked against the request sent.
 */
export function expectApiResponse(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): ParsedResponse {
  const response = parseResponse(result);
  const path = normalizePath(event.rawPath);
  const { body, status } = response;
  if (isOutOfScopeRoute(path)) return response;
  // Bodies are read only when they say they are JSON (issue 17): a 415 means they did not, and a success means they did.
  if (status === 415 || (status < 300 && event.requestContext.http.method.toUpperCase() === 'POST')) {
    expect(isJsonContentType(sentContentType(event)), `status ${status} with Content-Type ${sentContentType(event)}`).toBe(status !== 415);
  }
  if (status >= 400) {
    expectErrorEnvelope(errorDialectForPath(path), response, event.requestContext.requestId);
    return response;
  }
  if (status === 202) {
    expectJobView(body, response.headers);
    return response;
  }
  const rerankDialect = RERANK_ROUTES[path];
  if (rerankDialect) {
    expect(event.requestContext.http.method.toUpperCase()).toBe('POST');
    expectRanking(rerankDialect, expectDialectSuccess(rerankDialect, body), rankingExpectation(rerankDialect, sentJson(event)));
  } else if (path === '/v1/models' || path === '/models') {
    expect(body['object']).toBe('list');
    expect(Array.isArray(body['data']) && body['data'].length > 0).toBe(true);
  } else if (path === '/') {
    expect(body['docs']).toBe('/docs');
  } else if (path === '/health') {
    expect(body).toEqual({ status: 'ok' });
  } else if (/^\/v1\/rerank\/jobs\/[^/]+$/.test(path)) {
    expectJobView(body);
    if (body['result'] !== undefined) {
      const dialect = body['dialect'] as WireDialect;
      expectRanking(dialect, expectDialectSuccess(dialect, body['result'] as Record<string, unknown>), {});
    }
  } else {
    expect.fail(`200 on ${event.requestContext.http.method} ${event.rawPath}: ${result.body?.slice(0, 2_000)}`);
  }
  return response;
}
