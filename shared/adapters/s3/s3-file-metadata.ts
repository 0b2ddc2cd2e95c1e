import { FILE_PURPOSES, type FilePurpose, type FileRecord } from '../../files/file-store.js';

/** S3 refuses more than 2 KB of user metadata, counted as the UTF-8 bytes of every name and value. */
export const MAX_S3_USER_METADATA_BYTES = 2048;

const metadataBytes = (metadata: Record<string, string>): number =>
  Object.entries(metadata).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value), 0);

/**
 * A FileRecord as S3 user metadata on the content object (HeadObject reads it back in one call).
 * S3 metadata values are ASCII header values: the caller's file name is URI-encoded.
 */
export function toObjectMetadata(record: Omit<FileRecord, 'bytes' | 'version'>): Record<string, string> {
  const metadata = {
    owner: record.ownerKeyId,
    filename: encodeURIComponent(record.filename),
    purpose: record.purpose,
    'created-at': String(record.createdAt),
    ...(record.expiresAt === undefined ? {} : { 'expires-at': String(record.expiresAt) }),
  };
  // The Files API bounds filenames (maxFilenameBytes) well below this; a store used without it fails here, not at S3.
  const bytes = metadataBytes(metadata);
  if (bytes > MAX_S3_USER_METADATA_BYTES)
    throw new RangeError(`S3 user metadata of ${bytes} bytes exceeds S3's ${MAX_S3_USER_METADATA_BYTES}: bound the filename`);
  return metadata;
}

const PURPOSES: ReadonlySet<string> = new Set<FilePurpose>(FILE_PURPOSES);

/** Undefined when the object is not one this store wrote (missing or foreign metadata). */
export function fromObjectMetadata(
  id: string,
  metadata: Record<string, string> | undefined,
  bytes: number,
  version: string,
): FileRecord | undefined {
  const owner = metadata?.['owner'];
  const purpose = metadata?.['purpose'];
  const createdAt = Number(metadata?.['created-at']);
  if (owner === undefined || purpose === undefined || !PURPOSES.has(purpose) || !Number.isFinite(createdAt)) return undefined;
  const expiresAt = metadata?.['expires-at'] === undefined ? undefined : Number(metadata['expires-at']);
  return {
    id,
    ownerKeyId: owner,
    filename: decodeURIComponent(metadata?.['filename'] ?? ''),
    purpose: purpose as FilePurpose,
    bytes,
    createdAt,
    ...(expiresAt === undefined || !Number.isFinite(expiresAt) ? {} : { expiresAt }),
    version,
  };
}
