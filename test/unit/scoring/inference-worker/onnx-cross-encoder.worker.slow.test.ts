import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIntraOpThreads, loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, FIXTURE_MODEL_FILE, loadGolden } from '../fixture-model.js';

const golden = loadGolden();
const query = golden.cases[0]!.query;
const cases = golden.cases.filter((c) => c.query === query);

describe('onnx cross-encoder on inference worker threads', () => {
  let inThread: OnnxCrossEncoder;
  let inWorkers: OnnxCrossEncoder;

  beforeAll(async () => {
    inThread = await loadOnnxCrossEncoder({ id: 'fixture', folder: FIXTURE_MODEL_DIR, modelFile: FIXTURE_MODEL_FILE, threads: 1 });
    inWorkers = await loadOnnxCrossEncoder({
      id: 'fixture-workers',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      threads: 1,
      batchSize: 2,
      inWorkerThread: true,
      workers: 2,
    });
  });
  afterAll(async () => {
    await inThread.close();
    await inWorkers.close();
  });

  it('scores like Python and like the in-thread scorer, in input order', async () => {
    // Act
    const result = await inWorkers.score(
      query,
      cases.map((c) => c.document),
    );

    // Assert
    expect(inWorkers.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(result.tokens).toBe(cases.reduce((sum, c) => sum + c.tokens, 0));
    cases.forEach((c, i) => expect(Math.abs(result.scores[i]! - c.logit)).toBeLessThan(1e-4));
    const reference = await inThread.score(
      query,
      cases.map((c) => c.document),
    );
    result.scores.forEach((score, i) => expect(Math.abs(score - reference.scores[i]!)).toBeLessThan(1e-5));
  });

  it('serves concurrent requests each with its own scores', async () => {
    // Arrange
    const requests = cases.map((c) => [c.document, 'a', c.document]);

    // Act
    const results = await Promise.all(requests.map((documents) => inWorkers.score(query, documents)));

    // Assert
    results.forEach((result, i) => {
      expect(Math.abs(result.scores[0]! - cases[i]!.logit)).toBeLessThan(1e-4);
      expect(result.scores[2]).toBeCloseTo(result.scores[0]!, 6);
    });
  });

  it('refuses to score after close', async () => {
    // Arrange
    const closing = await loadOnnxCrossEncoder({
      id: 'closing',
      folder: FIXTURE_MODEL_DIR,
      modelFile: FIXTURE_MODEL_FILE,
      inWorkerThread: true,
    });
    await closing.close();

    // Act / Assert
    await expect(closing.score(query, ['x'])).rejects.toThrow(/closed/);
  });

  it('picks the int8 file for variant int8 and reports a missing fp32 one', async () => {
    // Act
    const int8 = await loadOnnxCrossEncoder({ id: 'int8', folder: FIXTURE_MODEL_DIR, variant: 'int8', threads: 1 });
    const result = await int8.score(query, [cases[0]!.document]);
    await int8.close();

    // Assert
    expect(Math.abs(result.scores[0]! - cases[0]!.logit)).toBeLessThan(1e-4);
    await expect(loadOnnxCrossEncoder({ id: 'fp32', folder: FIXTURE_MODEL_DIR, variant: 'fp32' })).rejects.toThrow(/no fp32 ONNX model/);
  });
});

describe('defaultIntraOpThreads', () => {
  it('uses every CPU outside Lambda', () => {
    expect(defaultIntraOpThreads({}, 8)).toBe(8);
  });

  it('follows the Lambda memory size (1,769 MB per vCPU), capped by the CPUs seen', () => {
    expect(defaultIntraOpThreads({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' }, 2)).toBe(1);
    expect(defaultIntraOpThreads({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3538' }, 6)).toBe(2);
    expect(defaultIntraOpThreads({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240' }, 6)).toBe(6);
    expect(defaultIntraOpThreads({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240' }, 2)).toBe(2);
  });
});
