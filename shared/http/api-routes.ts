import { ConfigError } from '../config/config-error.js';
import { weaviatePrefixFromEnv } from '../config/route-prefix-config.js';
import type { Dialect, RoutePrefixName } from '../dialects/dialect.js';
import { weaviateDialect } from '../dialects/weaviate/weaviate-dialect.js';
import { DIALECTS } from '../dialects/dialects.js';
import { dashScopeDialect } from '../dialects/dashscope/dashscope-dialect.js';
import { openAiDialect } from '../dialects/openai/openai-dialect.js';
import { vertexDialect } from '../dialects/vertex/vertex-dialect.js';
import type { BatchesOperation } from './batches/batches-api.js';
import type { FilesOperation } from './files/files-api.js';

/** A second dialect served on a route's path, recognised by its body (TEI's `texts` beside OpenAI's `documents`). */
export interface BodyDialect {
  readonly dialect: Dialect;
  readonly claims: (body: unknown) => boolean;
}

/** A second dialect served on a route's path, recognised by its headers (Pinecone's, a SigV4 signature's). */
export interface HeaderDialect {
  readonly dialect: Dialect;
  readonly claims: (header: (name: string) => string | undefined) => boolean;
}

export type RouteAction =
  | { kind: 'rerank'; dialect: Dialect; byBody?: readonly BodyDialect[]; byHeaders?: readonly HeaderDialect[] }
  | { kind: 'submit-job'; dialect: Dialect }
  | { kind: 'get-job' }
  | { kind: 'cancel-job' }
  | { kind: 'models' }
  | { kind: 'model' }
  | { kind: 'info' }
  | { kind: 'weaviate-meta' }
  | { kind: 'index' }
  | { kind: 'health' }
  | { kind: 'openapi' }
  | { kind: 'docs' }
  | { kind: 'docs-asset' }
  | { kind: 'batches'; operation: BatchesOperation }
  | { kind: 'files'; operation: FilesOperation };

export interface Route {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly action: RouteAction;
  /** Errors on this path (405, 401, 404) use this dialect's envelope. */
  readonly errorDialect: Dialect;
  readonly public?: boolean;
}

export { DASHSCOPE_RERANK_PATH } from '../dialects/dashscope/dashscope-dialect.js';
export { RAG_TOOL_RERANK_PATH } from '../dialects/rag-tool/rag-tool-dialect.js';
export { LLAMA_STACK_RERANK_PATH } from '../dialects/llama-stack/llama-stack-dialect.js';
export { PIPELINE_RERANK_PATH } from '../dialects/pipeline/pipeline-dialect.js';
export { COHERE_V2_RERANK_PATH } from '../dialects/cohere-v2/cohere-v2-dialect.js';
export { VOYAGE_RERANK_PATH } from '../dialects/voyage/voyage-dialect.js';

/** The prefixes an operator sets (Dialect.underPrefix), as read from RERANK_WEAVIATE_PREFIX or the CDK setting. */
export type RoutePrefixes = Readonly<Record<RoutePrefixName, string>>;

/**
 * Every dialect's rerank route, from its declaration (Dialect.paths, under its prefix if it has one; a dialect that
 * shares another's path is told apart there by its headers or its body): adding a dialect adds its routes, OpenAPI
 * operations and API Gateway routes.
 */
const rerankRoutes = (prefixes: RoutePrefixes): readonly Route[] =>
  Object.values(DIALECTS).flatMap((dialect) =>
    dialect.paths.map((relative): Route => {
      const path = dialect.underPrefix === undefined ? relative : `${prefixes[dialect.underPrefix]}${relative}`;
      const sharing = Object.values(DIALECTS).flatMap((other) =>
        other.sharesPath?.path === path ? [{ dialect: other, shared: other.sharesPath }] : [],
      );
      const byBody = sharing.flatMap(({ dialect: other, shared }) => (shared.claims ? [{ dialect: other, claims: shared.claims }] : []));
      const byHeaders = sharing.flatMap(({ dialect: other, shared }) =>
        shared.claimsHeaders ? [{ dialect: other, claims: shared.claimsHeaders }] : [],
      );
      const action: RouteAction = {
        kind: 'rerank',
        dialect,
        ...(byBody.length > 0 ? { byBody } : {}),
        ...(byHeaders.length > 0 ? { byHeaders } : {}),
      };
      return { method: 'POST', path, action, errorDialect: dialect };
    }),
  );

/** The dialect a rerank route's request claims by its headers (before its body is read), if any. */
export function claimedByHeaders(route: Route, header: (name: string) => string | undefined): Dialect | undefined {
  return route.action.kind === 'rerank' ? route.action.byHeaders?.find((alternative) => alternative.claims(header))?.dialect : undefined;
}

/**
 * Weaviate's reranker-transformers container protocol besides its rerank route: `/meta` (the model; a key, like /info)
 * and `/.well-known/ready` (public, as health is: Weaviate waits on it at start-up).
 */
const weaviateRoutes = (prefix: string): readonly Route[] => [
  { method: 'GET', path: `${prefix}/meta`, action: { kind: 'weaviate-meta' }, errorDialect: weaviateDialect },
  { method: 'GET', path: `${prefix}/.well-known/ready`, action: { kind: 'health' }, errorDialect: weaviateDialect, public: true },
];

/**
 * The route table for these prefixes: what the API matches (API_ROUTES, from the environment) and what API Gateway
 * routes at synth (from the CDK setting). A prefix whose routes would take another route's path is a ConfigError.
 */
export function buildApiRoutes(prefixes: RoutePrefixes): readonly Route[] {
  const routes = [...rerankRoutes(prefixes), ...FIXED_ROUTES, ...weaviateRoutes(prefixes.weaviate)];
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key))
      throw new ConfigError(`the Weaviate prefix '${prefixes.weaviate}' puts ${key} on a path another route serves: choose another prefix`);
    seen.add(key);
  }
  return routes;
}

/** `METHOD /path`, as API references list an operation. */
type RouteLine = `${Route['method']} /${string}`;

/** A route whose errors take OpenAI's envelope, from its `METHOD /path` line. */
function openAiRoute(line: RouteLine, action: RouteAction, visibility: { readonly public?: true } = {}): Route {
  const space = line.indexOf(' ');
  return {
    method: line.slice(0, space) as Route['method'],
    path: line.slice(space + 1),
    action,
    errorDialect: openAiDialect,
    ...visibility,
  };
}

/** OpenAI's Batches API: each `METHOD /path` and the operation it runs. */
const BATCHES_OPERATIONS: Readonly<Record<RouteLine, BatchesOperation>> = {
  'POST /v1/batches': 'create',
  'GET /v1/batches': 'list',
  'GET /v1/batches/{id}': 'get',
  'POST /v1/batches/{id}/cancel': 'cancel',
};

/** OpenAI's Files and Uploads APIs: each `METHOD /path` and the operation it runs. */
const FILES_OPERATIONS: Readonly<Record<RouteLine, FilesOperation>> = {
  'POST /v1/files': 'create',
  'GET /v1/files': 'list',
  'GET /v1/files/{id}': 'get',
  'DELETE /v1/files/{id}': 'delete',
  'GET /v1/files/{id}/content': 'content',
  'POST /v1/uploads': 'upload-create',
  'POST /v1/uploads/{id}/parts': 'upload-part',
  'POST /v1/uploads/{id}/complete': 'upload-complete',
  'POST /v1/uploads/{id}/cancel': 'upload-cancel',
};

const PUBLIC = { public: true } as const;

/** Clients configure a base URL (`.../v1`) and append `/rerank` or `/chat/completions`; both spellings are served. */
const FIXED_ROUTES: readonly Route[] = [
  openAiRoute('POST /v1/rerank/jobs', { kind: 'submit-job', dialect: openAiDialect }),
  openAiRoute('GET /v1/rerank/jobs/{id}', { kind: 'get-job' }),
  openAiRoute('DELETE /v1/rerank/jobs/{id}', { kind: 'cancel-job' }),
  ...Object.entries(BATCHES_OPERATIONS).map(([line, operation]) => openAiRoute(line as RouteLine, { kind: 'batches', operation })),
  ...Object.entries(FILES_OPERATIONS).map(([line, operation]) => openAiRoute(line as RouteLine, { kind: 'files', operation })),
  openAiRoute('GET /v1/models', { kind: 'models' }),
  openAiRoute('GET /models', { kind: 'models' }),
  openAiRoute('GET /v1/models/{id}', { kind: 'model' }),
  // What is served and accepted (TEI's /info fields first); private, like the models list.
  openAiRoute('GET /info', { kind: 'info' }),
  // What a browser or curl pointed at the base URL sees: where the docs and the API description are.
  openAiRoute('GET /', { kind: 'index' }, PUBLIC),
  openAiRoute('GET /health', { kind: 'health' }, PUBLIC),
  openAiRoute('GET /openapi.json', { kind: 'openapi' }, PUBLIC),
  // Interactive docs over /openapi.json; requests sent from the page carry the key typed into its Authorize dialog.
  openAiRoute('GET /docs', { kind: 'docs' }, PUBLIC),
  openAiRoute('GET /docs/{asset}', { kind: 'docs-asset' }, PUBLIC),
];

/** The routes this process serves: the Weaviate prefix from RERANK_WEAVIATE_PREFIX (default /weaviate). */
export const API_ROUTES: readonly Route[] = buildApiRoutes({ weaviate: weaviatePrefixFromEnv() });

export type RouteMatch =
  | { found: 'route'; route: Route; params: Readonly<Record<string, string>> }
  | { found: 'wrong-method'; allowed: string[]; errorDialect: Dialect }
  | { found: 'none'; errorDialect: Dialect }
  | { found: 'too-long'; length: number; maxPathChars: number; errorDialect: Dialect };

/** The longest path a route is looked up for (RERANK_MAX_PATH_CHARS): past it a 414, before anything else reads it. */
export const DEFAULT_MAX_PATH_CHARS = 2048;

/**
 * Trailing slashes go (`/v1/rerank/` is `/v1/rerank`) by one scan from the end: linear in the path, where the
 * regex `/\/+$/` backtracked over a run of slashes followed by another character (quadratic before auth).
 */
export function normalizePath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === path.length ? path : path.slice(0, end);
}

/** The envelope for an unknown path: DashScope's and Google's (Vertex AI) under their own prefixes, OpenAI's elsewhere. */
const dialectForUnknownPath = (path: string): Dialect =>
  path.startsWith('/api/v1/services/') ? dashScopeDialect : path.startsWith('/v1/projects/') ? vertexDialect : openAiDialect;

/** A template segment with a variable: `{id}`, or one with literal text around it (Google's `{rankingConfig}:rank`). */
const SEGMENT_VARIABLE = /^([^{}]*)\{(\w+)\}([^{}]*)$/;

/** `%3A` reads as `:`; a malformed escape matches nothing. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Matches `/a/{id}` templates segment by segment: a `{name}` segment takes one non-empty segment, and a segment
 * with text around its variable (`{rankingConfig}:rank`) takes a segment with that text around a non-empty value.
 */
function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    const variable = SEGMENT_VARIABLE.exec(w);
    if (variable) {
      const [, prefix = '', name = '', suffix = ''] = variable;
      const decoded = decodeSegment(g);
      if (decoded === undefined || decoded.length <= prefix.length + suffix.length) return undefined;
      if (!decoded.startsWith(prefix) || !decoded.endsWith(suffix)) return undefined;
      params[name] = decoded.slice(prefix.length, decoded.length - suffix.length);
    } else if (w !== g) return undefined;
  }
  return params;
}

/**
 * The path API Gateway routes a template on. HTTP APIs take a variable only as a whole segment and a greedy one only
 * last: a template with text beside a variable (`.../rankingConfigs/{rankingConfig}:rank`) is routed on its literal
 * start and a greedy rest (`/v1/projects/{proxy+}`); the function's own matchRoute then reads the rest.
 */
export function gatewayPath(template: string): string {
  const segments = template.split('/');
  const partial = segments.findIndex((segment) => segment.includes('{') && !/^\{\w+\}$/.test(segment));
  if (partial < 0) return template;
  const firstVariable = segments.findIndex((segment) => segment.includes('{'));
  return [...segments.slice(0, firstVariable), '{proxy+}'].join('/');
}

export function matchRoute(method: string, rawPath: string, maxPathChars: number = DEFAULT_MAX_PATH_CHARS): RouteMatch {
  if (rawPath.length > maxPathChars)
    return { found: 'too-long', length: rawPath.length, maxPathChars, errorDialect: dialectForUnknownPath(rawPath) };
  const path = normalizePath(rawPath);
  const onPath = API_ROUTES.map((route) => ({ route, params: matchPath(route.path, path) })).filter(
    (m): m is { route: Route; params: Record<string, string> } => m.params !== undefined,
  );
  const hit = onPath.find((m) => m.route.method === method.toUpperCase());
  if (hit) return { found: 'route', route: hit.route, params: hit.params };
  const first = onPath[0];
  if (first) return { found: 'wrong-method', allowed: onPath.map((m) => m.route.method), errorDialect: first.route.errorDialect };
  return { found: 'none', errorDialect: dialectForUnknownPath(path) };
}
