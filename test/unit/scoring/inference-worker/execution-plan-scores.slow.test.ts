import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE, loadGolden } from '../fixture-model.js';

// The chosen plan (sessions on worker threads, costliest batch first, small requests split across
// sessions) must give what one in-thread session with plain length batches gives: same order, same values.
const golden = loadGolden();
const words = golden.cases.flatMap((c) => c.document.split(/\s+/)).filter(Boolean);
const documents = Array.from({ length: 60 }, (_, i) => {
  const length = [3, 40, 12, 400, 25, 90][i % 6]!;
  return Array.from({ length }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
});

describe('execution plan: worker sessions vs one in-thread session', () => {
  let reference: OnnxCrossEncoder;
  let planned: OnnxCrossEncoder;

  beforeAll(async () => {
    reference = await loadOnnxCrossEncoder({ id: 'in-thread', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 1 });
    planned = await loadOnnxCrossEncoder({ id: 'planned', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 3 });
  });
  afterAll(async () => {
    await reference.close();
    await planned.close();
  });

  it('chooses worker sessions for several CPUs and one in-thread session for one', () => {
    expect(planned.plan).toMatchObject({ inWorkerThreads: true, workers: 3, intraOpThreads: 1 });
    expect(reference.plan).toEqual({ inWorkerThreads: false, workers: 1, intraOpThreads: 1 });
  });

  it.each([1, 5, 60])('scores %i mixed-length documents in input order with the same values', async (count) => {
    // Arrange
    const query = golden.cases[0]!.query;
    const batch = documents.slice(0, count);

    // Act
    const expected = await reference.score(query, batch);
    const result = await planned.score(query, batch);

    // Assert
    expect(result.tokens).toBe(expected.tokens);
    expect(result.scores).toHaveLength(count);
    result.scores.forEach((score, i) => expect(Math.abs(score - expected.scores[i]!)).toBeLessThan(1e-6));
  });

  it('keeps each of several concurrent requests its own scores', async () => {
    // Arrange
    const query = golden.cases[0]!.query;
    const requests = [documents.slice(0, 20), documents.slice(20, 23), documents.slice(30, 60)];

    // Act
    const results = await Promise.all(requests.map((batch) => planned.score(query, batch)));

    // Assert
    for (const [i, batch] of requests.entries()) {
      const expected = await reference.score(query, batch);
      results[i]!.scores.forEach((score, k) => expect(Math.abs(score - expected.scores[k]!)).toBeLessThan(1e-6));
    }
  });
});

describe('execution plan: small-request session', () => {
  let reference: OnnxCrossEncoder;
  let planned: OnnxCrossEncoder;
  let poolOnly: OnnxCrossEncoder;

  beforeAll(async () => {
    reference = await loadOnnxCrossEncoder({ id: 'in-thread', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 1 });
    planned = await loadOnnxCrossEncoder({ id: 'planned', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 2 });
    poolOnly = await loadOnnxCrossEncoder({
      id: 'pool',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      threads: 2,
      smallRequestSession: false,
    });
  });
  afterAll(async () => {
    await Promise.all([reference.close(), planned.close(), poolOnly.close()]);
  });

  it('loads an all-CPU session for small requests beside the pool, in the background, unless told not to', async () => {
    expect(planned.plan).toEqual({ inWorkerThreads: true, workers: 2, intraOpThreads: 1, smallRequestSession: { intraOpThreads: 2 } });
    expect(await planned.smallRequestSessionReady()).toBe(true);
    expect(poolOnly.plan).toEqual({ inWorkerThreads: true, workers: 2, intraOpThreads: 1 });
    expect(await poolOnly.smallRequestSessionReady()).toBe(false);
  });

  it('releases a small-request session that finishes loading after close', async () => {
    // Arrange: closed right after load, while the small-request session is still loading
    const early = await loadOnnxCrossEncoder({ id: 'early', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 2 });

    // Act
    await early.close();

    // Assert
    expect(await early.smallRequestSessionReady()).toBe(false);
  });

  it.each([1, 2, 10, 60])(
    'scores %i documents exactly like one in-thread session, alone and beside a concurrent request',
    async (count) => {
      // Arrange
      const query = golden.cases[0]!.query;
      const batch = documents.slice(0, count);
      const expected = await reference.score(query, batch);
      await planned.smallRequestSessionReady();

      // Act: alone (small requests take the small-request session), then two at once (the second one takes the pool)
      const alone = await planned.score(query, batch);
      const together = await Promise.all([planned.score(query, batch), planned.score(query, documents.slice(0, 3))]);

      // Assert
      expect(alone.scores).toEqual(expected.scores);
      expect(together[0].scores).toEqual(expected.scores);
      expect(together[1].scores).toEqual((await reference.score(query, documents.slice(0, 3))).scores);
    },
  );
});
