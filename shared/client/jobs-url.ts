/** Endpoint paths the service serves, longest first; what precedes them is a deployment prefix (an API Gateway stage). */
const ENDPOINT_SUFFIXES: readonly RegExp[] = [
  /\/api\/v1\/services\/rerank\/text-rerank\/text-rerank$/,
  /\/v1\/rerank\/jobs$/,
  /\/v1\/(?:rerank|chat\/completions)$/,
  /\/(?:rerank|chat\/completions)$/,
];

/**
 * Where jobs live for a mode endpoint: `{origin}{prefix}/v1/rerank/jobs`, keeping any path prefix in
 * front of the known endpoint (`https://x/prod/v1/rerank` -> `https://x/prod/v1/rerank/jobs`).
 */
export function defaultJobsUrl(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  const match = ENDPOINT_SUFFIXES.map((re) => re.exec(path)).find((m) => m !== null);
  const prefix = match ? path.slice(0, match.index) : '';
  return `${url.origin}${prefix}/v1/rerank/jobs`;
}
