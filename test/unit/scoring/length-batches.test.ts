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

  it('runs long pairs alone under maxBatchScores (rows x width^2) while short ones still share a run', () => {
    // Act: 512^2 allows 8 rows of 180 (8 x 32,400 = 259,200) but only one of 512, and 4 of 256
    const lengths = [512, 180, 256, 180, 180, 256, 180, 180, 180, 512, 180, 180, 256, 256, 256];
    const batches = lengthBatches(lengths, { batchSize: 8, maxBatchTokens: 8 * 512, maxBatchScores: 512 * 512 });

    // Assert
    expect(batches.map((b) => b.map((i) => lengths[i]))).toEqual([
      [180, 180, 180, 180, 180, 180, 180, 180],
      [256, 256, 256, 256],
      [256],
      [512],
      [512],
    ]);
    for (const batch of batches) expect(batch.length * Math.max(...batch.map((i) => lengths[i]!)) ** 2).toBeLessThanOrEqual(512 * 512);
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
