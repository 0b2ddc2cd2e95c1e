import { DeleteObjectsCommand, type S3Client } from '@aws-sdk/client-s3';

/** Keys a quiet DeleteObjects answered with a per-key error (AccessDenied, InternalError, ...). */
export class S3DeleteKeysError extends Error {
  override readonly name = 'S3DeleteKeysError';

  constructor(readonly failures: readonly { readonly key: string; readonly code: string }[]) {
    super(`S3 did not delete ${failures.length} object(s): ${failures.map((f) => `${f.key} (${f.code})`).join(', ')}`);
  }
}

/**
 * Deletes keys in one quiet DeleteObjects (up to 1,000). The call succeeds with HTTP 200 even when keys fail:
 * each failure comes back in `Errors` and is thrown here, so a denied or failed delete never passes as done.
 */
export async function deleteKeys(client: S3Client, bucket: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const result = await client.send(
    new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
  );
  const failures = (result.Errors ?? []).map((error) => ({ key: error.Key ?? '?', code: error.Code ?? 'unknown' }));
  if (failures.length > 0) throw new S3DeleteKeysError(failures);
}
