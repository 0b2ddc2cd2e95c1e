/**
 * Scores travel as raw little-endian float64 bytes (a DynamoDB Binary attribute), because:
 * - exactness: DynamoDB's Number type holds 38 digits but only magnitudes >= 1e-130, so 5e-324 or -1e-300 cannot be
 *   stored at all, and NaN / -0 / Infinity have no Number form; bytes keep every float64 bit-exactly;
 * - size: 8 bytes per score (1,000 scores = 8 KB) versus ~20 bytes as JSON text or ~10-12 per list element
 *   plus per-element overhead; an item of 400 KB could hold ~49,000 scores.
 */
export function encodeFloat64s(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => view.setFloat64(i * 8, value, true));
  return bytes;
}

export function decodeFloat64s(bytes: Uint8Array): number[] {
  if (bytes.byteLength % 8 !== 0) throw new RangeError(`float64 payload of ${bytes.byteLength} bytes is not a multiple of 8`);
  // The SDK may hand back a view into a larger buffer at any offset; DataView copes with unaligned offsets.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Array<number>(bytes.byteLength / 8);
  for (let i = 0; i < values.length; i += 1) values[i] = view.getFloat64(i * 8, true);
  return values;
}
