import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { deleteKeys } from './s3-delete-keys.js';
import { DERIVED_DUE_PREFIX, derivedPrefix, parseDerivedDueKey } from './s3-file-keys.js';

/** S3's own bound on both a listing page and a DeleteObjects call. */
const PAGE_KEYS = 1000;

interface Bucket {
  readonly client: S3Client;
  readonly bucket: string;
}

/** Removes every object derived from a file, one listed page (at most 1,000 keys) per DeleteObjects; a rerun is harmless. */
export async function deleteDerivedObjects({ client, bucket }: Bucket, fileId: string): Promise<number> {
  let deleted = 0;
  let token: string | undefined;
  do {
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: derivedPrefix(fileId), ContinuationToken: token, MaxKeys: PAGE_KEYS }),
    );
    const keys = (listed.Contents ?? []).map((entry) => entry.Key ?? '').filter((key) => key !== '');
    await deleteKeys(client, bucket, keys);
    deleted += keys.length;
    token = listed.IsTruncated === true ? listed.NextContinuationToken : undefined;
  } while (token !== undefined);
  return deleted;
}

/**
 * One run of the derived-object expiry: reads the first page of due keys (oldest first) up to `now`; for each whose file
 * is gone (expired or deleted) removes the file's derived objects, then the due keys themselves. A due key whose file
 * is still readable is stale (a delete that failed before the file went): it is dropped, since every write of a derived
 * object also writes the key due at the file's own expiry. At most a page per run, so a run stays short; what is left
 * is the next run's, and a run cut off half way is simply done again. Returns how many due keys it settled.
 */
export async function sweepDueDerived(target: Bucket, now: number, isLive: (fileId: string) => Promise<boolean>): Promise<number> {
  const listed = await target.client.send(
    new ListObjectsV2Command({ Bucket: target.bucket, Prefix: DERIVED_DUE_PREFIX, MaxKeys: PAGE_KEYS }),
  );
  const settled: string[] = [];
  for (const entry of listed.Contents ?? []) {
    const key = entry.Key ?? '';
    if (key === '') continue;
    const due = parseDerivedDueKey(key);
    // Keys sort by time: the first one past now ends the run. A key of another shape is not ours to read: dropped.
    if (due !== undefined && due.dueAt > now) break;
    if (due !== undefined && !(await isLive(due.fileId))) await deleteDerivedObjects(target, due.fileId);
    settled.push(key);
  }
  await deleteKeys(target.client, target.bucket, settled);
  return settled.length;
}
