/** Base of every error the rerank client throws; `instanceof RerankClientError` catches them all. */
export class RerankClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankClientError';
  }
}

export interface RerankApiErrorDetails {
  readonly status: number;
  /** OpenAI `error.code` or DashScope `code` (`invalid_api_key`, `InvalidParameter`, ...). */
  readonly code?: string;
  /** OpenAI `error.type` (`invalid_request_error`, ...). */
  readonly type?: string;
  /** The request field at fault, in the dialect's spelling. */
  readonly param?: string;
  /** DashScope `request_id` or the `x-request-id` header. */
  readonly requestId?: string;
  /** The decoded error body (or its text when it was not JSON). */
  readonly body?: unknown;
  /** The `Location` header: a 504 from a dialect endpoint names the still-running job's poll URL there. */
  readonly location?: string;
}

/** The server answered with an error: its own message, from whichever dialect's envelope it used. */
export class RerankApiError extends RerankClientError {
  readonly status: number;
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly location: string | undefined;

  constructor(message: string, details: RerankApiErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankApiError';
    this.location = details.location;
    this.status = details.status;
    this.code = details.code;
    this.type = details.type;
    this.param = details.param;
    this.requestId = details.requestId;
    this.body = details.body;
  }
}

/** A request (or a job wait) took longer than its time limit. */
export class RerankTimeoutError extends RerankClientError {
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The server could not be reached or the connection broke; `cause` is fetch's error. */
export class RerankNetworkError extends RerankClientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankNetworkError';
  }
}

/** A successful reply that is not a rerank response the client can read (wrong shape, unknown document, bad index). */
export class RerankResponseFormatError extends RerankClientError {
  readonly body: unknown;

  constructor(message: string, body: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankResponseFormatError';
    this.body = body;
  }
}

/** The server's reply body was larger than the client's `maxResponseBytes`; the connection was dropped. */
export class RerankResponseTooLargeError extends RerankClientError {
  readonly maxBytes: number;

  constructor(message: string, maxBytes: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankResponseTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/** An async rerank job ended in `failed`; `reason` is the server's `error.message`. */
export class RerankJobFailedError extends RerankClientError {
  readonly jobId: string;
  readonly reason: string;
  /** The server's `error.code`: `job_cancelled` when the job was cancelled (DELETE) rather than failed. */
  readonly code: string | undefined;

  constructor(jobId: string, reason: string, code?: string) {
    super(`rerank job ${jobId} failed: ${reason}`);
    this.name = 'RerankJobFailedError';
    this.jobId = jobId;
    this.reason = reason;
    this.code = code;
  }
}
