import { joinUrl } from './base-url.js';
import type { HttpTransport } from './http-transport.js';
import { pollDelayMs, sleep, type BackoffOptions } from './poll-backoff.js';
import { RerankApiError, RerankNetworkError, RerankResponseFormatError, RerankTimeoutError } from './rerank-client-errors.js';

/** One request of a batch (OpenAI's BatchRequestInput); `url` defaults to the batch's endpoint. */
export interface BatchRequestLine {
  readonly custom_id: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly url?: string;
  readonly method?: 'POST';
}

export type RerankBatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

/** The server's batch object (OpenAI's shape). */
export interface RerankBatch {
  readonly id: string;
  readonly status: RerankBatchStatus;
  readonly endpoint: string;
  readonly input_file_id: string;
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number };
  /**
   * The service's extension beside OpenAI's `request_counts` (whole lines): how much work is done inside lines too,
   * as a fraction, and in chunks while a GET counts them (a batch of at most 100 lines); while the batch runs its
   * phase, and over corpora the documents analysed (stored) of all. Absent from other servers.
   */
  readonly progress?: {
    readonly fraction: number;
    readonly completed_chunks?: number;
    readonly total_chunks?: number;
    readonly phase?: 'analysing_corpus' | 'scoring';
    readonly corpus_documents_analysed?: number;
    readonly corpus_documents?: number;
  };
  readonly output_file_id?: string;
  readonly error_file_id?: string;
  readonly errors?: { readonly data: readonly { readonly code: string; readonly message: string; readonly line?: number | null }[] };
  readonly created_at: number;
  readonly expires_at?: number;
  readonly metadata?: Readonly<Record<string, string>> | null;
}

/** One line of an output or error file (OpenAI's BatchRequestOutput). */
export interface BatchResultLine {
  readonly id: string;
  readonly custom_id?: string;
  readonly response: { readonly status_code: number; readonly request_id: string; readonly body: unknown } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface BatchWaitOptions extends BackoffOptions {
  /** Called on the first poll and whenever the counts, the progress inside lines or the status change. */
  readonly onProgress?: (batch: RerankBatch) => void;
  readonly signal?: AbortSignal;
  /** Gives up with RerankTimeoutError after this long. Default: none (batches may take hours). */
  readonly timeoutMs?: number;
  /** Consecutive failed polls (network, time limit, 429, 5xx) tolerated. Default 5. */
  readonly maxPollErrors?: number;
}

/** The service takes upload parts of at most 4 MiB (one request body on AWS, with its form around it). */
const UPLOAD_PART_BYTES = 4 * 1024 * 1024;

const TERMINAL: readonly RerankBatchStatus[] = ['failed', 'completed', 'expired', 'cancelled'];

const isBatch = (value: unknown): value is RerankBatch =>
  typeof value === 'object' &&
  value !== null &&
  (value as { object?: unknown }).object === 'batch' &&
  typeof (value as { id?: unknown }).id === 'string';

const isTransient = (error: unknown): boolean =>
  error instanceof RerankNetworkError ||
  error instanceof RerankTimeoutError ||
  (error instanceof RerankApiError && (error.status === 429 || error.status >= 500));

/** Splits a byte stream into lines as it arrives (a result file is never held whole). */
async function* textLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const lines = pending.split('\n');
    pending = done ? '' : (lines.pop() as string);
    for (const line of lines) if (line.trim() !== '') yield line;
    if (done) return;
  }
}

/**
 * Batches over the service's OpenAI-shaped Files and Batches API: create from a JSONL file or an array of
 * requests, wait with progress, download the result files, iterate results by custom_id.
 */
export class RerankBatchesClient {
  readonly #transport: HttpTransport;
  /** `{origin}{stage prefix}/v1`. */
  readonly baseUrl: string;

  constructor(deps: { readonly transport: HttpTransport; readonly baseUrl: string }) {
    this.#transport = deps.transport;
    this.baseUrl = deps.baseUrl;
  }

  /**
   * Uploads a JSONL file (`purpose` batch unless said otherwise; a corpus may be `user_data`); returns its id. A file
   * larger than one part goes through the Uploads API in parts of UPLOAD_PART_BYTES (a request body is capped at
   * 6 MB on AWS), each part a slice of the Blob, so a file of any size is never held whole.
   */
  async uploadFile(
    content: Blob | string,
    options: { readonly filename?: string; readonly purpose?: 'batch' | 'user_data'; readonly signal?: AbortSignal } = {},
  ): Promise<string> {
    const blob = typeof content === 'string' ? new Blob([content], { type: 'application/jsonl' }) : content;
    const filename = options.filename ?? 'requests.jsonl';
    const purpose = options.purpose ?? 'batch';
    const signal = options.signal ? { signal: options.signal } : {};
    if (blob.size > UPLOAD_PART_BYTES) return this.#uploadInParts(blob, filename, purpose, signal);
    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', blob, filename);
    const reply = await this.#transport.send({ method: 'POST', url: joinUrl(this.baseUrl, 'files'), body: form, ...signal });
    const id = (reply.body as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string') throw new RerankResponseFormatError('expected a file object with an id from POST /v1/files', reply.body);
    return id;
  }

  async #uploadInParts(blob: Blob, filename: string, purpose: string, signal: { signal?: AbortSignal }): Promise<string> {
    const created = await this.#transport.send({
      method: 'POST',
      url: joinUrl(this.baseUrl, 'uploads'),
      body: { filename, purpose, bytes: blob.size, mime_type: blob.type || 'application/jsonl' },
      ...signal,
    });
    const uploadId = (created.body as { id?: unknown } | undefined)?.id;
    if (typeof uploadId !== 'string')
      throw new RerankResponseFormatError('expected an upload object with an id from POST /v1/uploads', created.body);
    const partIds: string[] = [];
    try {
      for (let start = 0; start < blob.size; start += UPLOAD_PART_BYTES) {
        const form = new FormData();
        form.append('data', blob.slice(start, start + UPLOAD_PART_BYTES), 'part');
        const part = await this.#transport.send({
          method: 'POST',
          url: joinUrl(this.baseUrl, `uploads/${encodeURIComponent(uploadId)}/parts`),
          body: form,
          ...signal,
        });
        const partId = (part.body as { id?: unknown } | undefined)?.id;
        if (typeof partId !== 'string') throw new RerankResponseFormatError('expected an upload part with an id', part.body);
        partIds.push(partId);
      }
      const done = await this.#transport.send({
        method: 'POST',
        url: joinUrl(this.baseUrl, `uploads/${encodeURIComponent(uploadId)}/complete`),
        body: { part_ids: partIds },
        ...signal,
      });
      const fileId = (done.body as { file?: { id?: unknown } } | undefined)?.file?.id;
      if (typeof fileId !== 'string') throw new RerankResponseFormatError('expected a completed upload with its file', done.body);
      return fileId;
    } catch (error) {
      // A failed upload is cancelled so its parts do not count against the key until they expire.
      await this.#transport
        .send({ method: 'POST', url: joinUrl(this.baseUrl, `uploads/${encodeURIComponent(uploadId)}/cancel`) })
        .catch(() => undefined);
      throw error;
    }
  }

  /**
   * Creates a batch from a JSONL file (a Blob or its text) or from request lines, uploading it first.
   * `idempotencyKey` makes a retried create return the first batch.
   */
  async create(
    requests: Blob | string | readonly BatchRequestLine[],
    options: {
      readonly endpoint?: string;
      readonly metadata?: Readonly<Record<string, string>>;
      readonly idempotencyKey?: string;
      readonly signal?: AbortSignal;
    } = {},
  ): Promise<RerankBatch> {
    const endpoint = options.endpoint ?? '/v1/rerank';
    const content = Array.isArray(requests)
      ? (requests as readonly BatchRequestLine[])
          .map((r) => JSON.stringify({ custom_id: r.custom_id, method: 'POST', url: r.url ?? endpoint, body: r.body }))
          .join('\n') + '\n'
      : (requests as Blob | string);
    const inputFileId = await this.uploadFile(content, options.signal ? { signal: options.signal } : {});
    const reply = await this.#transport.send({
      method: 'POST',
      url: joinUrl(this.baseUrl, 'batches'),
      body: { input_file_id: inputFileId, endpoint, completion_window: '24h', ...(options.metadata ? { metadata: options.metadata } : {}) },
      ...(options.idempotencyKey ? { headers: { 'idempotency-key': options.idempotencyKey } } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return this.#batch(reply.body);
  }

  async retrieve(batchId: string, signal?: AbortSignal): Promise<RerankBatch> {
    return this.#batch(
      (
        await this.#transport.send({
          method: 'GET',
          url: joinUrl(this.baseUrl, `batches/${encodeURIComponent(batchId)}`),
          ...(signal ? { signal } : {}),
        })
      ).body,
    );
  }

  async cancel(batchId: string): Promise<RerankBatch> {
    return this.#batch(
      (await this.#transport.send({ method: 'POST', url: joinUrl(this.baseUrl, `batches/${encodeURIComponent(batchId)}/cancel`) })).body,
    );
  }

  /** Polls until the batch is completed, failed, expired or cancelled, with backoff; returns its last state. */
  async wait(batch: RerankBatch | string, options: BatchWaitOptions = {}): Promise<RerankBatch> {
    const id = typeof batch === 'string' ? batch : batch.id;
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    const maxErrors = options.maxPollErrors ?? 5;
    let seen = '';
    let errors = 0;
    for (let attempt = 0; ; attempt++) {
      let current: RerankBatch | undefined;
      try {
        current = await this.retrieve(id, options.signal);
        errors = 0;
      } catch (error) {
        if (!isTransient(error) || ++errors > maxErrors) throw error;
      }
      if (current) {
        const state = `${current.status} ${current.request_counts.completed} ${current.request_counts.failed} ${current.request_counts.total} ${current.progress?.fraction ?? ''} ${current.progress?.corpus_documents_analysed ?? ''}`;
        if (state !== seen) options.onProgress?.(current);
        seen = state;
        if (TERMINAL.includes(current.status)) return current;
      }
      if (Date.now() >= deadline)
        throw new RerankTimeoutError(`batch ${id} did not finish within ${options.timeoutMs} ms`, options.timeoutMs as number);
      await sleep(
        Math.min(pollDelayMs(attempt, { initialDelayMs: 500, maxDelayMs: 10_000, ...options }), Math.max(0, deadline - Date.now())),
        options.signal,
      );
    }
  }

  /** A file's bytes, streamed (an output or error file). */
  async download(fileId: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const reply = await this.#transport.send({
      method: 'GET',
      url: joinUrl(this.baseUrl, `files/${encodeURIComponent(fileId)}/content`),
      stream: true,
      ...(signal ? { signal } : {}),
    });
    if (!reply.stream) throw new RerankResponseFormatError(`GET /v1/files/${fileId}/content had no body`, undefined);
    return reply.stream;
  }

  /** A result file's lines, parsed one at a time. */
  async *lines(fileId: string, signal?: AbortSignal): AsyncGenerator<BatchResultLine> {
    for await (const line of textLines(await this.download(fileId, signal))) yield JSON.parse(line) as BatchResultLine;
  }

  /** Every result of a finished batch, output lines then error lines, as `[custom_id, line]` (order is not the input's). */
  async *results(batch: RerankBatch, signal?: AbortSignal): AsyncGenerator<readonly [string | undefined, BatchResultLine]> {
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (fileId === undefined) continue;
      for await (const line of this.lines(fileId, signal)) yield [line.custom_id, line] as const;
    }
  }

  #batch(body: unknown): RerankBatch {
    if (!isBatch(body)) throw new RerankResponseFormatError('expected a batch object', body);
    return body;
  }
}
