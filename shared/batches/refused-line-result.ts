import { RerankError } from '../core/rerank-error.js';
import { RefusedLineError } from './admit-batch-line.js';
import { BadInputLineError } from './batch-input-line.js';
import { failedLine } from './batch-output-lines.js';

/** The error-file line for a line that is not a request, or that its route refused (with the route's error reply). */
export function refusedLineResult(line: number, error: unknown) {
  if (error instanceof BadInputLineError) return failedLine(line, error.customId, { code: error.code, message: error.message });
  if (error instanceof RefusedLineError) {
    const requestId = `batch-line-${line}`;
    const reply = error.dialect.formatError(error.refusal, { requestId, now: Math.floor(Date.now() / 1000) });
    return failedLine(
      line,
      error.customId,
      { code: error.refusal.kind, message: error.refusal.publicMessage },
      { statusCode: reply.status, requestId, body: reply.body },
    );
  }
  // Anything else the line caused (never a bug: those throw and the task is retried) fails that line alone.
  if (error instanceof RerankError) return failedLine(line, undefined, { code: error.kind, message: error.publicMessage });
  throw error;
}
