import type { RerankError } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';
import { GRPC_STATUS_CODE } from '../grpc-status-codes.js';

/** Google's JSON error: `{"error": {"code", "message", "status"}}`; google-gax reads `status`, and prints `message`. */
export function formatGoogleError(error: RerankError): DialectResponse {
  return {
    status: error.status,
    body: { error: { code: error.status, message: error.publicMessage, status: GRPC_STATUS_CODE[error.kind] } },
  };
}
