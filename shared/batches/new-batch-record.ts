import { RerankError, invalidRequest } from '../core/rerank-error.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';
import type { CreateBatchInput } from './create-batch-input.js';

/** Largest input file a batch takes (OpenAI's 200 MB). */
const MAX_INPUT_FILE_BYTES = 200 * 1024 * 1024;

/** The creating key's own bounds, kept on the batch for the planner (absent = the service's). */
export interface OwnBounds {
  readonly maxQueuedPairs?: number | undefined;
}

/** Who creates the batch and under which id; `requestHash` is kept only when an Idempotency-Key names the batch. */
export interface NewBatch {
  readonly id: string;
  readonly ownerKeyId: string;
  readonly input: CreateBatchInput;
  readonly requestHash?: string | undefined;
  readonly owner: OwnBounds;
}

/**
 * A create's checks before anything is held or written (a rerank route, the key's own batch-purpose file, its size),
 * then the `validating` record: its input is read by the planner after create has answered.
 */
export async function newBatchRecord(deps: BatchEngineDeps, created: NewBatch): Promise<BatchRecord> {
  const { id, ownerKeyId, input, requestHash, owner } = created;
  if (!deps.admission.dialectOf(input.endpoint)) {
    throw invalidRequest(
      `endpoint '${input.endpoint}' is not a rerank route of this service (e.g. /v1/rerank, /v2/rerank, /voyage/v1/rerank)`,
      'endpoint',
    );
  }
  const file = await deps.files.get(input.inputFileId);
  if (!file || file.ownerKeyId !== ownerKeyId)
    throw new RerankError('not_found', `no file '${input.inputFileId}'`, { param: 'input_file_id' });
  if (file.purpose !== 'batch')
    throw invalidRequest(`input file '${file.id}' has purpose '${file.purpose}'; upload it with purpose batch`, 'input_file_id');
  if (file.bytes > MAX_INPUT_FILE_BYTES)
    throw invalidRequest(`input file is ${file.bytes} bytes; at most ${MAX_INPUT_FILE_BYTES}`, 'input_file_id');
  const now = nowSeconds(deps);
  return {
    id,
    ownerKeyId,
    inputFileId: file.id,
    inputFileVersion: file.version,
    endpoint: input.endpoint,
    completionWindow: input.completionWindow,
    ...(input.metadata ? { metadata: input.metadata } : {}),
    createdAt: now,
    expiresAt: now + deps.limits.completionWindowSeconds,
    ...(requestHash === undefined ? {} : { requestHash }),
    ...(owner.maxQueuedPairs === undefined ? {} : { maxQueuedPairs: owner.maxQueuedPairs }),
    status: 'validating',
    total: 0,
    planned: false,
  };
}
