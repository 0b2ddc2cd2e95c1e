import { describe, expect, it } from 'vitest';
import { loadCausalLmReranker } from '../../../shared/scoring/causal-lm/index.js';
import { loadOnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { familyFolder, LLM_RERANKER_FIXTURE, LLM_RERANKER_KV_FIXTURE } from './family-fixtures.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE } from './fixture-model.js';

// A fresh process plans its first request by cost like the rest: each scorer measures its pace on a warm-up pair at
// load (real onnxruntime, the fixtures' real graphs), so estimateSeconds answers before any request was scored.
const LONG = 'x'.repeat(3_000);

describe('pace measured at load', () => {
  it('a cross-encoder estimates its first request, more than linearly in length, and scores the same', async () => {
    const measured = await loadOnnxCrossEncoder({ id: 'paced', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE });
    const unmeasured = await loadOnnxCrossEncoder({
      id: 'unpaced',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      measurePaceAtLoad: false,
    });
    try {
      const short = measured.estimateSeconds('q', ['x'.repeat(300)]);
      expect(short).toBeGreaterThan(0);
      expect(measured.estimateSeconds('q', [LONG])!).toBeGreaterThan(short!);
      expect(measured.estimateSeconds('q', [LONG, LONG])).toBeCloseTo(2 * measured.estimateSeconds('q', [LONG])!, 12);
      expect(unmeasured.estimateSeconds('q', [LONG])).toBeUndefined();
      const documents = ['python http clients', 'a recipe for bread'];
      const [a, b] = [(await measured.score('http library', documents)).scores, (await unmeasured.score('http library', documents)).scores];
      a.forEach((score, i) => expect(Math.abs(score - b[i]!)).toBeLessThanOrEqual(1e-6));
    } finally {
      await Promise.all([measured.close(), unmeasured.close()]);
    }
  });

  for (const fixture of [LLM_RERANKER_FIXTURE, LLM_RERANKER_KV_FIXTURE]) {
    it(`the LLM reranker (${fixture}) estimates its first request`, async () => {
      const base = { id: 'llm', folder: familyFolder(fixture), threads: 1 };
      const measured = await loadCausalLmReranker(base);
      const unmeasured = await loadCausalLmReranker({ ...base, measurePaceAtLoad: false });
      try {
        const one = measured.estimateSeconds('q', [LONG]);
        expect(one).toBeGreaterThan(0);
        expect(
          measured.estimateSeconds(
            'q',
            Array.from({ length: 30 }, () => LONG),
          ),
        ).toBeCloseTo(30 * one!, 9);
        expect(unmeasured.estimateSeconds('q', [LONG])).toBeUndefined();
        const documents = ['ss -tulpn lists listening sockets', 'two cups of flour'];
        const [a, b] = [(await measured.score('open ports', documents)).scores, (await unmeasured.score('open ports', documents)).scores];
        a.forEach((score, i) => expect(Math.abs(score - b[i]!)).toBeLessThanOrEqual(1e-6));
      } finally {
        await Promise.all([measured.close(), unmeasured.close()]);
      }
    });
  }
});
