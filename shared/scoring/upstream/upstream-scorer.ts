import {
  RerankApiError,
  RerankClient,
  RerankResponseFormatError,
  RerankResponseTooLargeError,
  RerankTimeoutError,
} from '../../client/index.js';
import { RerankError, invalidRequest } from '../../core/rerank-error.js';
import type { UpstreamReranker } from '../../core/rerank-request.js';
import type { ScoreBatch, Scorer } from '../../core/scorer.js';

/** `*` allows any host; otherwise exact host names (with port when not the default). */
export type UpstreamHostPolicy = readonly string[];

/**
 * A rerank reply is a few dozen bytes per document, or the documents themselves when an upstream echoes
 * them: the cap grows with what was sent, on top of a base for envelopes and chat prose.
 */
const UPSTREAM_REPLY_BASE_BYTES = 1024 * 1024;
const upstreamReplyCapBytes = (query: string, documents: readonly string[]): number =>
  UPSTREAM_REPLY_BASE_BYTES + 2 * documents.reduce((sum, d) => sum + Buffer.byteLength(d) + Buffer.byteLength(query), 0);

/**
 * What the caller may learn about an upstream failure: its status or the kind of failure, never its
 * body (an upstream can relay anything, e.g. a metadata endpoint's answer) nor the URL's credentials.
 */
function failureReason(error: unknown): string {
  if (error instanceof RerankApiError) return `it answered HTTP ${error.status}`;
  if (error instanceof RerankTimeoutError) return `no reply within ${error.timeoutMs} ms`;
  if (error instanceof RerankResponseTooLargeError) return `its reply exceeded ${error.maxBytes} bytes`;
  if (error instanceof RerankResponseFormatError) return 'its reply is not a rerank response';
  return 'it could not be reached';
}

function parseUpstreamUrl(apiUrl: string, allowedHosts: UpstreamHostPolicy): URL {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw invalidRequest('rerank_config.api_url must be an absolute http(s) URL', 'rerank_config.api_url');
  }
  if (!/^https?:$/.test(url.protocol)) throw invalidRequest('rerank_config.api_url must be http(s)', 'rerank_config.api_url');
  // Credentials belong in rerank_config.api_key, which is never logged; a URL is quoted in too many places.
  if (url.username !== '' || url.password !== '') {
    throw invalidRequest(
      'rerank_config.api_url must not contain credentials (user:password@); send the key as rerank_config.api_key',
      'rerank_config.api_url',
    );
  }
  if (!allowedHosts.includes('*') && !allowedHosts.includes(url.host)) {
    throw invalidRequest(`upstream host '${url.host}' is not allowed here (RERANK_UPSTREAM_ALLOWED_HOSTS)`, 'rerank_config.api_url');
  }
  return url;
}

/**
 * The RAG tool's external provider: scores by calling an upstream rerank API in any of the three dialects
 * (the client SDK speaks them all, including every chat reply format), with the request's timeout.
 * Hosts are allow-listed: a client-supplied URL must never make the service call arbitrary addresses,
 * so redirects are not followed (the next hop would escape the list) and reply bodies are capped.
 * Documents the upstream does not rank get NaN, so they rank last.
 */
export function createUpstreamScorer(upstream: UpstreamReranker, allowedHosts: UpstreamHostPolicy): Scorer {
  const url = parseUpstreamUrl(upstream.apiUrl, allowedHosts);
  const clientFor = (maxResponseBytes: number) =>
    new RerankClient({
      baseUrl: upstream.apiUrl,
      mode: upstream.mode,
      timeoutMs: upstream.timeoutMs,
      // An upstream answering 202 is polled on its own origin, but never for longer than the request's timeout.
      jobWaitTimeoutMs: upstream.timeoutMs,
      followRedirects: false,
      maxResponseBytes,
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
        ranked = await clientFor(upstreamReplyCapBytes(query, documents)).rerank(query, documents);
      } catch (error) {
        // No `cause`: the client's error holds the upstream's body, which must reach neither the caller nor the log.
        throw new RerankError('upstream', `upstream reranker at ${url.host} failed: ${failureReason(error)}`);
      }
      const scores = new Array<number>(documents.length).fill(Number.NaN);
      for (const [index, score] of ranked.results) if (index >= 0 && index < documents.length) scores[index] = score;
      return { scores, tokens: ranked.usage.totalTokens ?? 0 };
    },
  };
}
