import { describe, expect, it } from 'vitest';
import { lengthBatches } from '../../../shared/scoring/length-batches.js';

describe('lengthBatches', () => {
  it('groups indices by ascending length within the pair limit', () => {
    // Act
    const batches = lengthBatches([50, 10, 30, 20, 40], { batchSize: 2, maxBatchTokens: 10_000 });

    // Assert
    expect(batches).toEqual([[1, 3], [2, 4], [0]]);
  });

  it('cuts a batch before its padded size exceeds maxBatchTokens', () => {
    // Act: 3 x 100 = 300 fits, a 4th row of 120 would pad to 480 > 400
    const batches = lengthBatches([100, 100, 100, 120, 500], { batchSize: 32, maxBatchTokens: 400 });

    // Assert
    expect(batches).toEqual([[0, 1, 2], [3], [4]]);
  });

  it('covers every index exactly once', () => {
    // Arrange
    const lengths = Array.from({ length: 97 }, (_, i) => (i * 37) % 512);

    // Act
    const flat = lengthBatches(lengths, { batchSize: 8, maxBatchTokens: 2048 }).flat();

    // Assert
    expect([...flat].sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
  });

  it('returns no batches for no pairs', () => {
    expect(lengthBatches([], { batchSize: 4, maxBatchTokens: 100 })).toEqual([]);
  });
});
