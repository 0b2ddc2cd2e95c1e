import { HttpTransport, type FetchLike } from './http-transport.js';
import { defaultJobsUrl } from './jobs-url.js';
import { RERANK_MODES, isRerankModeName } from './modes/rerank-modes.js';
import type { BackoffOptions } from './poll-backoff.js';
import { readRerankReply } from './read-rerank-reply.js';
import { RerankApiError, RerankClientError } from './rerank-client-errors.js';
import { redactUrl } from './redact-url.js';
import { isJobView, readJobView } from './rerank-job.js';
import { RerankJobsClient } from './rerank-jobs-client.js';
import { RerankBatchesClient } from './rerank-batches-client.js';
import type { ModeRequest, RerankMode, RerankModeName } from './rerank-mode.js';
import type { RankedDocument, RankedPair, RerankOptions, RerankResult } from './rerank-result.js';

export interface RerankClientOptions {
  /**
   * OpenAI mode: `.../v1` (`/rerank` is appended unless the path has it); chat mode: `.../v1`
   * (`/chat/completions` is appended); DashScope mode: the full text-rerank URL, used as-is.
   */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  /** Omitted from requests when unset: the server uses its default model. */
  readonly model?: string;
  /** Default `chat`, as in Lexilux. */
  readonly mode?: RerankModeName;
  /** Limit for each HTTP request, body included. Default 60 000 ms. */
  readonly timeoutMs?: number;
  /** Follow HTTP redirects. Default true; a server relaying a caller-chosen URL sets false. */
  readonly followRedirects?: boolean;
  /** Reply bodies larger than this fail with RerankResponseTooLargeError. Default 64 MiB. */
  readonly maxResponseBytes?: number;
  /** Default: the global fetch. */
  readonly fetch?: FetchLike;
  /** Default: derived from the endpoint (`{origin}{stage prefix}/v1/rerank/jobs`). */
  readonly jobsUrl?: string;
  /** How long a wait on a job lasts, including when `rerank` gets a 202 back. Default 600 000 ms. */
  readonly jobWaitTimeoutMs?: number;
  /** Polling backoff for jobs. Defaults: 250 ms doubling up to 5 s, with jitter. */
  readonly backoff?: BackoffOptions;
}

/** The poll path a 504 names in `Location` (`.../v1/rerank/jobs/{id}`). */
const JOB_LOCATION = /\/rerank\/jobs\/([^/?#]+)$/;

/**
 * One rerank API for the three client dialects (OpenAI/Jina/Cohere, DashScope, chat). Whatever the mode, `rerank` returns
 * `{results: [index, score(, document)][], usage}` sorted by score descending, and failures are typed:
 * RerankApiError (the server's message and code from its envelope), RerankTimeoutError,
 * RerankNetworkError, RerankResponseFormatError. `jobs` submits and waits on async jobs.
 */
export class RerankClient {
  readonly mode: RerankModeName;
  /** The URL rerank requests are posted to. */
  readonly endpoint: string;
  readonly jobs: RerankJobsClient;
  /** Batches over the service's Files and Batches API (`{origin}{stage prefix}/v1/batches`). */
  readonly batches: RerankBatchesClient;
  readonly #mode: RerankMode;
  readonly #model: string | undefined;
  readonly #transport: HttpTransport;

  constructor(options: RerankClientOptions) {
    const mode = options.mode ?? 'chat';
    if (!isRerankModeName(mode)) throw new RerankClientError(`unknown mode '${String(mode)}'; use openai, dashscope or chat`);
    if (!URL.canParse(options.baseUrl) || !/^https?:$/.test(new URL(options.baseUrl).protocol)) {
      throw new RerankClientError(`baseUrl must be an absolute http(s) URL, got '${redactUrl(options.baseUrl)}'`);
    }
    const fetchImpl = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
    this.mode = mode;
    this.#mode = RERANK_MODES[mode];
    this.#model = options.model;
    this.endpoint = this.#mode.endpoint(options.baseUrl);
    this.#transport = new HttpTransport({
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: fetchImpl,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.followRedirects === undefined ? {} : { followRedirects: options.followRedirects }),
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
    });
    this.jobs = new RerankJobsClient({
      transport: this.#transport,
      mode: this.#mode,
      endpoint: this.endpoint,
      jobsUrl: options.jobsUrl ?? defaultJobsUrl(this.endpoint),
      waitTimeoutMs: options.jobWaitTimeoutMs ?? 600_000,
      backoff: options.backoff ?? {},
      buildRequest: (query, documents, opts) => this.#request(query, documents, opts),
    });
    // The jobs URL is `{origin}{prefix}/v1/rerank/jobs`: the batch API sits beside it.
    this.batches = new RerankBatchesClient({ transport: this.#transport, baseUrl: this.jobs.jobsUrl.replace(/\/rerank\/jobs$/, '') });
  }

  /**
   * Ranks `documents` against `query`. topK and threshold are applied here as well as sent, so a
   * server that ignores them still yields the asked-for list. No documents -> no results, no request.
   * A 202, or a 504 naming a job (the server turned a large request into a job), is followed to the job's result.
   */
  rerank(
    query: string,
    documents: readonly string[],
    options: RerankOptions & { includeDocs: true },
  ): Promise<RerankResult<RankedDocument>>;
  rerank(query: string, documents: readonly string[], options?: RerankOptions & { includeDocs?: false }): Promise<RerankResult<RankedPair>>;
  rerank(query: string, documents: readonly string[], options?: RerankOptions): Promise<RerankResult>;
  async rerank(query: string, documents: readonly string[], options: RerankOptions = {}): Promise<RerankResult> {
    if (!Array.isArray(documents)) throw new RerankClientError('documents must be an array of strings');
    if (documents.length === 0) return { results: [], usage: {} };
    const shaping = {
      topK: options.topK,
      includeDocs: options.includeDocs ?? false,
      threshold: options.threshold,
      returnRaw: options.returnRaw,
    };
    let reply;
    try {
      reply = await this.#transport.send({
        method: 'POST',
        url: this.endpoint,
        body: this.#mode.buildBody(this.#request(query, documents, options)),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      // 504 + Location: the server turned the request into a job that outlived its wait; follow it.
      const jobId = error instanceof RerankApiError && error.status === 504 ? JOB_LOCATION.exec(error.location ?? '')?.[1] : undefined;
      if (jobId === undefined) throw error;
      return this.jobs.wait(
        {
          id: decodeURIComponent(jobId),
          status: 'running',
          progress: { chunksDone: 0, chunksTotal: 0 },
          submitted: { documents, options: shaping },
        },
        options.signal ? { signal: options.signal } : {},
      );
    }
    if (reply.status === 202 && isJobView(reply.body)) {
      const job = readJobView(reply.body);
      return this.jobs.wait({ ...job, submitted: { documents, options: shaping } }, options.signal ? { signal: options.signal } : {});
    }
    return readRerankReply(this.#mode, reply.body, documents, shaping, reply.status);
  }

  #request(query: string, documents: readonly string[], options: RerankOptions): ModeRequest {
    const model = options.model ?? this.#model;
    const instruction = options.instruction ?? options.prompt;
    const tokenControls = Object.fromEntries(
      Object.entries({
        max_tokens_per_doc: options.maxTokensPerDoc,
        max_tokens_per_query: options.maxTokensPerQuery,
        truncation_side: options.truncationSide,
      }).filter(([, value]) => value !== undefined),
    ) as Record<string, number | string>;
    // Neither the chat content nor DashScope's body has a place for them: refused rather than silently dropped.
    const openAiOnly = [...(options.metadata !== undefined ? ['metadata'] : []), ...Object.keys(tokenControls)];
    if (openAiOnly.length > 0 && this.#mode.name !== 'openai') {
      throw new RerankClientError(`${openAiOnly.join(', ')} is sent in openai mode only; this client is in ${this.#mode.name} mode`);
    }
    return {
      query,
      documents,
      includeDocs: options.includeDocs ?? false,
      ...(model !== undefined ? { model } : {}),
      ...(options.topK !== undefined ? { topK: options.topK } : {}),
      ...(options.rawScores !== undefined ? { rawScores: options.rawScores } : {}),
      ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      ...(instruction !== undefined ? { prompt: instruction } : {}),
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(Object.keys(tokenControls).length > 0 ? { tokenControls } : {}),
    };
  }
}
