import { RerankError, invalidRequest } from './rerank-error.js';
import type { RerankRequest } from './rerank-request.js';

/** Parameter names as the dialect spells them, so a 400 names the field the client actually sent. */
export interface RequestParamNames {
  readonly query: string;
  readonly documents: string;
  /** Absent for dialects that read no batch size (their requests carry none). */
  readonly batchSize?: string;
  /** The instruction's wire name (chat `prompt`, DashScope `parameters.instruct`); absent where none is read. */
  readonly prompt?: string;
  /**
   * The fields admission may refuse a request for (a job cannot carry them, their bounds); absent where the dialect
   * reads none. The core names the domain field and reports the dialect's spelling of it (see paramOf).
   */
  readonly model?: string;
  readonly strategy?: string;
  readonly upstream?: string;
  readonly boost?: string;
  readonly maxChunksPerDoc?: string;
  readonly maxTokensPerDocument?: string;
  /** Contextual AI's per-document `metadata` list; absent where the dialect reads none. */
  readonly metadata?: string;
  /** The other request controls' spellings (docs/api.md's control table is read off them); absent where none is read. */
  readonly maxTokensPerQuery?: string;
  readonly truncationSide?: string;
  readonly latency?: string;
  readonly priority?: string;
}

/** The field's name as the dialect spells it; the domain name where the dialect reads no such field (set in code). */
export const paramOf = (names: RequestParamNames | undefined, field: Exclude<keyof RequestParamNames, 'query' | 'documents'>): string =>
  names?.[field] ?? field;

export interface RequestLimits {
  readonly maxDocuments: number;
  readonly maxBatchSize: number;
  /** Longer queries/documents are rejected with 413, or cut to the limit when the request asks to `truncate`. */
  readonly maxQueryChars?: number;
  readonly maxDocumentChars?: number;
  /**
   * The LLM instruction (RERANK_MAX_INSTRUCTION_CHARS): it is read with every document by an instructed scorer, so an
   * unbounded one multiplied the request's cost. Never truncated: a cut instruction would change what is asked.
   */
  readonly maxInstructionChars?: number;
}

/** Applies the character limits: the same request when nothing is too long, a truncated copy when allowed. */
function applyLengthLimits(request: RerankRequest, names: RequestParamNames, limits: RequestLimits): RerankRequest {
  const maxQuery = limits.maxQueryChars ?? Infinity;
  const maxDocument = limits.maxDocumentChars ?? Infinity;
  const tooLongQuery = request.query.length > maxQuery;
  const tooLongDocument = request.documents.findIndex((d) => d.text.length > maxDocument);
  // Metadata is bounded as a document is: it is read with its document by every pair the model scores.
  const tooLongMetadata = request.documents.findIndex((d) => (d.metadata?.length ?? 0) > maxDocument);
  if (!tooLongQuery && tooLongDocument < 0 && tooLongMetadata < 0) return request;
  if (!request.truncate) {
    const [param, limit] = tooLongQuery
      ? [names.query, maxQuery]
      : tooLongDocument >= 0
        ? [`${names.documents}[${tooLongDocument}]`, maxDocument]
        : [`${paramOf(names, 'metadata')}[${tooLongMetadata}]`, maxDocument];
    throw new RerankError('payload_too_large', `${param} is longer than ${limit} characters; shorten it or send truncate: true`, { param });
  }
  // The request's truncation side decides which end is kept (TEI `truncation_direction: Left` keeps the end).
  const keep = (text: string, max: number): string =>
    text.length <= max ? text : request.truncationSide === 'left' ? text.slice(text.length - max) : text.slice(0, max);
  const cut = (text: string): string => keep(text, maxDocument);
  return {
    ...request,
    query: keep(request.query, maxQuery),
    documents: request.documents.map((d) =>
      d.text.length > maxDocument || (d.metadata?.length ?? 0) > maxDocument
        ? { ...d, text: cut(d.text), ...(d.metadata === undefined ? {} : { metadata: cut(d.metadata) }) }
        : d,
    ),
  };
}

/**
 * Rules every dialect shares, checked after the dialect has read its wire fields. Types (and safe integers)
 * were already enforced by the dialect's declared fields; this checks meaning: a query that is not blank,
 * documents to rank, and the configured limits.
 */
export function validateRerankRequest(
  request: RerankRequest,
  names: RequestParamNames,
  limits: RequestLimits,
  options: { readonly allowEmptyDocuments?: boolean } = {},
): RerankRequest {
  if (request.query.trim() === '') throw invalidRequest(`${names.query} must be a non-empty string`, names.query);
  if (request.documents.length === 0 && !options.allowEmptyDocuments)
    throw invalidRequest(`${names.documents} must contain at least one document`, names.documents);
  if (request.documents.length > limits.maxDocuments) {
    throw invalidRequest(
      // The way out: a batch over an uploaded file takes a candidate set of any size.
      `${names.documents} has ${request.documents.length} documents; at most ${limits.maxDocuments} are accepted in one request. ` +
        'For more, upload them as a file and submit a batch (POST /v1/files, then POST /v1/batches; docs/api.md, "Batches")',
      names.documents,
    );
  }
  const maxInstruction = limits.maxInstructionChars ?? Infinity;
  if (request.prompt !== undefined && request.prompt.length > maxInstruction) {
    const param = paramOf(names, 'prompt');
    throw new RerankError(
      'payload_too_large',
      `${param} is ${request.prompt.length} characters; the limit is ${maxInstruction}: shorten it`,
      {
        param,
      },
    );
  }
  if (request.batchSize !== undefined && (request.batchSize < 1 || request.batchSize > limits.maxBatchSize)) {
    // Only a dialect that reads a batch size can produce one; otherwise it was set in code and has the domain name.
    const param = paramOf(names, 'batchSize');
    throw invalidRequest(`${param} must be between 1 and ${limits.maxBatchSize}`, param);
  }
  return applyLengthLimits(request, names, limits);
}
