import { invalidRequest } from './rerank-error.js';

/** Refuses what is not UTF-8 instead of replacing it with U+FFFD; a BOM is kept as a character, as Buffer's decoder keeps it. */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `bytes` as text, or a 400 (`invalid_request` on `param`) naming the byte offset where the first invalid sequence
 * starts: invalid UTF-8 was decoded to U+FFFD and scored, where a client should hear that it sent something else.
 */
export function decodeUtf8Strictly(bytes: Uint8Array, what: string, param?: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    throw invalidRequest(`${what} is not valid UTF-8: an invalid byte sequence starts at byte offset ${invalidUtf8Offset(bytes)}`, param);
  }
}

/** Where the first invalid UTF-8 sequence starts (Unicode's well-formed byte sequences, as TextDecoder reads them); -1 when none. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length; ) {
    const length = sequenceLength(bytes, at);
    if (length === 0) return at;
    at += length;
  }
  return -1;
}

/** The second byte's range for each lead byte that starts a multi-byte sequence (overlongs and surrogates excluded). */
function secondByteRange(lead: number): readonly [number, number, number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [0x80, 0xbf, 2];
  if (lead === 0xe0) return [0xa0, 0xbf, 3];
  if (lead === 0xed) return [0x80, 0x9f, 3];
  if (lead >= 0xe1 && lead <= 0xef) return [0x80, 0xbf, 3];
  if (lead === 0xf0) return [0x90, 0xbf, 4];
  if (lead >= 0xf1 && lead <= 0xf3) return [0x80, 0xbf, 4];
  if (lead === 0xf4) return [0x80, 0x8f, 4];
  return undefined;
}

/** The length of the well-formed sequence at `at`, or 0 when the bytes there are not one. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] as number;
  if (lead < 0x80) return 1;
  const range = secondByteRange(lead);
  if (!range) return 0;
  const [low, high, length] = range;
  if (at + length > bytes.length) return 0;
  const second = bytes[at + 1] as number;
  if (second < low || second > high) return 0;
  for (let i = 2; i < length; i++) {
    const next = bytes[at + i] as number;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
