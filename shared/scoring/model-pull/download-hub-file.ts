import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { authHeaders, type HubAccess } from './hub-repo-files.js';
import { ChecksumMismatchError, InterruptedDownloadError, ModelPullError } from './model-pull-error.js';
import { DEFAULT_HUB_FILE_HOSTS, redirectAllowed, sameOrigin } from './safe-hub-paths.js';
import { DEFAULT_HUB_MAX_FILE_BYTES } from './hub-repo-files.js';

export interface DownloadProgress {
  readonly file: string;
  readonly receivedBytes: number;
  /** Undefined when neither the listing nor Content-Length gave a size. */
  readonly totalBytes: number | undefined;
}

export interface DownloadedFile {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** How the content was checked against the hub: LFS sha256, git blob sha1, or not at all. */
  readonly verifiedBy: 'sha256' | 'git-sha1' | 'none';
}

export interface DownloadHubFileOptions {
  readonly access: HubAccess;
  readonly repo: string;
  readonly revision: string;
  readonly file: string;
  readonly destination: string;
  /** Size from the repo listing, for progress before headers arrive. */
  readonly expectedSize?: number | undefined;
  /** sha256 from the repo listing (LFS files), checked in addition to the resolve headers. */
  readonly expectedSha256?: string | undefined;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Keep a file the hub gives no checksum for (neither LFS sha256 nor git blob sha1). Default false: it fails. */
  readonly allowUnverified?: boolean;
}

const unquote = (etag: string | null): string | undefined => etag?.replace(/^W\//, '').replace(/"/g, '').toLowerCase() || undefined;

/**
 * The hub's resolve endpoint answers LFS files with a redirect to a CDN; the checksum headers
 * (X-Linked-Etag = sha256, X-Linked-Size) are on that first response, so redirects are followed by hand.
 * Regular git files come straight back with ETag = git blob sha1.
 */
async function openResolved(options: DownloadHubFileOptions, resumeFrom = 0): Promise<{ response: Response; etag: string | undefined }> {
  const doFetch = options.access.fetch ?? fetch;
  const base = options.access.endpoint.replace(/\/+$/, '');
  let url = `${base}/${options.repo}/resolve/${encodeURIComponent(options.revision)}/${options.file.split('/').map(encodeURIComponent).join('/')}`;
  let etag: string | undefined;
  for (let hop = 0; hop < 5; hop++) {
    // The token goes to the hub's exact origin only: never to the CDN a redirect points at, nor over http.
    const range: Record<string, string> = resumeFrom > 0 ? { range: `bytes=${resumeFrom}-` } : {};
    const response = await doFetch(url, {
      headers: { ...(sameOrigin(url, base) ? authHeaders(options.access) : {}), ...range },
      redirect: 'manual',
    });
    etag ??= unquote(response.headers.get('x-linked-etag'));
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      const target = new URL(response.headers.get('location')!, url);
      if (!redirectAllowed(target, new URL(url), base, options.access.fileHosts ?? DEFAULT_HUB_FILE_HOSTS)) {
        throw new ModelPullError(
          `${options.repo}/${options.file}: the hub redirected to ${target.origin}, which is neither the hub nor one of its file hosts ` +
            "(https only); refused. Add the host to RERANK_HUB_FILE_HOSTS if it is really the hub's CDN",
        );
      }
      url = target.toString();
      continue;
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      throw new ModelPullError(`${options.repo}/${options.file}: HTTP ${response.status} from ${url}`);
    }
    return { response, etag: etag ?? unquote(response.headers.get('etag')) };
  }
  throw new ModelPullError(`${options.repo}/${options.file}: too many redirects`);
}

/** Size of a .part file left by an interrupted download (0 when there is none). */
async function partSize(part: string): Promise<number> {
  try {
    return (await stat(part)).size;
  } catch {
    return 0;
  }
}

/**
 * Streams one file to `destination` (via a .part file), hashing as it goes; verifies before the rename.
 * An interrupted download keeps its .part file and the next attempt resumes it with a Range request (the hub
 * and its CDN answer 206); a server that ignores the range answers 200 and the file starts over.
 */
export async function downloadHubFile(options: DownloadHubFileOptions): Promise<DownloadedFile> {
  const part = `${options.destination}.part`;
  const existing = options.expectedSize !== undefined ? await partSize(part) : 0;
  const resumeFrom = existing > 0 && existing < options.expectedSize! ? existing : 0;
  if (existing > 0 && resumeFrom === 0) await rm(part, { force: true });
  const { response, etag } = await openResolved(options, resumeFrom);
  const resumed = resumeFrom > 0 && response.status === 206;
  const headerSize = Number(response.headers.get('x-linked-size') ?? (resumed ? undefined : response.headers.get('content-length')));
  const totalBytes = Number.isFinite(headerSize) && headerSize > 0 ? headerSize : options.expectedSize;
  // The stream stops as soon as it passes what the listing (or the response) announced: a hub cannot fill the disk
  // with a file it listed as small. With no size at all, a documented maximum applies.
  const cap = Math.min(options.expectedSize ?? Infinity, totalBytes ?? Infinity, options.access.maxFileBytes ?? DEFAULT_HUB_MAX_FILE_BYTES);
  const sha256 = createHash('sha256');
  const gitSha1 = createHash('sha1');
  if (totalBytes !== undefined) gitSha1.update(`blob ${totalBytes}\0`);
  let receivedBytes = 0;
  if (resumed) {
    for await (const chunk of createReadStream(part)) {
      sha256.update(chunk as Buffer);
      gitSha1.update(chunk as Buffer);
      receivedBytes += (chunk as Buffer).length;
    }
  }
  try {
    // Each chunk is on disk before it is hashed and the next one is read: when the transfer breaks off, the
    // .part file holds exactly the bytes counted, so the next attempt can resume from its size.
    const out = await open(part, resumed ? 'a' : 'w');
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (receivedBytes + chunk.length > cap) {
          await response.body?.cancel().catch(() => undefined);
          throw new ModelPullError(
            `${options.file}: the hub sent more than the ${cap} bytes it announced; the download was stopped and deleted`,
          );
        }
        await out.write(chunk);
        sha256.update(chunk);
        gitSha1.update(chunk);
        receivedBytes += chunk.length;
        options.onProgress?.({ file: options.file, receivedBytes, totalBytes });
      }
    } finally {
      await out.close();
    }
    // Short before checksummed: a cut-off transfer is resumable, not corrupt.
    if (totalBytes !== undefined && receivedBytes !== totalBytes) {
      if (receivedBytes < totalBytes)
        throw new InterruptedDownloadError(`${options.file}: received ${receivedBytes} of ${totalBytes} bytes; pull again to resume`);
      throw new ModelPullError(
        `${options.file}: received ${receivedBytes} bytes, expected ${totalBytes}; the download was cut short, pull again`,
      );
    }
    const actual = sha256.digest('hex');
    const gitActual = gitSha1.digest('hex');
    const expectedSha256 = options.expectedSha256?.toLowerCase() ?? (etag?.length === 64 ? etag : undefined);
    let verifiedBy: DownloadedFile['verifiedBy'] = 'none';
    if (expectedSha256 !== undefined) {
      if (actual !== expectedSha256) throw new ChecksumMismatchError(options.file, 'sha256', expectedSha256, actual);
      if (etag?.length === 64 && etag !== expectedSha256) throw new ChecksumMismatchError(options.file, 'sha256', etag, actual);
      verifiedBy = 'sha256';
    } else if (etag?.length === 40 && totalBytes === receivedBytes) {
      if (gitActual !== etag) throw new ChecksumMismatchError(options.file, 'git-sha1', etag, gitActual);
      verifiedBy = 'git-sha1';
    }
    if (verifiedBy === 'none' && options.allowUnverified !== true) {
      throw new ModelPullError(
        `${options.file}: the hub gives no checksum for it, so it cannot be verified; pass --allow-unverified to keep it anyway`,
      );
    }
    await rename(part, options.destination);
    return { file: options.file, bytes: receivedBytes, sha256: actual, verifiedBy };
  } catch (error) {
    // Verified-wrong bytes are dropped; a transfer cut short keeps its .part for the next attempt to resume.
    if (error instanceof InterruptedDownloadError) throw error;
    if (error instanceof ModelPullError) await rm(part, { force: true });
    else
      throw new InterruptedDownloadError(
        `${options.file}: download interrupted after ${receivedBytes} bytes (${(error as Error).message}); pull again to resume`,
        { cause: error },
      );
    throw error;
  }
}
