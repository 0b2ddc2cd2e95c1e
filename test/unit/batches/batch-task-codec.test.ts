import { describe, expect, it } from 'vitest';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeBatchTask, encodeBatchTask } from '../../../shared/batches/batch-task-codec.js';

describe('batch task messages', () => {
  it('round-trip every kind of task', () => {
    const tasks: BatchTask[] = [
      { kind: 'plan', batchId: 'batch_1' },
      { kind: 'chunk', batchId: 'batch_1', line: 3, chunkIndex: 2, offset: 128, count: 64 },
      { kind: 'chunk', batchId: 'batch_1', line: 4, chunkIndex: 0, offset: 0, count: 1000, corpusRange: { start: 10, end: 90_000 } },
      { kind: 'finalize', batchId: 'batch_1' },
    ];
    for (const task of tasks) expect(decodeBatchTask(encodeBatchTask(task))).toEqual(task);
  });

  it('refuses poison messages instead of guessing', () => {
    for (const body of [
      'null',
      '[]',
      '{"kind":"plan"}',
      '{"kind":"sweep","batchId":"b"}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0}',
      '{"kind":"chunk","batchId":"b","line":-1,"chunkIndex":0,"offset":0,"count":1}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"corpusRange":{"start":"0","end":5}}',
    ]) {
      expect(() => decodeBatchTask(body), body).toThrow(TypeError);
    }
    expect(() => decodeBatchTask('{not json')).toThrow(SyntaxError);
  });
});
