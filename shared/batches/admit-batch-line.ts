import { echoText } from '../core/echo-text.js';
import { RerankError } from '../core/rerank-error.js';
import type { Dialect } from '../dialects/dialect.js';
import type { AdmittedRequest, BatchAdmission } from './batch-admission.js';
import { BadInputLineError, parseBatchInputLine } from './batch-input-line.js';
import { extractCorpusReference } from './corpus-reference.js';

export interface AdmittedLine extends AdmittedRequest {
  readonly customId: string;
  /** Set when the body named `documents_file_id`: the request's documents are a placeholder until read from it. */
  readonly corpusFileId?: string;
}

/** The route refused the line's body: the error its dialect would have answered. */
export class RefusedLineError extends Error {
  constructor(
    readonly customId: string,
    readonly dialect: Dialect,
    readonly refusal: RerankError,
  ) {
    super(refusal.message);
    this.name = 'RefusedLineError';
  }
}

/**
 * One input line through the route's own admission (the planner at create time, each worker again when it
 * reads the line back by its byte range: the line, not a copy of its query, travels with the work).
 */
export function admitBatchLine(bytes: Buffer, endpoint: string, admission: BatchAdmission): AdmittedLine {
  const input = parseBatchInputLine(bytes, endpoint);
  const dialect = admission.dialectOf(input.url);
  if (!dialect)
    throw new BadInputLineError('invalid_url', `url "${echoText(input.url)}" is not a rerank route of this service`, input.customId);
  try {
    const corpus = extractCorpusReference(dialect, input.body);
    const admitted = admission.admit(input.url, corpus?.body ?? input.body);
    return { ...admitted, customId: input.customId, ...(corpus ? { corpusFileId: corpus.fileId } : {}) };
  } catch (error) {
    if (error instanceof RerankError) throw new RefusedLineError(input.customId, dialect, error);
    throw error;
  }
}
