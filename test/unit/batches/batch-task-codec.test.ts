import { describe, expect, it } from 'vitest';
import { linesOf, type BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeBatchTask, encodeBatchTask } from '../../../shared/batches/batch-task-codec.js';

describe('batch task messages', () => {
  it('round-trip every kind of task', () => {
    const tasks: BatchTask[] = [
      { kind: 'plan', batchId: 'batch_1' },
      { kind: 'chunk', batchId: 'batch_1', line: 3, chunkIndex: 2, offset: 128, count: 64 },
      { kind: 'chunk', batchId: 'batch_1', line: 4, chunkIndex: 0, offset: 0, count: 1000, corpusRange: { start: 10, end: 90_000 } },
      // A group of lines over one stored corpus: one shard for all of them.
      { kind: 'chunk', batchId: 'batch_1', line: 4, chunkIndex: 7, offset: 7000, count: 1000, corpusRange: { start: 10, end: 90_000 }, lines: [4, 5, 9] },
      { kind: 'finalize', batchId: 'batch_1' },
    ];
    for (const task of tasks) expect(decodeBatchTask(encodeBatchTask(task))).toEqual(task);
  });

  it('still reads the chunk messages stacks sent before lines were grouped (one line, no `lines`)', () => {
    const old = '{"kind":"chunk","batchId":"batch_1","line":4,"chunkIndex":0,"offset":0,"count":1000,"corpusRange":{"start":10,"end":90000}}';
    const task = decodeBatchTask(old);
    expect(task.kind === 'chunk' && linesOf(task)).toEqual([4]);
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
      // Groups: over a corpus only, led by their `line`, non-empty, counts, bounded.
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"lines":[1,2]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"corpusRange":{"start":0,"end":5},"lines":[2,1]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"corpusRange":{"start":0,"end":5},"lines":[]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"corpusRange":{"start":0,"end":5},"lines":[1,"2"]}',
      `{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":1,"corpusRange":{"start":0,"end":5},"lines":[${Array.from({ length: 1025 }, (_, i) => i + 1).join()}]}`,
    ]) {
      expect(() => decodeBatchTask(body), body).toThrow(TypeError);
    }
    expect(() => decodeBatchTask('{not json')).toThrow(SyntaxError);
  });
});
