/**
 * Every failure the service reports has one of these kinds. Each dialect maps a kind to its own
 * HTTP status and error envelope; the core never knows about HTTP.
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
  | 'unprocessable'
  | 'rate_limited'
  | 'upstream'
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
  unprocessable: 422,
  rate_limited: 429,
  upstream: 502,
  internal: 500,
};

export interface RerankErrorOptions {
  /** The request field at fault, in the dialect's own spelling (`documents`, `input.query`, `top_n`...). */
  readonly param?: string;
  readonly cause?: unknown;
}

export class RerankError extends Error {
  readonly kind: RerankErrorKind;
  readonly param: string | undefined;

  constructor(kind: RerankErrorKind, message: string, options: RerankErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'RerankError';
    this.kind = kind;
    this.param = options.param;
  }

  get status(): number {
    return STATUS_BY_KIND[this.kind];
  }

  /** Messages of 5xx errors may carry internals; clients only ever see a generic text for them. */
  get publicMessage(): string {
    return this.status >= 500 && this.kind !== 'upstream' ? 'Internal server error' : this.message;
  }
}

export const invalidRequest = (message: string, param?: string): RerankError =>
  new RerankError('invalid_request', message, { param });

/** Any thrown value becomes a RerankError; unknown failures are internal and never expose their text. */
export function toRerankError(error: unknown): RerankError {
  if (error instanceof RerankError) return error;
  return new RerankError('internal', error instanceof Error ? error.message : String(error), { cause: error });
}
