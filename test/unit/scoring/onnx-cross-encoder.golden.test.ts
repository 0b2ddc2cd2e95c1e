import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { readModelFolder } from '../../../shared/scoring/model-folder.js';
import { createPairTokenizer } from '../../../shared/scoring/pair-tokenizer.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE, loadGolden } from './fixture-model.js';

// Faithfulness: the TS pipeline (tokenizers.js + our truncation + onnxruntime-node) must reproduce the
// Python reference (HF fast tokenizer truncation=True + onnxruntime) pair by pair.
const golden = loadGolden();
const TOLERANCE = 1e-4;

describe('onnx cross-encoder vs Python golden values', () => {
  let scorer: OnnxCrossEncoder;

  beforeAll(async () => {
    scorer = await loadOnnxCrossEncoder({ id: 'fixture', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('uses the same model file and max length as the reference', () => {
    expect(golden.onnx).toBe(FIXTURE_MODEL_FILE);
    expect(scorer.maxLength).toBe(golden.maxLength);
    expect(scorer.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('tokenizes %s exactly like Python', async (_name, c) => {
    // Arrange
    const folder = await readModelFolder(FIXTURE_MODEL_DIR, { modelFile: FIXTURE_MODEL_FILE });
    const tokenizer = createPairTokenizer({ ...folder, padTokenId: folder.config.padTokenId });

    // Act
    const encoded = tokenizer.encodePair(c.query, c.document);

    // Assert
    expect(encoded.inputIds).toEqual(c.inputIds);
    expect(encoded.tokenTypeIds).toEqual(c.tokenTypeIds);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('scores %s like Python', async (_name, c) => {
    // Act
    const result = await scorer.score(c.query, [c.document]);

    // Assert
    expect(result.tokens).toBe(c.tokens);
    expect(Math.abs(result.scores[0]! - c.logit)).toBeLessThan(TOLERANCE);
  });

  it('scores every golden document of one query in one call like Python', async () => {
    // Arrange
    const query = golden.cases[0]!.query;
    const cases = golden.cases.filter((c) => c.query === query);

    // Act
    const result = await scorer.score(
      query,
      cases.map((c) => c.document),
    );

    // Assert
    expect(result.tokens).toBe(cases.reduce((sum, c) => sum + c.tokens, 0));
    const maxDiff = Math.max(...cases.map((c, i) => Math.abs(result.scores[i]! - c.logit)));
    expect(maxDiff).toBeLessThan(TOLERANCE);
  });
});
