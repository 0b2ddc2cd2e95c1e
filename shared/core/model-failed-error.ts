import { RerankError } from './rerank-error.js';

/**
 * The model itself failed to score (an ONNX session error, an inference worker that died): still a 500, but
 * its own kind, so the client reads that the model failed (never the model's error text, which stays in the
 * logs as the cause) and metrics count model failures apart from the service's bugs.
 */
export class ModelFailedError extends RerankError {
  constructor(
    readonly modelId: string,
    cause: unknown,
  ) {
    super('model_failed', `the model '${modelId}' failed to score this request; retry, or report it if it persists`, { cause });
    this.name = 'ModelFailedError';
  }
}
