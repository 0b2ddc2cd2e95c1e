import { createFilesService } from '../../runtime/files-service-runtime.js';
import type { ServiceRuntime } from '../../runtime/service-runtime.js';
import { FilesApi } from './files-api.js';

/** `/v1/files` and `/v1/uploads` over this process's FileStore; absent where it has none (those routes answer 404). */
export function createFilesApi(runtime: ServiceRuntime): FilesApi | undefined {
  const service = createFilesService(runtime);
  // Where the backend can hand out a download URL (S3), a download is a redirect to it.
  return service && new FilesApi(service, runtime.batches?.downloadUrl);
}
