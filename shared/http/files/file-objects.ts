import type { FileRecord, ListedFile } from '../../files/file-store.js';
import type { UploadPart, UploadRecord } from '../../files/upload-store.js';

/** OpenAI's File object (`status` is deprecated there but still required by its schema: always `processed` here). */
export const fileObject = (file: ListedFile) => ({
  id: file.id,
  object: 'file' as const,
  bytes: file.bytes,
  created_at: file.createdAt,
  ...(file.expiresAt === undefined ? {} : { expires_at: file.expiresAt }),
  filename: file.filename,
  purpose: file.purpose,
  status: 'processed' as const,
  status_details: null,
});

/** OpenAI's Upload object; `file` is the assembled file once completed, else null. */
export const uploadObject = (upload: UploadRecord, file?: FileRecord) => ({
  id: upload.id,
  object: 'upload' as const,
  bytes: upload.bytes,
  created_at: upload.createdAt,
  expires_at: upload.expiresAt,
  filename: upload.filename,
  purpose: upload.purpose,
  status: upload.status,
  file: file === undefined ? null : fileObject(file),
});

export const uploadPartObject = (uploadId: string, part: UploadPart) => ({
  id: part.id,
  object: 'upload.part' as const,
  created_at: part.createdAt,
  upload_id: uploadId,
});
