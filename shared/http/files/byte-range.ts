import type { ByteRange } from '../../files/file-store.js';

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 14.2): the whole file, one slice `[start, end)`, or
 * nothing it holds (416). One range only: a list of ranges, another unit or a malformed header is ignored, as the
 * RFC lets a server do, and the whole file is sent.
 */
export type RangeAsked =
  | { readonly kind: 'whole' }
  | { readonly kind: 'slice'; readonly range: ByteRange }
  | { readonly kind: 'unsatisfiable' };

/** `bytes=first-last`, `bytes=first-` or `bytes=-suffix` (digits bounded: no number past 2^53 is read). */
const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

export function rangeAsked(header: string | undefined, size: number): RangeAsked {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim().replace(/\s+/g, ''));
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'slice', range: { start: Math.max(0, size - suffix), end: size } };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'slice', range: { start, end: last === '' ? size : Math.min(size, Number(last) + 1) } };
}

/** The `Content-Range` of a slice; without one, a 416's (an asterisk in place of the range, then the size). */
export const contentRange = (size: number, range?: ByteRange): string =>
  range === undefined ? `bytes */${size}` : `bytes ${range.start}-${range.end - 1}/${size}`;
