import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { FileTooLargeError } from '../../files/file-errors.js';
import type { FileRecord, FileWriter } from '../../files/file-store.js';

/** S3's smallest part but the last; parts of this size keep a writer's memory at one part whatever the file's size. */
export const MIN_S3_PART_BYTES = 5 * 1024 * 1024;

export interface S3WriteTarget {
  /** The file's id (FileWriter.id); the object's key is derived from it. */
  readonly id: string;
  readonly client: S3Client;
  readonly bucket: string;
  readonly key: string;
  readonly metadata: Record<string, string>;
  readonly maxBytes: number;
  readonly partBytes: number;
}

/**
 * Streams a file into S3 holding at most one part in memory: a file smaller than one part is a single PutObject,
 * a larger one a multipart upload whose parts go up as they fill. `onClose` makes the file visible (index objects).
 */
export class S3MultipartWriter implements FileWriter {
  readonly id: string;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #totalBytes = 0;
  #uploadId: string | undefined;
  readonly #parts: CompletedPart[] = [];
  readonly #target: S3WriteTarget;
  readonly #onClose: (bytes: number, version: string) => Promise<FileRecord>;

  constructor(target: S3WriteTarget, onClose: (bytes: number, version: string) => Promise<FileRecord>) {
    this.id = target.id;
    this.#target = target;
    this.#onClose = onClose;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#totalBytes + chunk.byteLength > this.#target.maxBytes) {
      await this.abort();
      throw new FileTooLargeError(this.#target.maxBytes);
    }
    this.#totalBytes += chunk.byteLength;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= this.#target.partBytes) await this.#uploadPart();
  }

  async close(): Promise<FileRecord> {
    const { client, bucket, key, metadata } = this.#target;
    let etag: string | undefined;
    if (this.#uploadId === undefined) {
      const put = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: this.#takePending(), Metadata: metadata }));
      etag = put.VersionId ?? put.ETag;
    } else {
      if (this.#pendingBytes > 0) await this.#uploadPart();
      const done = await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: this.#uploadId, MultipartUpload: { Parts: this.#parts } }),
      );
      etag = done.VersionId ?? done.ETag;
    }
    return this.#onClose(this.#totalBytes, (etag ?? '').replaceAll('"', ''));
  }

  async abort(): Promise<void> {
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#uploadId === undefined) return;
    const uploadId = this.#uploadId;
    this.#uploadId = undefined;
    await this.#target.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.#target.bucket, Key: this.#target.key, UploadId: uploadId }),
    );
  }

  async #uploadPart(): Promise<void> {
    const { client, bucket, key, metadata } = this.#target;
    if (this.#uploadId === undefined) {
      const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, Metadata: metadata }));
      this.#uploadId = created.UploadId;
    }
    const partNumber = this.#parts.length + 1;
    const part = await client.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: this.#uploadId, PartNumber: partNumber, Body: this.#takePending() }),
    );
    this.#parts.push({ ETag: part.ETag, PartNumber: partNumber });
  }

  #takePending(): Buffer {
    const body = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    return body;
  }
}
