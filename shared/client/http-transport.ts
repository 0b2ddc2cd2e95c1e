import { RerankApiError, RerankClientError, RerankNetworkError, RerankTimeoutError } from './rerank-client-errors.js';
import { readCappedBody } from './read-capped-body.js';
import { readErrorEnvelope } from './read-error-envelope.js';
import { redactUrl } from './redact-url.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  readonly apiKey?: string;
  readonly timeoutMs: number;
  readonly fetch: FetchLike;
  /**
   * Follow 3xx replies (the default, as browsers and fetch do). A service calling a URL a caller chose
   * sets false: each hop would need its own allow-list check, so a 3xx is an error instead.
   */
  readonly followRedirects?: boolean;
  /** Reply bodies larger than this are cut off with RerankResponseTooLargeError. Default 64 MiB. */
  readonly maxResponseBytes?: number;
}

/** Large enough for any rerank reply a client asks for, small enough that a runaway server cannot exhaust memory. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  /** JSON-encoded, except a FormData (file uploads), which is sent as multipart. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /**
   * A 2xx body is handed back unread as `stream` (file downloads: no size cap; the time limit covers the exchange
   * up to the headers, and the caller's `signal` the rest).
   */
  readonly stream?: boolean;
}

export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  /** Decoded JSON, or the raw text when the body is not JSON. */
  readonly body: unknown;
  /** The unread body, when the call asked for `stream`. */
  readonly stream?: ReadableStream<Uint8Array>;
}

function decode(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * One HTTP exchange with the time limit covering the whole body, and failures turned into typed
 * errors: non-2xx -> RerankApiError with the server's message, time limit -> RerankTimeoutError,
 * connection trouble -> RerankNetworkError. A caller's abort rejects with the signal's reason.
 */
export class HttpTransport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  async send(call: HttpCall): Promise<HttpReply> {
    const { timeoutMs, apiKey, fetch, followRedirects = true, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES } = this.#options;
    call.signal?.throwIfAborted();
    // Messages never quote user info or the query string: either can hold a credential.
    const where = `${call.method} ${redactUrl(call.url)}`;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new RerankTimeoutError(`${where} timed out after ${timeoutMs} ms`, timeoutMs)), timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout.signal]) : timeout.signal;
    try {
      const form = call.body instanceof FormData;
      const response = await fetch(call.url, {
        method: call.method,
        headers: {
          accept: 'application/json',
          // fetch sets multipart's content-type itself (with its boundary).
          ...(call.body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          ...call.headers,
        },
        ...(call.body !== undefined ? { body: form ? (call.body as FormData) : JSON.stringify(call.body) } : {}),
        redirect: followRedirects ? 'follow' : 'manual',
        signal,
      });
      if (call.stream && response.ok)
        return { status: response.status, headers: response.headers, body: undefined, stream: response.body ?? undefined };
      if (!followRedirects && response.status >= 300 && response.status < 400) {
        // The redirect's body and target are the other side's words: neither is read nor quoted.
        await response.body?.cancel().catch(() => undefined);
        throw new RerankApiError(`${where} answered a redirect (HTTP ${response.status}); redirects are not followed`, {
          status: response.status,
        });
      }
      const body = decode(await readCappedBody(response, maxResponseBytes, where));
      if (!response.ok) throw apiError(response, body);
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (error instanceof RerankClientError) throw error;
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.signal.aborted) throw timeout.signal.reason;
      throw new RerankNetworkError(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

function apiError(response: Response, body: unknown): RerankApiError {
  const envelope = readErrorEnvelope(body);
  const headerId = response.headers.get('x-request-id') ?? undefined;
  const fallback =
    typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 500) : `HTTP ${response.status} ${response.statusText}`.trim();
  const requestId = envelope?.details.requestId ?? headerId;
  const location = response.headers.get('location') ?? undefined;
  return new RerankApiError(envelope?.message ?? fallback, {
    ...envelope?.details,
    status: response.status,
    ...(requestId ? { requestId } : {}),
    ...(location ? { location } : {}),
    body,
  });
}
