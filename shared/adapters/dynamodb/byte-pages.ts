/**
 * Splits a payload into pages that each fit one DynamoDB item (400 KB including names and keys), and joins them back.
 * Splitting raw bytes (not records) means one huge document or result never needs special casing.
 */
export const DEFAULT_PAGE_BYTES = 350_000;

export function splitIntoPages(bytes: Uint8Array, pageBytes: number = DEFAULT_PAGE_BYTES): Uint8Array[] {
  if (!(pageBytes > 0)) throw new RangeError('pageBytes must be positive');
  const pages: Uint8Array[] = [];
  for (let start = 0; start < bytes.byteLength; start += pageBytes) pages.push(bytes.subarray(start, start + pageBytes));
  return pages;
}

export function joinPages(pages: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(pages);
}
