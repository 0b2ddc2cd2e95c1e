import { InMemoryQuotaLedger } from '../adapters/memory/in-memory-quota-ledger.js';
import { DEFAULT_FILE_LIMITS, type FileLimits } from '../files/file-limits.js';
import { FilesService } from '../files/files-service.js';
import type { ServiceRuntime } from './service-runtime.js';

/** The file bounds this deployment is configured with (RERANK_FILE_MAX_BYTES, RERANK_FILES_*, RERANK_FILE_RETENTION_DAYS). */
export function fileLimitsOf(runtime: Pick<ServiceRuntime, 'config'>): FileLimits {
  const { files } = runtime.config;
  return {
    ...DEFAULT_FILE_LIMITS,
    maxFileBytes: files.maxFileBytes,
    maxFilesPerKey: files.maxFilesPerKey,
    maxStoredBytesPerKey: files.maxStoredBytesPerKey,
    retentionSeconds: files.retentionSeconds,
  };
}

/**
 * The Files and Uploads service over this process's FileStore; absent where it has none. Its quotas are reserved
 * on the backend's ledger; a runtime without one (a test's) gets a ledger of its own in memory.
 */
export function createFilesService(runtime: Pick<ServiceRuntime, 'config' | 'files' | 'uploads' | 'batches'>): FilesService | undefined {
  const { files, uploads } = runtime;
  if (!files) return undefined;
  const quota = runtime.batches?.quota ?? new InMemoryQuotaLedger();
  return new FilesService(files, fileLimitsOf(runtime), { quota, ...(uploads ? { uploads } : {}) });
}
