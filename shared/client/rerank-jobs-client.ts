import { joinUrl } from './base-url.js';
import type { HttpTransport } from './http-transport.js';
import { RERANK_MODES } from './modes/rerank-modes.js';
import { pollDelayMs, sleep, type BackoffOptions } from './poll-backoff.js';
import { readRerankReply } from './read-rerank-reply.js';
import {
  RerankApiError,
  RerankJobFailedError,
  RerankNetworkError,
  RerankResponseFormatError,
  RerankTimeoutError,
} from './rerank-client-errors.js';
import { isJobView, readJobView, type RerankJob, type RerankJobProgress } from './rerank-job.js';
import type { ModeRequest, RerankMode } from './rerank-mode.js';
import type { RerankOptions, RerankResult } from './rerank-result.js';

export interface WaitOptions extends BackoffOptions {
  /** Called with the job's progress on the first poll and whenever progress or status changes. */
  readonly onProgress?: (progress: RerankJobProgress, job: RerankJob) => void;
  /** Stops waiting (the job itself keeps running on the server); rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Gives up with RerankTimeoutError after this long. Default: the client's `jobWaitTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Consecutive failed polls (network, time limit, 429, 5xx) tolerated before giving up. Default 3. */
  readonly maxPollErrors?: number;
}

export interface RerankJobsClientDeps {
  readonly transport: HttpTransport;
  readonly mode: RerankMode;
  readonly endpoint: string;
  readonly jobsUrl: string;
  readonly waitTimeoutMs: number;
  readonly backoff: BackoffOptions;
  readonly buildRequest: (query: string, documents: readonly string[], options: RerankOptions) => ModeRequest;
}

const isTransient = (error: unknown): boolean =>
  error instanceof RerankNetworkError ||
  error instanceof RerankTimeoutError ||
  (error instanceof RerankApiError && (error.status === 429 || error.status >= 500));

/**
 * Async rerank jobs for candidate sets too large to score within one request. `submit` asks for a job
 * (`Prefer: respond-async` on the mode's endpoint; `POST /v1/rerank/jobs` in OpenAI mode), `wait` polls
 * `GET /v1/rerank/jobs/{id}` with exponential backoff and jitter and returns the same unified result as
 * `rerank`. The server has no cancel endpoint yet: aborting `wait` stops polling only, and the job runs
 * to completion (or expiry) on the server.
 */
export class RerankJobsClient {
  readonly #deps: RerankJobsClientDeps;

  constructor(deps: RerankJobsClientDeps) {
    this.#deps = deps;
  }

  /** Where the job service lives (`.../v1/rerank/jobs`). */
  get jobsUrl(): string {
    return this.#deps.jobsUrl;
  }

  async submit(query: string, documents: readonly string[], options: RerankOptions = {}): Promise<RerankJob> {
    const { mode, transport, endpoint, jobsUrl } = this.#deps;
    const body = mode.buildBody(this.#deps.buildRequest(query, documents, options));
    const reply = await transport.send({
      method: 'POST',
      // The jobs route takes the OpenAI body; the other dialects get their job through their own endpoint.
      url: mode.name === 'openai' ? jobsUrl : endpoint,
      body,
      headers: { prefer: 'respond-async' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!isJobView(reply.body)) {
      throw new RerankResponseFormatError(
        `expected 202 with a rerank job, got ${reply.status}: the server does not run async jobs`,
        reply.body,
      );
    }
    const { topK, includeDocs, threshold, returnRaw } = options;
    return { ...readJobView(reply.body), submitted: { documents, options: { topK, includeDocs, threshold, returnRaw } } };
  }

  /**
   * One poll: the job's status, progress and, once done, its result or reason. A large result comes in pages:
   * `offset` asks for the one starting there (`resultPage.nextOffset` of the previous).
   */
  async get(jobId: string, options: { signal?: AbortSignal; offset?: number } = {}): Promise<RerankJob> {
    const page = options.offset === undefined ? '' : `?offset=${options.offset}`;
    const reply = await this.#deps.transport.send({
      method: 'GET',
      url: joinUrl(this.#deps.jobsUrl, `${encodeURIComponent(jobId)}${page}`),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return readJobView(reply.body);
  }

  /** A succeeded job's whole result: its first page, then every further page, in order (they concatenate). */
  async #wholeResult(view: RerankJob, options: WaitOptions, submitted: RerankJob['submitted']): Promise<RerankResult> {
    const mode = view.mode ? RERANK_MODES[view.mode] : this.#deps.mode;
    const { topK, ...perPage } = submitted?.options ?? {};
    const read = (page: RerankJob) => {
      if (page.result === undefined) throw new RerankResponseFormatError(`job ${view.id} succeeded without a result`, page);
      return readRerankReply(mode, page.result, submitted?.documents, perPage);
    };
    const first = read(view);
    const results = [...first.results];
    for (let page = view; page.resultPage?.nextOffset !== undefined; ) {
      page = await this.get(view.id, { offset: page.resultPage.nextOffset, ...(options.signal ? { signal: options.signal } : {}) });
      results.push(...read(page).results);
    }
    return { ...first, results: topK === undefined ? results : results.slice(0, topK) };
  }

  /**
   * Polls until the job ends. Pass the job `submit` returned to get results shaped like `rerank`'s
   * (topK, includeDocs, threshold, chat replies naming documents by text); with a bare id the result
   * carries documents only if the server returned them.
   */
  async wait(job: string | RerankJob, options: WaitOptions = {}): Promise<RerankResult> {
    const jobId = typeof job === 'string' ? job : job.id;
    const submitted = typeof job === 'string' ? undefined : job.submitted;
    const { onProgress, signal, timeoutMs = this.#deps.waitTimeoutMs, maxPollErrors = 3 } = options;
    const backoff = { ...this.#deps.backoff, ...options };
    const deadline = performance.now() + timeoutMs;
    let lastReported: string | undefined;
    let errors = 0;
    for (let attempt = 0; ; attempt++) {
      let view: RerankJob | undefined;
      try {
        view = await this.get(jobId, signal ? { signal } : {});
        errors = 0;
      } catch (error) {
        if (signal?.aborted || !isTransient(error) || ++errors > maxPollErrors) throw error;
      }
      if (view) {
        const key = `${view.status}:${view.progress.chunksDone}/${view.progress.chunksTotal}`;
        if (key !== lastReported) {
          lastReported = key;
          onProgress?.(view.progress, view);
        }
        if (view.status === 'failed') throw new RerankJobFailedError(jobId, view.error ?? 'no reason given', view.errorCode);
        if (view.status === 'succeeded') return this.#wholeResult(view, options, submitted);
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new RerankTimeoutError(`rerank job ${jobId} still running after ${timeoutMs} ms`, timeoutMs);
      await sleep(Math.min(pollDelayMs(attempt, backoff), left), signal);
    }
  }

  /** `submit` then `wait`. */
  async run(query: string, documents: readonly string[], options: RerankOptions & WaitOptions = {}): Promise<RerankResult> {
    return this.wait(await this.submit(query, documents, options), options);
  }
}
