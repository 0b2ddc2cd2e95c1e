import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';

/** What every SDK test sends: a query with one clearly relevant document among three. */
export const QUERY = 'python http library';
export const DOCS = [
  'urllib is a built-in Python library for HTTP requests',
  'the weather in Lisbon is mild in winter',
  'requests is a popular third-party HTTP library for Python',
];
/** More documents than SDK_SYNC_MAX_DOCUMENTS: answered through a queued job. */
export const MANY_DOCS = Array.from({ length: 40 }, (_, i) => `${DOCS[i % DOCS.length]} (copy ${i})`);
export const SDK_KEY = 'sk-sdk-compat-0123456789';

export interface SdkServer {
  readonly server: RunningServer;
  readonly url: string;
  /** Our own answer for an OpenAI-style body, fetched without any SDK: what each SDK must report. */
  rerank(body: Record<string, unknown>): Promise<{ index: number; relevance_score: number; document?: { text: string } }[]>;
  stop(): Promise<void>;
}

/**
 * `npm start` with one key, the shipped alias table, and jobs that cannot finish within the endpoint's
 * wait (above 8 documents a request becomes a job of 1-document chunks, and the wait is 1 ms): the
 * requests SDKs send by default are answered at once, MANY_DOCS meets the still-running-job answer.
 */
export async function startSdkServer(): Promise<SdkServer> {
  const server = await startDevServer({
    RERANK_API_KEYS: SDK_KEY,
    RERANK_SYNC_MAX_DOCUMENTS: '8',
    RERANK_DEFAULT_BATCH_SIZE: '1',
    RERANK_JOB_WAIT_MS: '1',
  });
  return {
    server,
    url: server.url,
    async rerank(body) {
      const res = await fetch(`${server.url}/v1/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SDK_KEY}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`/v1/rerank answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { results: { index: number; relevance_score: number; document?: { text: string } }[] }).results;
    },
    stop: () => server.stop(),
  };
}

/** The 504 a still-running job gets: its message names the poll path every SDK must surface. */
export const STILL_RUNNING = /rerank job \S+ is still running .* GET \/v1\/rerank\/jobs\/[\w-]+/;
