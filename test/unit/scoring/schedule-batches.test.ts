import { describe, expect, it } from 'vitest';
import { batchCost, lengthBatches, scheduleBatches } from '../../../shared/scoring/length-batches.js';

const LIMITS = { batchSize: 8, maxBatchTokens: 8 * 512 };
const sortedIndices = (batches: number[][]): number[] => batches.flat().sort((a, b) => a - b);
const widthOf = (lengths: readonly number[], batch: number[]): number => Math.max(...batch.map((i) => lengths[i]!));

describe('batchCost', () => {
  it('grows faster than the token count with length (attention is quadratic)', () => {
    // Act
    const short = batchCost(4, 128, 384);
    const long = batchCost(1, 512, 384);

    // Assert: the same 512 tokens, but the long row costs more
    expect(long).toBeGreaterThan(short);
    expect(batchCost(2, 100, 384)).toBeCloseTo(2 * batchCost(1, 100, 384), 9);
  });
});

describe('scheduleBatches', () => {
  // Shuffled mixed lengths like a real request: snippets, passages, truncated long chunks.
  const lengths = Array.from({ length: 200 }, (_, i) => [24, 512, 90, 180, 60, 512, 300, 40][i % 8]! + (i % 5));

  it('with one session, runs exactly the length batches, costliest first', () => {
    // Act
    const scheduled = scheduleBatches(lengths, { ...LIMITS, batchInvariant: true, parallelism: 1 });

    // Assert
    const plain = lengthBatches(lengths, LIMITS);
    expect([...scheduled].sort((a, b) => a[0]! - b[0]!)).toEqual([...plain].sort((a, b) => a[0]! - b[0]!));
    const costs = scheduled.map((batch) => batchCost(batch.length, widthOf(lengths, batch)));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
  });

  it('starts the costliest batch first with several sessions and covers every pair once', () => {
    // Act
    const scheduled = scheduleBatches(lengths, { ...LIMITS, batchInvariant: true, parallelism: 4, hiddenSize: 128 });

    // Assert
    expect(sortedIndices(scheduled)).toEqual(lengths.map((_, i) => i));
    const costs = scheduled.map((batch) => batchCost(batch.length, widthOf(lengths, batch), 128));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    scheduled.forEach((batch) => expect(batch.length).toBeLessThanOrEqual(LIMITS.batchSize));
  });

  it('splits a small request so every session gets work', () => {
    // Arrange: 10 similar pairs would be 2 batches of 8 + 2 with one session
    const small = [40, 42, 41, 44, 39, 40, 43, 45, 41, 42];

    // Act
    const one = scheduleBatches(small, { ...LIMITS, batchInvariant: true, parallelism: 1 });
    const four = scheduleBatches(small, { ...LIMITS, batchInvariant: true, parallelism: 4 });

    // Assert
    expect(one).toHaveLength(2);
    expect(four.length).toBeGreaterThanOrEqual(4);
    expect(sortedIndices(four)).toEqual(small.map((_, i) => i));
  });

  it('keeps the plain length batches for a graph whose scores depend on batch mates (dynamic int8)', () => {
    // Arrange
    const small = [40, 42, 41, 44, 39, 40, 43, 45, 41, 42];

    // Act
    const scheduled = scheduleBatches(lengths, { ...LIMITS, batchInvariant: false, parallelism: 4 });
    const smallScheduled = scheduleBatches(small, { ...LIMITS, batchInvariant: false, parallelism: 4 });

    // Assert: same rows per batch as one session would run, only the order differs
    const byFirst = (batches: number[][]): number[][] => [...batches].sort((a, b) => a[0]! - b[0]!);
    expect(byFirst(scheduled)).toEqual(byFirst(lengthBatches(lengths, LIMITS)));
    expect(byFirst(smallScheduled)).toEqual(byFirst(lengthBatches(small, LIMITS)));
  });

  it('never splits below one pair per batch', () => {
    // Act
    const batches = scheduleBatches([512, 10], { ...LIMITS, batchInvariant: true, parallelism: 6 });

    // Assert
    expect(batches).toEqual([[0], [1]]);
  });

  it('schedules nothing for no pairs and one batch for one pair', () => {
    expect(scheduleBatches([], { ...LIMITS, batchInvariant: true, parallelism: 2 })).toEqual([]);
    expect(scheduleBatches([77], { ...LIMITS, batchInvariant: true, parallelism: 2 })).toEqual([[0]]);
  });
});
