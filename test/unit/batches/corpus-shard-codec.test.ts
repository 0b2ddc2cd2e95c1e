import { describe, expect, it } from 'vitest';
import { decodeShard, encodeShard, type StoredShardContent } from '../../../shared/batches/corpus-shard-codec.js';

const content: StoredShardContent = {
  shard: {
    count: 3,
    tokens: Uint32Array.from([4, 7, 2]),
    vectors: { dimensions: 2, data: Float32Array.from([0.5, -1, 0.25, 2, 1e-7, 3]) },
    lexical: {
      terms: ['python', 'http', 'héllo'],
      starts: Uint32Array.from([0, 2, 3, 4]),
      documents: Uint32Array.from([0, 2, 1, 2]),
      counts: Uint32Array.from([1, 3, 1, 2]),
      lengths: Uint32Array.from([5, 9, 4]),
    },
  },
  firstOverlongLine: 12,
};

describe('stored corpus shard bytes', () => {
  it("read back as they were written, from a read's own buffer (viewed, not copied) and from bytes at an odd offset (copied)", () => {
    const bytes = encodeShard(content);
    const own = new Uint8Array(new ArrayBuffer(bytes.length));
    own.set(bytes);
    const odd = new Uint8Array(bytes.length + 1).subarray(1);
    odd.set(bytes);
    for (const input of [own, odd]) {
      const decoded = decodeShard(input);
      expect(decoded).toEqual(content);
      expect(decoded.shard.vectors!.data.buffer === input.buffer).toBe(input === own);
    }
  });

  it('refuses bytes that are not a shard, or a shard cut short', () => {
    expect(() => decodeShard(Buffer.from('not a shard at all'))).toThrow(/not a stored corpus shard/);
    const bytes = encodeShard(content);
    expect(() => decodeShard(bytes.subarray(0, bytes.length - 4))).toThrow();
  });
});
