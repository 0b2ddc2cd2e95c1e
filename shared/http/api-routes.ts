import { chatDialect } from '../dialects/chat/chat-dialect.js';
import { cohereV2Dialect } from '../dialects/cohere-v2/cohere-v2-dialect.js';
import { dashScopeDialect } from '../dialects/dashscope/dashscope-dialect.js';
import type { Dialect } from '../dialects/dialect.js';
import { llamaStackDialect } from '../dialects/llama-stack/llama-stack-dialect.js';
import { openAiDialect } from '../dialects/openai/openai-dialect.js';
import { pipelineDialect } from '../dialects/pipeline/pipeline-dialect.js';
import { ragToolDialect } from '../dialects/rag-tool/rag-tool-dialect.js';
import { teiDialect } from '../dialects/tei/tei-dialect.js';
import { isTeiBody } from '../dialects/tei/tei-request-fields.js';
import { voyageDialect } from '../dialects/voyage/voyage-dialect.js';
import type { BatchesOperation } from './batches/batches-api.js';
import type { FilesOperation } from './files/files-api.js';

/** A second dialect served on a route's path, recognised by its body (TEI's `texts` beside OpenAI's `documents`). */
export interface BodyDialect {
  readonly dialect: Dialect;
  readonly claims: (body: unknown) => boolean;
}

export type RouteAction =
  | { kind: 'rerank'; dialect: Dialect; byBody?: readonly BodyDialect[] }
  | { kind: 'submit-job'; dialect: Dialect }
  | { kind: 'get-job' }
  | { kind: 'cancel-job' }
  | { kind: 'models' }
  | { kind: 'model' }
  | { kind: 'info' }
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

export const DASHSCOPE_RERANK_PATH = '/api/v1/services/rerank/text-rerank/text-rerank';
/** The RAG tool's dedicated rerank endpoint; Llama Stack serves its APIs under `/v1` too, so both spellings are routed. */
export const RAG_TOOL_RERANK_PATH = '/tool-runtime/rag-tool/rerank';
export const LLAMA_STACK_RERANK_PATH = '/v1alpha/inference/rerank';
export const PIPELINE_RERANK_PATH = '/v1/rag/rerank';
export const COHERE_V2_RERANK_PATH = '/v2/rerank';
/** Voyage's SDK appends `/rerank` to its base URL; `/voyage/v1` keeps its `top_k`/`data` shape apart from `/v1/rerank`'s. */
export const VOYAGE_RERANK_PATH = '/voyage/v1/rerank';

/** Clients configure a base URL (`.../v1`) and append `/rerank` or `/chat/completions`; both spellings are served. */
export const API_ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v1/rerank', action: { kind: 'rerank', dialect: openAiDialect }, errorDialect: openAiDialect },
  // TEI clients post `{query, texts}` to `/rerank`: that body is answered in TEI's dialect; any other, in OpenAI's.
  {
    method: 'POST',
    path: '/rerank',
    action: { kind: 'rerank', dialect: openAiDialect, byBody: [{ dialect: teiDialect, claims: isTeiBody }] },
    errorDialect: openAiDialect,
  },
  { method: 'POST', path: DASHSCOPE_RERANK_PATH, action: { kind: 'rerank', dialect: dashScopeDialect }, errorDialect: dashScopeDialect },
  { method: 'POST', path: '/v1/chat/completions', action: { kind: 'rerank', dialect: chatDialect }, errorDialect: chatDialect },
  { method: 'POST', path: '/chat/completions', action: { kind: 'rerank', dialect: chatDialect }, errorDialect: chatDialect },
  { method: 'POST', path: RAG_TOOL_RERANK_PATH, action: { kind: 'rerank', dialect: ragToolDialect }, errorDialect: ragToolDialect },
  { method: 'POST', path: `/v1${RAG_TOOL_RERANK_PATH}`, action: { kind: 'rerank', dialect: ragToolDialect }, errorDialect: ragToolDialect },
  { method: 'POST', path: LLAMA_STACK_RERANK_PATH, action: { kind: 'rerank', dialect: llamaStackDialect }, errorDialect: llamaStackDialect },
  { method: 'POST', path: PIPELINE_RERANK_PATH, action: { kind: 'rerank', dialect: pipelineDialect }, errorDialect: pipelineDialect },
  { method: 'POST', path: COHERE_V2_RERANK_PATH, action: { kind: 'rerank', dialect: cohereV2Dialect }, errorDialect: cohereV2Dialect },
  // The Cohere SDK appends `/v2/rerank` to its base URL: users who set `.../v1` (the base every other client takes) send this.
  { method: 'POST', path: `/v1${COHERE_V2_RERANK_PATH}`, action: { kind: 'rerank', dialect: cohereV2Dialect }, errorDialect: cohereV2Dialect },
  { method: 'POST', path: VOYAGE_RERANK_PATH, action: { kind: 'rerank', dialect: voyageDialect }, errorDialect: voyageDialect },
  { method: 'POST', path: '/v1/rerank/jobs', action: { kind: 'submit-job', dialect: openAiDialect }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/rerank/jobs/{id}', action: { kind: 'get-job' }, errorDialect: openAiDialect },
  { method: 'DELETE', path: '/v1/rerank/jobs/{id}', action: { kind: 'cancel-job' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/batches', action: { kind: 'batches', operation: 'create' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/batches', action: { kind: 'batches', operation: 'list' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/batches/{id}', action: { kind: 'batches', operation: 'get' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/batches/{id}/cancel', action: { kind: 'batches', operation: 'cancel' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/files', action: { kind: 'files', operation: 'create' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/files', action: { kind: 'files', operation: 'list' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/files/{id}', action: { kind: 'files', operation: 'get' }, errorDialect: openAiDialect },
  { method: 'DELETE', path: '/v1/files/{id}', action: { kind: 'files', operation: 'delete' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/files/{id}/content', action: { kind: 'files', operation: 'content' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/uploads', action: { kind: 'files', operation: 'upload-create' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/uploads/{id}/parts', action: { kind: 'files', operation: 'upload-part' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/uploads/{id}/complete', action: { kind: 'files', operation: 'upload-complete' }, errorDialect: openAiDialect },
  { method: 'POST', path: '/v1/uploads/{id}/cancel', action: { kind: 'files', operation: 'upload-cancel' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/models', action: { kind: 'models' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/models', action: { kind: 'models' }, errorDialect: openAiDialect },
  { method: 'GET', path: '/v1/models/{id}', action: { kind: 'model' }, errorDialect: openAiDialect },
  // What is served and accepted (TEI's /info fields first); private, like the models list.
  { method: 'GET', path: '/info', action: { kind: 'info' }, errorDialect: openAiDialect },
  // What a browser or curl pointed at the base URL sees: where the docs and the API description are.
  { method: 'GET', path: '/', action: { kind: 'index' }, errorDialect: openAiDialect, public: true },
  { method: 'GET', path: '/health', action: { kind: 'health' }, errorDialect: openAiDialect, public: true },
  { method: 'GET', path: '/openapi.json', action: { kind: 'openapi' }, errorDialect: openAiDialect, public: true },
  // Interactive docs over /openapi.json; requests sent from the page carry the key typed into its Authorize dialog.
  { method: 'GET', path: '/docs', action: { kind: 'docs' }, errorDialect: openAiDialect, public: true },
  { method: 'GET', path: '/docs/{asset}', action: { kind: 'docs-asset' }, errorDialect: openAiDialect, public: true },
];

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

/** The envelope for an unknown path: DashScope's under its own prefix, OpenAI's elsewhere. */
const dialectForUnknownPath = (path: string): Dialect => (path.startsWith('/api/v1/services/') ? dashScopeDialect : openAiDialect);

/** Matches `/a/{id}` templates segment by segment; a `{name}` segment takes one non-empty segment. */
function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1, -1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

export function matchRoute(method: string, rawPath: string, maxPathChars: number = DEFAULT_MAX_PATH_CHARS): RouteMatch {
  if (rawPath.length > maxPathChars) return { found: 'too-long', length: rawPath.length, maxPathChars, errorDialect: dialectForUnknownPath(rawPath) };
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
