import { FILE_PURPOSES, type FilePurpose, type ListedFile } from '../../files/file-store.js';

/**
 * Object keys of the S3 FileStore. A file's bytes live at `files/<id>`; two empty index objects per owner list a
 * key's files newest first and oldest first (S3 lists only in ascending key order), and a usage object per file
 * counts it against the key's quotas. Every prefix the store writes is in S3_FILE_KEY_PREFIXES: the bucket's IAM
 * grant is built from that list, so a new prefix cannot be written here and forgotten there.
 */
export const S3_FILE_KEY_PREFIXES = ['files/', 'owners/', 'usage/', 'derived/', 'derived-due/'] as const;
const [CONTENT_PREFIX, OWNERS_PREFIX, USAGE_PREFIX, DERIVED_PREFIX] = S3_FILE_KEY_PREFIXES;

const TIME_DIGITS = 12;
/** Seconds are inverted against this for the newest-first index (far beyond any epoch second we will see). */
const TIME_CEILING = 10 ** TIME_DIGITS - 1;
/** Sorts after every character an index key holds past its file id (`.`, digits, letters, `-`, `_`). */
const AFTER_EVERY_SUFFIX = '~';

export type ListOrder = 'asc' | 'desc';

/** What an index key records: everything a listing answers. */
export type IndexedFile = ListedFile;

export const contentKey = (fileId: string): string => `${CONTENT_PREFIX}${fileId}`;

/** Objects derived from a file (a corpus' stored analysis shards): `derived/<id>/<name>`, listed and deleted with it. */
export const derivedPrefix = (fileId: string): string => `${DERIVED_PREFIX}${fileId}/`;
export const derivedKey = (fileId: string, name: string): string => `${derivedPrefix(fileId)}${name}`;

/**
 * When a file's derived objects are due to go: an empty object `derived-due/<epoch second>-<id>`, so the expiry sweep
 * finds what is due with one ascending listing that stops at the first key past now. The bucket's lifecycle rule counts
 * from each object's creation, and a corpus is analysed days after its upload, so it cannot expire them with the file.
 */
export const DERIVED_DUE_PREFIX = S3_FILE_KEY_PREFIXES[4];
export const derivedDueKey = (fileId: string, dueAt: number): string =>
  `${DERIVED_DUE_PREFIX}${String(Math.max(0, Math.floor(dueAt))).padStart(TIME_DIGITS, '0')}-${fileId}`;

/** The time and file a due key names; undefined for a key of another shape. */
export function parseDerivedDueKey(key: string): { readonly dueAt: number; readonly fileId: string } | undefined {
  const match = /^derived-due\/(\d+)-(file-[0-9a-f]{24})$/.exec(key);
  return match ? { dueAt: Number(match[1]), fileId: match[2]! } : undefined;
}

/** Owner ids are hex digests here, but encoding keeps any id from adding a `/` level. */
export const ownerIndexPrefix = (ownerKeyId: string, order: ListOrder): string =>
  `${OWNERS_PREFIX}${encodeURIComponent(ownerKeyId)}/${order}/`;

const timeOf = (order: ListOrder, createdAt: number): string =>
  String(order === 'asc' ? createdAt : TIME_CEILING - createdAt).padStart(TIME_DIGITS, '0');

/**
 * `<prefix><time>-<id>.<purpose>.<bytes>.<expiresAt or 0>.<base64url of the UTF-8 filename>`: the key carries
 * everything a listing answers, so `GET /v1/files` is one ListObjectsV2 per page with no HeadObject per file.
 * Filenames are bounded (MAX_S3_FILENAME_BYTES) so the key stays under S3's 1,024 bytes.
 */
function ownerIndexKey(file: IndexedFile, order: ListOrder): string {
  const name = Buffer.from(file.filename, 'utf8').toString('base64url');
  return `${ownerIndexPrefix(file.ownerKeyId, order)}${timeOf(order, file.createdAt)}-${file.id}.${file.purpose}.${file.bytes}.${file.expiresAt ?? 0}.${name}`;
}

/** The StartAfter that resumes a listing just past this file's entry. */
export const ownerIndexCursor = (ownerKeyId: string, order: ListOrder, createdAt: number, fileId: string): string =>
  `${ownerIndexPrefix(ownerKeyId, order)}${timeOf(order, createdAt)}-${fileId}${AFTER_EVERY_SUFFIX}`;

const PURPOSES: ReadonlySet<string> = new Set<FilePurpose>(FILE_PURPOSES);
const INDEX_ENTRY = /^(\d+)-(file-[0-9a-f]{24})\.([a-z_]+)\.(\d+)\.(\d+)\.([A-Za-z0-9_-]*)$/;

/** The file an index key describes; undefined for a key of another shape. */
export function parseOwnerIndexKey(key: string, ownerKeyId: string, order: ListOrder): IndexedFile | undefined {
  const prefix = ownerIndexPrefix(ownerKeyId, order);
  if (!key.startsWith(prefix)) return undefined;
  const match = INDEX_ENTRY.exec(key.slice(prefix.length));
  if (match === null || !PURPOSES.has(match[3]!)) return undefined;
  const time = Number(match[1]);
  const expiresAt = Number(match[5]);
  return {
    id: match[2]!,
    ownerKeyId,
    filename: Buffer.from(match[6]!, 'base64url').toString('utf8'),
    purpose: match[3] as FilePurpose,
    bytes: Number(match[4]),
    createdAt: order === 'asc' ? time : TIME_CEILING - time,
    ...(expiresAt === 0 ? {} : { expiresAt }),
  };
}

/**
 * One more empty object per file whose key carries its size and expiry, so a key's usage (the per-key quotas) is
 * a listing of its own prefix - a call per 1,000 files - with no HEAD per file and no database beside the bucket.
 */
export const usagePrefix = (ownerKeyId: string): string => `${USAGE_PREFIX}${encodeURIComponent(ownerKeyId)}/`;

const usageKey = (ownerKeyId: string, fileId: string, bytes: number, expiresAt: number | undefined): string =>
  `${usagePrefix(ownerKeyId)}${fileId}.${bytes}.${expiresAt ?? 0}`;

/** Size and expiry (0 = none) a usage key records; undefined for a key of another shape. */
export function parseUsageKey(key: string): { readonly bytes: number; readonly expiresAt: number } | undefined {
  const match = /\.(\d+)\.(\d+)$/.exec(key);
  return match ? { bytes: Number(match[1]), expiresAt: Number(match[2]) } : undefined;
}

/** Every index and usage object a file has: written after its bytes, deleted before them. */
export const markerKeys = (file: IndexedFile): string[] => [
  usageKey(file.ownerKeyId, file.id, file.bytes, file.expiresAt),
  ownerIndexKey(file, 'asc'),
  ownerIndexKey(file, 'desc'),
];
