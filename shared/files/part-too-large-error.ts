import { RerankError } from '../core/rerank-error.js';

const MiB = 1024 * 1024;

/** An upload part past its limit: smaller parts, as the OpenAI Python SDK's chunked upload sends them with `part_size`. */
export function partTooLargeError(prefix: string, partBytes: number): RerankError {
  const mib = partBytes % MiB === 0 ? `${partBytes / MiB} MiB` : `${(partBytes / MiB).toFixed(1)} MiB`;
  return new RerankError(
    'payload_too_large',
    `${prefix}an upload part is at most ${partBytes} bytes (${mib}): send smaller parts; the OpenAI Python SDK's ` +
      `client.uploads.upload_file_chunked(...) sends parts of its part_size argument: pass part_size=${partBytes}`,
    { param: 'data' },
  );
}
