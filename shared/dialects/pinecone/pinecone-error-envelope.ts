import type { RerankError, RerankErrorKind } from '../../core/rerank-error.js';
import type { DialectResponse } from '../dialect.js';
import { GRPC_STATUS_CODE } from '../grpc-status-codes.js';

/** Pinecone's error codes (its ErrorResponse `error.code`): gRPC's names, where Pinecone answers its own for two kinds. */
const PINECONE_CODE: Readonly<Record<RerankErrorKind, string>> = {
  ...GRPC_STATUS_CODE,
  payload_too_large: 'OUT_OF_RANGE',
  unprocessable: 'UNPROCESSABLE_ENTITY',
};

/** `{status, error: {code, message}}` with the service's own status. */
export function formatPineconeError(error: RerankError): DialectResponse {
  return { status: error.status, body: { status: error.status, error: { code: PINECONE_CODE[error.kind], message: error.publicMessage } } };
}
