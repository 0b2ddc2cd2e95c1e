import { randomUUID } from 'node:crypto';
import type { JobSpec } from '../../shared/jobs/job-model.js';

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A fresh job spec with a unique id, so contract tests can share one table/store without interfering. */
export function makeSpec(overrides: Partial<JobSpec> = {}): JobSpec {
  return {
    id: randomUUID(),
    dialect: 'openai',
    ownerKeyId: 'key-1',
    model: 'rerank-test',
    documentCount: 100,
    chunkCount: 20,
    topN: 5,
    threshold: 0.25,
    returnDocuments: true,
    activation: 'sigmoid',
    expiresAt: nowSeconds() + 3600,
    ...overrides,
  };
}

/** Bit patterns, so -0 vs 0 and NaN payloads are compared exactly rather than by numeric equality. */
export const bits = (values: readonly number[]): string[] =>
  values.map((v) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v);
    return view.getBigUint64(0).toString(16);
  });
