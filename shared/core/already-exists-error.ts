import { RerankError } from './rerank-error.js';

/**
 * A create whose id is taken - an Idempotency-Key retry racing the first create, or a key whose job expired but
 * is not yet dropped. Every store throws this (DynamoDB's conditional-check failure converted, as Powertools'
 * idempotency converts it into its own error class), so callers match a type, never a message.
 */
export class AlreadyExistsError extends RerankError {
  constructor(
    readonly resource: 'job' | 'batch',
    readonly id: string,
    cause?: unknown,
  ) {
    super('already_exists', `${resource} ${id} already exists`, { cause });
    this.name = 'AlreadyExistsError';
  }
}
