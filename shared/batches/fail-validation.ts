import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';
import { updateBatch } from './update-batch.js';

/** A batch still `validating` fails as a whole (its input is gone, or too long), naming why and, if one, the line. */
export async function failValidation(
  deps: BatchEngineDeps,
  batch: BatchRecord,
  code: string,
  message: string,
  line?: number,
): Promise<void> {
  const now = nowSeconds(deps);
  await updateBatch(deps, batch.id, ['validating'], {
    status: 'failed',
    failedAt: now,
    planned: true,
    errors: [{ code, message, ...(line === undefined ? {} : { line }) }],
  });
  logger.warn('batch failed validation', { batchId: batch.id, code });
}
