import { RerankError } from '../../../shared/core/rerank-error.js';
import { validateRerankRequest } from '../../../shared/core/validate-request.js';
import type { Dialect } from '../../../shared/dialects/dialect.js';
import { validateRequestBody } from '../../../shared/dialects/request-body-validator.js';
import { LIMITS } from '../dialects/dialect-test-helpers.js';

/** Helpers for comparing a dialect's request schema with its reader (parse + the shared rules), as ApiApp runs them. */

/** The schema's verdict: undefined when it accepts, the 400 it throws otherwise (anything else is a bug and rethrown). */
export function schemaError(dialect: Dialect, body: unknown): RerankError | undefined {
  try {
    validateRequestBody(dialect.requestSchema, body);
    return undefined;
  } catch (error) {
    if (error instanceof RerankError && error.kind === 'invalid_request') return error;
    throw error;
  }
}

/** The reader's verdict: undefined when it accepts, its 4xx otherwise (a 5xx is a bug and rethrown). */
export function readerError(dialect: Dialect, body: unknown): RerankError | undefined {
  try {
    const request = dialect.parse(body);
    validateRerankRequest(request, dialect.paramNames(request), LIMITS, { allowEmptyDocuments: dialect.acceptsEmptyDocuments === true });
    return undefined;
  } catch (error) {
    if (error instanceof RerankError && error.status < 500) return error;
    throw error;
  }
}
