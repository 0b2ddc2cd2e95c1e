import { RerankError } from '../core/rerank-error.js';

/** An Idempotency-Key reused with a different create body: 422, as payment and AI APIs answer it. */
export class IdempotencyKeyReusedError extends RerankError {
  constructor() {
    super('invalid_request', 'this Idempotency-Key was already used for a different batch request; use a new key', { param: 'Idempotency-Key' });
    this.name = 'IdempotencyKeyReusedError';
  }

  override get status(): number {
    return 422;
  }
}
