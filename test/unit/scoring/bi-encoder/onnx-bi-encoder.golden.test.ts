import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxBiEncoder, type OnnxBiEncoder } from '../../../../shared/scoring/bi-encoder/index.js';
import { cosine64, loadUseLiteGolden, USE_LITE_DIR } from './use-lite-golden.js';

// Faithfulness of the whole TS path (our tokenizer + converted ONNX graph + onnxruntime-node) to the ORIGINAL
// Universal Sentence Encoder lite run by TF.js (golden.json from scripts/model/convert-use/golden.ts).
const golden = loadUseLiteGolden();
const TOLERANCE = 1e-4;

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

describe('ONNX bi-encoder (models/use-lite) vs the original TF.js model', () => {
  let scorer: OnnxBiEncoder;

  beforeAll(async () => {
    scorer = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('is a 512-d similarity scorer reading 128 tokens per text', () => {
    expect(scorer.scoreKind).toBe('similarity');
    expect(scorer.dimensions).toBe(512);
    expect(scorer.maxLength).toBe(128);
  });

  it('reproduces every original embedding within 1e-4, batched together', async () => {
    // Act
    const embeddings = await scorer.embed(golden.embed.map((c) => c.text));

    // Assert
    const diffs = golden.embed.map((c, i) => [c.name, maxAbsDiff(embeddings[i]!, c.embedding)] as const);
    for (const [name, diff] of diffs) expect(diff, name).toBeLessThan(TOLERANCE);
  });

  it.each(golden.embed.map((c) => [c.name, c] as const))('reproduces %s alone within 1e-4', async (_name, c) => {
    // Act
    const [embedding] = await scorer.embed([c.text]);

    // Assert
    expect(maxAbsDiff(embedding!, c.embedding)).toBeLessThan(TOLERANCE);
  });

  it('cuts texts to the first 128 tokens like the original graph', () => {
    const long = golden.embed.find((c) => c.name === 'long-clipped')!;
    expect(long.ids.length).toBeGreaterThan(128);
    expect(scorer.tokenize(long.text)).toEqual(long.ids.slice(0, 128));
  });

  it('scores every golden text against every other as the original cosine within 1e-4', async () => {
    for (const query of golden.embed) {
      // Act
      const batch = await scorer.score(
        query.text,
        golden.embed.map((c) => c.text),
      );

      // Assert
      const expected = golden.embed.map((c) => cosine64(query.embedding, c.embedding));
      expect(maxAbsDiff(batch.scores, expected), query.name).toBeLessThan(TOLERANCE);
    }
    // 35 scored requests of 35 texts through the real model: beyond the unit project's short default on a busy machine.
  }, 120_000);
});
