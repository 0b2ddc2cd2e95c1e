import { describe, expect, it } from 'vitest';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { classifyFailure } from '../../../shared/http/classify-failure.js';

// Errors shaped like AWS SDK v3 service exceptions (unit test: no SDK call needed).
const sdkError = (name: string, extra: Record<string, unknown>) => Object.assign(new Error(name), { name, ...extra });

describe('classifyFailure', () => {
  it('turns a throttled SDK call into 429 rate_limited without its internals', () => {
    const error = classifyFailure(
      sdkError('ProvisionedThroughputExceededException', { $retryable: { throttling: true }, $metadata: { httpStatusCode: 400 } }),
    );
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.publicMessage).toBe('the service is busy; retry shortly');
  });

  it('treats an HTTP 429 from a dependency as overload too', () => {
    expect(classifyFailure(sdkError('TooManyRequestsException', { $metadata: { httpStatusCode: 429 } })).kind).toBe('rate_limited');
  });

  it('keeps RerankErrors and hides other failures as internal', () => {
    const own = new RerankError('invalid_request', 'bad top_n', { param: 'top_n' });
    expect(classifyFailure(own)).toBe(own);
    const other = classifyFailure(sdkError('ValidationException', { $metadata: { httpStatusCode: 400 } }));
    expect(other.kind).toBe('internal');
    expect(other.publicMessage).toBe('Internal server error');
  });
});
