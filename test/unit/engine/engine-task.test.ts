import { describe, expect, it } from 'vitest';
import { encodeBatchTask } from '../../../shared/engine/batch-task-codec.js';
import { decodeEngineTask, readDeadLetteredTask } from '../../../shared/engine/engine-task.js';
import { encodeChunkTask } from '../../../shared/engine/job-task-codec.js';
import type { ChunkTask } from '../../../shared/jobs/job-model.js';

const chunk: ChunkTask = { jobId: 'job-1', chunkIndex: 2, offset: 100, model: 'm', query: 'q', documents: ['a', 'b'] };

describe('one task codec for jobs and batches', () => {
  it('decodes every task message either queue carries, in the wire forms deployed stacks already send', () => {
    expect(decodeEngineTask(encodeChunkTask(chunk))).toStrictEqual({ of: 'job', task: chunk });
    // A chunk task of a stack deployed before the change: the literal body, not one this build encoded.
    expect(decodeEngineTask('{"jobId":"job-1","chunkIndex":0,"offset":0,"model":"m","query":"q","documents":["a"]}')).toMatchObject({
      of: 'job',
      task: { jobId: 'job-1' },
    });
    expect(decodeEngineTask('{"kind":"merge","jobId":"job-1"}')).toStrictEqual({ of: 'job', task: { kind: 'merge', jobId: 'job-1' } });
    for (const task of [
      { kind: 'plan', batchId: 'b' },
      { kind: 'finalize', batchId: 'b' },
      { kind: 'chunk', batchId: 'b', line: 3, chunkIndex: 0, offset: 0, count: 5 },
    ] as const) {
      expect(decodeEngineTask(encodeBatchTask(task))).toStrictEqual({ of: 'batch', task });
    }
  });

  it('throws on a poison message of either kind', () => {
    for (const body of [
      '{}',
      '{"jobId":"j"}',
      '{"kind":"merge"}',
      '{"kind":"nope","batchId":"b"}',
      '{"kind":"chunk","batchId":"b"}',
      'null',
      '[]',
    ]) {
      expect(() => decodeEngineTask(body), body).toThrow();
    }
  });

  it('reads a dead-lettered message for what it can still end: a whole batch task, or a job from its id alone', () => {
    expect(readDeadLetteredTask(encodeBatchTask({ kind: 'plan', batchId: 'b' }))).toStrictEqual({
      of: 'batch',
      task: { kind: 'plan', batchId: 'b' },
    });
    expect(readDeadLetteredTask('{"jobId":"job-1","chunkIndex":4,"documents":"poison"}')).toMatchObject({
      of: 'job',
      jobId: 'job-1',
      chunkIndex: 4,
    });
    expect(readDeadLetteredTask('{"kind":"merge","jobId":"job-1"}')).toMatchObject({ of: 'job', jobId: 'job-1', chunkIndex: undefined });
    for (const body of ['not json', '{"kind":"chunk","batchId":"b"}', '{"chunkIndex":1}', '7'])
      expect(readDeadLetteredTask(body), body).toBeUndefined();
  });
});
