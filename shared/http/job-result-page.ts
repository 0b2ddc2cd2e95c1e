import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invalidRequest } from '../core/rerank-error.js';
import type { RerankOutcome } from '../core/rerank-outcome.js';

/** Which slice of a job's sorted results a poll asks for (`?offset=&limit=`); absent = from the first, as many as fit. */
export interface ResultPageRequest {
  readonly offset: number;
  readonly limit: number | undefined;
}

/** Said beside a succeeded job's `result`: which slice it holds and where the next one starts (null = none). */
export interface ResultPage {
  readonly offset: number;
  readonly limit: number;
  readonly total: number;
  readonly next_offset: number | null;
}

/** The most results one poll is asked for. */
const MAX_RESULT_PAGE = 10_000;

function nonNegativeInt(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw invalidRequest(`${name} must be an integer from 0 to ${max}`, name);
  return value;
}

export function resultPageRequest(event: APIGatewayProxyEventV2): ResultPageRequest {
  const query = event.queryStringParameters ?? {};
  const limit = nonNegativeInt(query['limit'], 'limit', MAX_RESULT_PAGE);
  if (limit === 0) throw invalidRequest(`limit must be an integer from 1 to ${MAX_RESULT_PAGE}`, 'limit');
  return { offset: nonNegativeInt(query['offset'], 'offset', Number.MAX_SAFE_INTEGER) ?? 0, limit };
}

/**
 * The largest slice from `offset` (at most `limit`) whose poll body fits `fits`: halved until it does, so a job
 * whose results carry large documents is read in several polls instead of answering 413. Results are already sorted,
 * so slices concatenate to the whole list; every slice keeps each result's own index and score.
 */
export function pageOutcome<T>(
  outcome: RerankOutcome,
  request: ResultPageRequest,
  render: (slice: RerankOutcome, page: ResultPage) => T,
  fits: (rendered: T) => boolean,
): T {
  const total = outcome.results.length;
  const offset = Math.min(request.offset, total);
  let size = Math.min(request.limit ?? MAX_RESULT_PAGE, total - offset);
  for (;;) {
    const end = offset + size;
    const page: ResultPage = { offset, limit: size, total, next_offset: end < total ? end : null };
    const rendered = render({ ...outcome, results: outcome.results.slice(offset, end) }, page);
    if (size <= 1 || fits(rendered)) return rendered;
    size = Math.floor(size / 2);
  }
}
