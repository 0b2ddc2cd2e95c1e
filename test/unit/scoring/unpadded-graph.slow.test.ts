import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';

// A padding-free graph (MultiHeadAttention without a key padding mask, no attention_mask input: what
// scripts/model/mha_rewrite.py writes for onnxruntime's faster attention path) cannot tell padding from tokens.
// Real onnxruntime, the committed fixture: pairs of different lengths in one request must score as PyTorch scored
// each alone, which holds only if the scorer runs such a graph one unpadded pair per run.
const FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/unpadded-cross-encoder');
const golden = JSON.parse(readFileSync(path.join(FOLDER, 'golden.json'), 'utf8')) as {
  query: string;
  document: string;
  tokens: number;
  logit: number;
}[];

describe('a graph without attention_mask', () => {
  it('scores pairs of different lengths in one request as PyTorch scores each alone', async () => {
    const query = golden[0]!.query;
    const cases = golden.filter((g) => g.query === query);
    expect(new Set(cases.map((g) => g.tokens)).size).toBeGreaterThan(1); // lengths differ: a padded batch would change scores
    const scorer = await loadOnnxCrossEncoder({ id: 'unpadded', folder: FOLDER, batchSize: 8, threads: 1 });
    try {
      expect(scorer.inputNames).not.toContain('attention_mask');
      const { scores, tokens } = await scorer.score(
        query,
        cases.map((g) => g.document),
      );
      expect(tokens).toBe(cases.reduce((sum, g) => sum + g.tokens, 0));
      scores.forEach((score, i) => expect(Math.abs(score - cases[i]!.logit)).toBeLessThan(1e-4));
    } finally {
      await scorer.close();
    }
  });

  it('scores a request whose pairs all differ in length, on the planned worker sessions too', async () => {
    const scorer = await loadOnnxCrossEncoder({ id: 'unpadded-planned', folder: FOLDER, threads: 2 });
    try {
      const all = await scorer.score(golden[2]!.query, [golden[2]!.document, 'a', 'photosynthesis']);
      expect(Math.abs(all.scores[0]! - golden[2]!.logit)).toBeLessThan(1e-4);
      const alone = await scorer.score(golden[2]!.query, ['a']);
      expect(Math.abs(all.scores[1]! - alone.scores[0]!)).toBeLessThan(1e-6);
    } finally {
      await scorer.close();
    }
  });
});
