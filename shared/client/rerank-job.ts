import { RerankResponseFormatError } from './rerank-client-errors.js';
import type { RerankModeName } from './rerank-mode.js';
import type { RerankOptions } from './rerank-result.js';
import { isRerankModeName } from './modes/rerank-modes.js';
import { isReplyObject } from './reply-fields.js';

export type RerankJobStatus = 'running' | 'succeeded' | 'failed';

export interface RerankJobProgress {
  readonly chunksDone: number;
  readonly chunksTotal: number;
}

/** What `submit` remembers so `wait` can shape the result exactly as `rerank` would. */
export interface SubmittedRerankRequest {
  readonly documents: readonly string[];
  readonly options: Pick<RerankOptions, 'topK' | 'includeDocs' | 'threshold' | 'returnRaw'>;
}

/** The server's job view (`object: "rerank.job"`), camel-cased. */
export interface RerankJob {
  readonly id: string;
  readonly status: RerankJobStatus;
  readonly progress: RerankJobProgress;
  /** The dialect the job answers in (its `result` is that dialect's body). */
  readonly mode?: RerankModeName;
  readonly model?: string;
  /** Server-relative poll path as the server reports it. */
  readonly pollUrl?: string;
  readonly createdAt?: number;
  readonly updatedAt?: number;
  readonly expiresAt?: number;
  /** The dialect body, once succeeded: all results, or one page of them (`resultPage`). */
  readonly result?: unknown;
  /** Which slice of the sorted results `result` holds; `nextOffset` is where the next poll starts (absent = last page). */
  readonly resultPage?: { readonly offset: number; readonly limit: number; readonly total: number; readonly nextOffset?: number };
  /** Why the job failed, once failed. */
  readonly error?: string;
  /** The failure's code, when the server gives one: `job_cancelled` for a cancelled job (its status stays `failed`). */
  readonly errorCode?: string;
  /** Set on jobs returned by `submit`. */
  readonly submitted?: SubmittedRerankRequest;
}

const STATUSES: readonly string[] = ['running', 'succeeded', 'failed'];

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const isJobView = (body: unknown): boolean => isReplyObject(body) && body['object'] === 'rerank.job';

export function readJobView(body: unknown): RerankJob {
  if (!isReplyObject(body) || typeof body['id'] !== 'string' || !STATUSES.includes(body['status'] as string)) {
    throw new RerankResponseFormatError('reply is not a rerank job (id, status)', body);
  }
  const progress = isReplyObject(body['progress']) ? body['progress'] : {};
  const error = isReplyObject(body['error']) ? body['error']['message'] : body['error'];
  const errorCode = isReplyObject(body['error']) ? body['error']['code'] : undefined;
  const page = isReplyObject(body['result_page']) ? body['result_page'] : undefined;
  const resultPage =
    page && num(page['offset']) !== undefined && num(page['limit']) !== undefined && num(page['total']) !== undefined
      ? {
          offset: num(page['offset']) as number,
          limit: num(page['limit']) as number,
          total: num(page['total']) as number,
          ...(num(page['next_offset']) === undefined ? {} : { nextOffset: num(page['next_offset']) as number }),
        }
      : undefined;
  const fields = {
    mode: isRerankModeName(body['dialect']) ? body['dialect'] : undefined,
    model: typeof body['model'] === 'string' ? body['model'] : undefined,
    pollUrl: typeof body['poll_url'] === 'string' ? body['poll_url'] : undefined,
    createdAt: num(body['created_at']),
    updatedAt: num(body['updated_at']),
    expiresAt: num(body['expires_at']),
    result: body['result'],
    resultPage,
    error: typeof error === 'string' ? error : undefined,
    errorCode: typeof errorCode === 'string' ? errorCode : undefined,
  };
  return {
    id: body['id'],
    status: body['status'] as RerankJobStatus,
    progress: { chunksDone: num(progress['chunks_done']) ?? 0, chunksTotal: num(progress['chunks_total']) ?? 0 },
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  };
}
