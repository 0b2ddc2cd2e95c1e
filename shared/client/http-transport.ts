import { RerankApiError, RerankClientError, RerankNetworkError, RerankTimeoutError } from './rerank-client-errors.js';
import { readErrorEnvelope } from './read-error-envelope.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  readonly apiKey?: string;
  readonly timeoutMs: number;
  readonly fetch: FetchLike;
}

export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  /** Decoded JSON, or the raw text when the body is not JSON. */
  readonly body: unknown;
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
    const { timeoutMs, apiKey, fetch } = this.#options;
    call.signal?.throwIfAborted();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new RerankTimeoutError(`${call.method} ${call.url} timed out after ${timeoutMs} ms`, timeoutMs)), timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout.signal]) : timeout.signal;
    try {
      const response = await fetch(call.url, {
        method: call.method,
        headers: {
          accept: 'application/json',
          ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          ...call.headers,
        },
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal,
      });
      const body = decode(await response.text());
      if (!response.ok) throw apiError(response, body);
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (error instanceof RerankClientError) throw error;
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.signal.aborted) throw timeout.signal.reason;
      throw new RerankNetworkError(`${call.method} ${call.url} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
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
