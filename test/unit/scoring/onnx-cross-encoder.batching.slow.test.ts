import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE, goldenCase, loadGolden } from './fixture-model.js';

const golden = loadGolden();
const QUERY = 'what is the capital of france';
// Mixed lengths so length-aware batching really reorders and pads.
const DOCUMENTS = [
  'Paris is the capital and largest city of France.',
  '',
  'The mitochondria is the powerhouse of the cell.',
  goldenCase(golden, 'long-doc').document,
  'a',
  'Crème brûlée: a rich custard topped with caramelised sugar.',
  '今日の東京は晴れです。',
  'Paris is the capital and largest city of France.',
  'Lyon and Marseille are large French cities, but the capital is Paris, on the Seine.',
  'C++ (pronounced "see plus plus") — a language; C# is .NET\'s… 🙂',
];

describe('onnx cross-encoder batching', () => {
  let scorer: OnnxCrossEncoder;
  let tinyBatches: OnnxCrossEncoder;

  beforeAll(async () => {
    scorer = await loadOnnxCrossEncoder({ id: 'fixture', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE });
    // Forces many small runs (3 pairs or 600 padded tokens each).
    tinyBatches = await loadOnnxCrossEncoder({
      id: 'fixture-small-batches',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      threads: 1,
      batchSize: 3,
      maxBatchTokens: 600,
    });
  });
  afterAll(async () => {
    await scorer.close();
    await tinyBatches.close();
  });

  it('gives the same scores for documents one by one and all at once', async () => {
    // Arrange
    const oneByOne: number[] = [];
    let tokensOneByOne = 0;
    for (const document of DOCUMENTS) {
      const single = await scorer.score(QUERY, [document]);
      oneByOne.push(single.scores[0]!);
      tokensOneByOne += single.tokens;
    }

    // Act
    const all = await scorer.score(QUERY, DOCUMENTS);

    // Assert
    expect(all.scores).toHaveLength(DOCUMENTS.length);
    all.scores.forEach((score, i) => expect(Math.abs(score - oneByOne[i]!)).toBeLessThan(1e-5));
    expect(all.tokens).toBe(tokensOneByOne);
  });

  it('returns scores in input order for shuffled input', async () => {
    // Arrange
    const permutation = [7, 3, 0, 9, 1, 5, 8, 2, 6, 4];
    const shuffled = permutation.map((i) => DOCUMENTS[i]!);
    const reference = await scorer.score(QUERY, DOCUMENTS);

    // Act
    const result = await scorer.score(QUERY, shuffled);

    // Assert
    result.scores.forEach((score, j) => expect(Math.abs(score - reference.scores[permutation[j]!]!)).toBeLessThan(1e-5));
    expect(result.tokens).toBe(reference.tokens);
  });

  it('gives the same scores whatever the batch limits', async () => {
    // Arrange
    const reference = await scorer.score(QUERY, DOCUMENTS);

    // Act
    const result = await tinyBatches.score(QUERY, DOCUMENTS);

    // Assert
    result.scores.forEach((score, i) => expect(Math.abs(score - reference.scores[i]!)).toBeLessThan(1e-5));
    expect(result.tokens).toBe(reference.tokens);
  });

  it('gives identical documents identical scores', async () => {
    // Act
    const result = await scorer.score(QUERY, [DOCUMENTS[0]!, DOCUMENTS[3]!, DOCUMENTS[0]!]);

    // Assert
    expect(result.scores[2]).toBeCloseTo(result.scores[0]!, 6);
  });

  it('truncates a document longer than the model limit instead of throwing', async () => {
    // Arrange
    const longDocument = 'paris '.repeat(5000);

    // Act
    const result = await scorer.score(QUERY, [longDocument]);

    // Assert
    expect(result.tokens).toBe(scorer.maxLength);
    expect(Number.isFinite(result.scores[0])).toBe(true);
  });

  it('truncates an over-long query too', async () => {
    // Act
    const result = await scorer.score('paris '.repeat(2000), ['short document', 'paris '.repeat(2000)]);

    // Assert
    expect(result.tokens).toBe(2 * scorer.maxLength);
    expect(result.scores.every(Number.isFinite)).toBe(true);
  });

  it('returns nothing for an empty documents list', async () => {
    // Act
    const result = await scorer.score(QUERY, []);

    // Assert
    expect(result).toEqual({ scores: [], tokens: 0 });
  });

  it('refuses to score after close', async () => {
    // Arrange
    const closing = await loadOnnxCrossEncoder({ id: 'closing', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 1 });
    await closing.close();

    // Act / Assert
    await expect(closing.score(QUERY, ['x'])).rejects.toThrow(/closed/);
  });

  it('reports its id and score kind', () => {
    expect(scorer.id).toBe('fixture');
    expect(scorer.scoreKind).toBe('logit');
  });
});
