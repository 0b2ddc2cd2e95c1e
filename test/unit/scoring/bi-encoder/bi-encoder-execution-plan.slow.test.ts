import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxBiEncoder, type OnnxBiEncoder } from '../../../../shared/scoring/bi-encoder/index.js';
import { USE_LITE_DIR } from './use-lite-golden.js';

// The bi-encoder runs on the same planned sessions as the cross-encoder (a pool on worker threads, a small-request
// session in-thread): whichever session encodes a text, its embedding and so every score are what one in-thread
// session gives, alone or beside other requests.
const words = 'the quick brown fox jumps over a lazy dog while rivers flow to the sea under bright northern stars'.split(' ');
const texts = Array.from({ length: 80 }, (_, i) => {
  const length = [2, 30, 9, 120, 15, 60][i % 6]!;
  return Array.from({ length }, (_, k) => words[(i * 5 + k * 3) % words.length]).join(' ');
});
const query = 'a fox by the river';
const within = (actual: readonly number[], expected: readonly number[]): void => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThan(1e-6));
};

describe('bi-encoder on planned sessions', () => {
  let reference: OnnxBiEncoder;
  let pooled: OnnxBiEncoder;
  let planned: OnnxBiEncoder;

  beforeAll(async () => {
    const uncached = { folder: USE_LITE_DIR, embeddingCacheEntries: 0, batchSize: 8 } as const;
    reference = await loadOnnxBiEncoder({ id: 'in-thread', threads: 1, ...uncached });
    pooled = await loadOnnxBiEncoder({ id: 'pooled', threads: 1, inWorkerThread: true, workers: 2, ...uncached });
    planned = await loadOnnxBiEncoder({ id: 'planned', threads: 2, ...uncached });
  });
  afterAll(async () => {
    await Promise.all([reference.close(), pooled.close(), planned.close()]);
  });

  it('places its sessions by the execution plan: in-thread for one CPU, worker sessions for several', async () => {
    expect(reference.plan).toEqual({ inWorkerThreads: false, workers: 1, intraOpThreads: 1 });
    expect(planned.plan).toMatchObject({ inWorkerThreads: true, workers: 2, intraOpThreads: 1 });
    expect(pooled.plan).toEqual({ inWorkerThreads: true, workers: 2, intraOpThreads: 1 });
    expect(await reference.smallRequestSessionReady()).toBe(false);
  });

  it.each([1, 4, 80])('scores %i documents on worker sessions as one in-thread session does', async (count) => {
    // Arrange
    const documents = texts.slice(0, count);
    const expected = await reference.score(query, documents);

    // Act
    const result = await pooled.score(query, documents);

    // Assert
    expect(result.tokens).toBe(expected.tokens);
    within(result.scores, expected.scores);
  });

  it('scores small and large requests, alone and concurrently, as one in-thread session does (small-request session included)', async () => {
    // Arrange
    await planned.smallRequestSessionReady();
    const requests = [texts.slice(0, 3), texts.slice(3, 80), texts.slice(10, 12)];
    const expected = await Promise.all(requests.map((documents) => reference.score(query, documents)));

    // Act
    const alone = await planned.score(query, requests[0]!);
    const together = await Promise.all(requests.map((documents) => planned.score(query, documents)));

    // Assert
    within(alone.scores, expected[0]!.scores);
    together.forEach((result, i) => within(result.scores, expected[i]!.scores));
  });

  it('gives each text the embedding one in-thread session gives', async () => {
    const [a, b] = await Promise.all([reference.embed(texts.slice(0, 40)), pooled.embed(texts.slice(0, 40))]);
    b.forEach((embedding, i) => within([...embedding], [...a[i]!]));
  });

  it('refuses to score once closed, and releases its worker sessions', async () => {
    // Arrange
    const closing = await loadOnnxBiEncoder({ id: 'closing', folder: USE_LITE_DIR, threads: 1, inWorkerThread: true, workers: 2 });

    // Act
    await closing.close();

    // Assert
    await expect(closing.score(query, ['a'])).rejects.toThrow(/closed/);
  });

  it('stops a request past its deadline (the signal), and scores the next one as before', async () => {
    // Arrange
    const expected = await reference.score(query, texts.slice(0, 20));

    // Act
    const aborted = planned.score(query, texts, { signal: AbortSignal.abort(new Error('deadline')) });

    // Assert
    await expect(aborted).rejects.toThrow('deadline');
    within((await planned.score(query, texts.slice(0, 20))).scores, expected.scores);
  });
});
