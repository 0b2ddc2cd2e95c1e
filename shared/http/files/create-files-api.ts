import { S3FileStore } from '../../adapters/s3/s3-file-store.js';
import { DEFAULT_FILE_LIMITS, type FileLimits } from '../../files/file-limits.js';
import { FilesService } from '../../files/files-service.js';
import type { ServiceRuntime } from '../../runtime/service-runtime.js';
import { FilesApi } from './files-api.js';

/** The file bounds this deployment is configured with (RERANK_FILE_MAX_BYTES, RERANK_FILES_*, RERANK_FILE_RETENTION_DAYS). */
export function fileLimitsOf(runtime: ServiceRuntime): FileLimits {
  const { files } = runtime.config;
  return {
    ...DEFAULT_FILE_LIMITS,
    maxFileBytes: files.maxFileBytes,
    maxFilesPerKey: files.maxFilesPerKey,
    maxStoredBytesPerKey: files.maxStoredBytesPerKey,
    retentionSeconds: files.retentionSeconds,
  };
}

/** `/v1/files` and `/v1/uploads` over this process's FileStore; absent where it has none (those routes answer 404). */
export function createFilesApi(runtime: ServiceRuntime): FilesApi | undefined {
  const { files, uploads } = runtime;
  if (!files) return undefined;
  const service = new FilesService(files, fileLimitsOf(runtime), uploads ? { uploads } : {});
  // On S3 a download is a redirect to the object itself, so it is not squeezed through a 6 MB Lambda answer.
  const downloadUrl = files instanceof S3FileStore ? (id: string, seconds: number) => files.presignedReadUrl(id, seconds) : undefined;
  return new FilesApi(service, downloadUrl);
}
