import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE } from './fixture-model.js';

// The real cross-encoder (fixture weights, real onnxruntime) honours the score options: the deadline, checked between
// batches, and the per-document token budget.
let scorer: OnnxCrossEncoder;

beforeAll(async () => {
  scorer = await loadOnnxCrossEncoder({ id: 'fixture', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, batchSize: 4 });
});

afterAll(async () => {
  await scorer?.close();
});

const documents = Array.from({ length: 200 }, (_, i) => `document ${i} ${'about python http libraries and their clients '.repeat(8)}`);

describe('a deadline while scoring', () => {
  it('stops before the next batch and throws the deadline reason', async () => {
    const reason = new Error('past the deadline');
    const controller = new AbortController();
    const scoring = scorer.score('python http library', documents, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(scoring).rejects.toBe(reason);
  });

  it('does not start at all past it, and scores normally without one', async () => {
    await expect(scorer.score('q', documents, { signal: AbortSignal.abort(new Error('already past')) })).rejects.toThrow('already past');
    const { scores } = await scorer.score('q', documents.slice(0, 3), { signal: new AbortController().signal });
    expect(scores).toHaveLength(3);
  });
});

describe('maxDocumentTokens (Cohere max_tokens_per_doc)', () => {
  it("scores each document's first tokens of the model's own tokenizer, exactly as if only they were sent", async () => {
    const full = ['requests is a popular library for python http', 'bananas are yellow and sweet fruit'];
    const cut = ['requests is a', 'bananas are yellow'];
    const [limited, shortened] = await Promise.all([
      scorer.score('python http library', full, { maxDocumentTokens: 3 }),
      scorer.score('python http library', cut),
    ]);
    expect(limited.scores).toEqual(shortened.scores);
    expect(limited.tokens).toBe(shortened.tokens);
    expect(scorer.countsTokens).toBe(true);
  });
});

describe('estimateSeconds (the planner reads it)', () => {
  it('is measured from real scoring: linear in the documents, more than linear in their length (attention)', async () => {
    const fresh = await loadOnnxCrossEncoder({
      id: 'fresh',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      measurePaceAtLoad: false,
    });
    try {
      expect(fresh.estimateSeconds('q', ['a document'])).toBeUndefined();
      await fresh.score('python http library', documents.slice(0, 20));
      const one = fresh.estimateSeconds('q', ['x'.repeat(300)])!;
      expect(one).toBeGreaterThan(0);
      expect(fresh.estimateSeconds('q', ['x'.repeat(300), 'x'.repeat(300)])).toBeCloseTo(2 * one, 12);
      expect(fresh.estimateSeconds('q', ['x'.repeat(600)])!).toBeGreaterThan(2 * one);
    } finally {
      await fresh.close();
    }
  });
});
