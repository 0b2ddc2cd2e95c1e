import type { ByteRange, FileStore } from '../files/file-store.js';

/** A small byte range of a file (one input line), read whole: the caller bounds its size. */
export async function readFileSlice(files: FileStore, fileId: string, range: ByteRange): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of files.read(fileId, range)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}
