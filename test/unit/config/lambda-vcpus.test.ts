import { describe, expect, it } from 'vitest';
import { defaultIntraOpThreads, lambdaVcpus } from '../../../shared/config/lambda-vcpus.js';
import { loadServiceConfig } from '../../../shared/config/service-config.js';

describe('lambdaVcpus', () => {
  it('gives one vCPU per started 1,769 MB, at least 1 and at most 6', () => {
    expect([128, 1769, 1770, 3538, 5307, 10_240, 20_000].map(lambdaVcpus)).toEqual([1, 1, 2, 2, 3, 6, 6]);
  });

  it('is the default thread count of a Lambda process, whatever the host reports', () => {
    const lambda = { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048' };
    expect(defaultIntraOpThreads(lambda, 72)).toBe(2);
    expect(loadServiceConfig({ ...lambda }).threads).toBe(defaultIntraOpThreads(lambda));
    expect(loadServiceConfig({ ...lambda, RERANK_THREADS: '3' }).threads).toBe(3);
  });
});
