import { RerankError } from '../../core/rerank-error.js';

/** A known path asked with a method it does not serve: 405 with an `Allow` header listing the ones it does. */
export class MethodNotAllowedError extends RerankError {
  constructor(
    method: string,
    path: string,
    readonly allowed: readonly string[],
  ) {
    super('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
      headers: { allow: allowed.join(', ') },
    });
    this.name = 'MethodNotAllowedError';
  }
}
