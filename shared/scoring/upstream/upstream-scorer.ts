import { RerankClient } from '../../client/index.js';
import { RerankError, invalidRequest } from '../../core/rerank-error.js';
import type { UpstreamReranker } from '../../core/rerank-request.js';
import type { ScoreBatch, Scorer } from '../../core/scorer.js';

/** `*` allows any host; otherwise exact host names (with port when not the default). */
export type UpstreamHostPolicy = readonly string[];

/**
 * The RAG tool's external provider (`rerank_config.api_url`): scores by calling an upstream rerank API in any of the three dialects
 * (the client SDK speaks them all, including every chat reply format), with the request's timeout.
 * Hosts are allow-listed: a client-supplied URL must never make the service call arbitrary addresses.
 * Documents the upstream does not rank get NaN, so they rank last.
 */
export function createUpstreamScorer(upstream: UpstreamReranker, allowedHosts: UpstreamHostPolicy): Scorer {
  let url: URL;
  try {
    url = new URL(upstream.apiUrl);
  } catch {
    throw invalidRequest('rerank_config.api_url must be an absolute http(s) URL', 'rerank_config.api_url');
  }
  if (!/^https?:$/.test(url.protocol)) throw invalidRequest('rerank_config.api_url must be http(s)', 'rerank_config.api_url');
  if (!allowedHosts.includes('*') && !allowedHosts.includes(url.host)) {
    throw invalidRequest(`upstream host '${url.host}' is not allowed here (RERANK_UPSTREAM_ALLOWED_HOSTS)`, 'rerank_config.api_url');
  }
  const client = new RerankClient({
    baseUrl: upstream.apiUrl,
    mode: upstream.mode,
    timeoutMs: upstream.timeoutMs,
    ...(upstream.apiKey ? { apiKey: upstream.apiKey } : {}),
    ...(upstream.model ? { model: upstream.model } : {}),
  });
  return {
    id: upstream.model ?? `upstream:${url.host}`,
    scoreKind: 'similarity',
    // An upstream may normalize over the set it receives; never split its work into chunks.
    candidateRelative: true,
    async score(query: string, documents: readonly string[]): Promise<ScoreBatch> {
      let ranked;
      try {
        ranked = await client.rerank(query, documents);
      } catch (error) {
        // The message names the host and the upstream's own words, never the key.
        const reason = error instanceof Error ? error.message : String(error);
        throw new RerankError('upstream', `upstream reranker at ${url.host} failed: ${reason}`, { cause: error });
      }
      const scores = new Array<number>(documents.length).fill(Number.NaN);
      for (const [index, score] of ranked.results) if (index >= 0 && index < documents.length) scores[index] = score;
      return { scores, tokens: ranked.usage.totalTokens ?? 0 };
    },
  };
}
