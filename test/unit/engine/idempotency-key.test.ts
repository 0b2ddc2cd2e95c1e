import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReusedError, idempotentBatchId, idempotentJobId, replayOf } from '../../../shared/engine/idempotency-key.js';

describe('one idempotency helper for jobs and batches', () => {
  it('maps a (key owner, Idempotency-Key) pair to the ids deployed stacks already hold (a retry across the change finds its first create)', () => {
    // Values of the job coordinator's and the batch engine's own derivations before they were merged here.
    expect(idempotentJobId('key-1', 'retry-me')).toBe('bb996014-cd00-8069-ab4c-4e37aebd56f4');
    expect(idempotentBatchId('key-1', 'retry-me')).toBe('batch_80efb345965e583ba09ac82048a70beb');
    expect(idempotentBatchId('key-2', 'retry-me')).not.toBe(idempotentBatchId('key-1', 'retry-me'));
  });

  it("replays the owner's own record for the same request, refuses another request (422), and never shows another owner's", () => {
    const record = { id: 'x', ownerKeyId: 'key-1', requestHash: 'h1' };
    expect(replayOf(record, 'key-1', 'h1', 'job')).toBe(record);
    expect(replayOf(undefined, 'key-1', 'h1', 'job')).toBeUndefined();
    expect(replayOf(record, 'key-2', 'h1', 'batch')).toBeUndefined();
    expect(() => replayOf(record, 'key-1', 'h2', 'batch')).toThrow(IdempotencyKeyReusedError);
    expect(() => replayOf(record, 'key-1', 'h2', 'batch')).toThrow(/different batch request/);
  });
});
