/**
 * Object keys of the S3 FileStore. A file's bytes live at `files/<id>`; two empty index objects per owner
 * list a key's files newest first and oldest first, since S3 lists only in ascending key order.
 */
const TIME_DIGITS = 12;
/** Seconds are inverted against this for the newest-first index (far beyond any epoch second we will see). */
const TIME_CEILING = 10 ** TIME_DIGITS - 1;

export type ListOrder = 'asc' | 'desc';

export const contentKey = (fileId: string): string => `files/${fileId}`;

/** Owner ids are hex digests here, but encoding keeps any id from adding a `/` level. */
export const ownerIndexPrefix = (ownerKeyId: string, order: ListOrder): string =>
  `owners/${encodeURIComponent(ownerKeyId)}/${order}/`;

export function ownerIndexKey(ownerKeyId: string, order: ListOrder, createdAt: number, fileId: string): string {
  const time = order === 'asc' ? createdAt : TIME_CEILING - createdAt;
  return `${ownerIndexPrefix(ownerKeyId, order)}${String(time).padStart(TIME_DIGITS, '0')}-${fileId}`;
}

/** The file id an index key ends with. */
export const fileIdOfIndexKey = (key: string): string => key.slice(key.lastIndexOf('/') + TIME_DIGITS + 2);

/**
 * One more empty object per file whose key carries its size and expiry, so a key's usage (the per-key quotas) is
 * a listing of its own prefix - a call per 1,000 files - with no HEAD per file and no database beside the bucket.
 */
export const usagePrefix = (ownerKeyId: string): string => `usage/${encodeURIComponent(ownerKeyId)}/`;

export const usageKey = (ownerKeyId: string, fileId: string, bytes: number, expiresAt: number | undefined): string =>
  `${usagePrefix(ownerKeyId)}${fileId}.${bytes}.${expiresAt ?? 0}`;

/** Size and expiry (0 = none) a usage key records; undefined for a key of another shape. */
export function parseUsageKey(key: string): { readonly bytes: number; readonly expiresAt: number } | undefined {
  const match = /\.(\d+)\.(\d+)$/.exec(key);
  return match ? { bytes: Number(match[1]), expiresAt: Number(match[2]) } : undefined;
}
