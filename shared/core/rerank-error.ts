import { echoText, MESSAGE_MAX_CHARS } from './echo-text.js';

/**
 * Every failure the service reports has one of these kinds, and its kind alone decides its status (this
 * table; no subclass overrides it). Each dialect maps a kind to its own error envelope; the core never
 * knows about HTTP. Adapters throw typed errors of these kinds instead of plain Errors matched by text.
 */
export type RerankErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'uri_too_long'
  | 'conflict'
  /** Something with the identity asked for (a job of this id) already exists. */
  | 'already_exists'
  | 'unprocessable'
  | 'rate_limited'
  | 'upstream'
  /** Accepted work outlived the wait for it, and goes on: a job to poll. Not a failure of the request. */
  | 'still_running'
  /** Synchronous scoring passed its deadline and was stopped. */
  | 'timed_out'
  /** The model itself failed (a session error, a worker that died): a server fault, told apart from a bug. */
  | 'model_failed'
  | 'internal';

export const STATUS_BY_KIND: Readonly<Record<RerankErrorKind, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  conflict: 409,
  already_exists: 409,
  unprocessable: 422,
  rate_limited: 429,
  upstream: 502,
  still_running: 504,
  timed_out: 504,
  model_failed: 500,
  internal: 500,
};

export interface RerankErrorOptions {
  /** The request field at fault, in the dialect's own spelling (`documents`, `input.query`, `top_n`...). */
  readonly param?: string;
  readonly cause?: unknown;
  /** Response headers the failure carries with it (middy's way): `retry-after`, `location`, `allow`... */
  readonly headers?: Readonly<Record<string, string>>;
}

export class RerankError extends Error {
  readonly kind: RerankErrorKind;
  readonly param: string | undefined;
  /** Sent with whatever envelope the dialect wraps the error in; the HTTP layer adds them as given. */
  readonly headers: Readonly<Record<string, string>>;

  /**
   * Every failure a client can see is built here, so here its texts are bounded: the message and the param (which can
   * name a caller's object key) each cut (echo-text.ts), whatever they quote.
   */
  constructor(kind: RerankErrorKind, message: string, options: RerankErrorOptions = {}) {
    super(echoText(message, MESSAGE_MAX_CHARS), { cause: options.cause });
    this.name = 'RerankError';
    this.kind = kind;
    this.param = options.param === undefined ? undefined : echoText(options.param);
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }

  /**
   * Only `internal` messages may carry internals (a bug's text); clients see a generic text for them. Every other
   * kind's message is written for the client, 5xx included (a model failure names the model, never its error).
   */
  get publicMessage(): string {
    return this.kind === 'internal' ? 'Internal server error' : this.message;
  }
}

export const invalidRequest = (message: string, param?: string): RerankError => new RerankError('invalid_request', message, { param });

/** Any thrown value becomes a RerankError; unknown failures are internal and never expose their text. */
export function toRerankError(error: unknown): RerankError {
  if (error instanceof RerankError) return error;
  return new RerankError('internal', error instanceof Error ? error.message : String(error), { cause: error });
}
