import { describe, expect, it } from 'vitest';
import { linesOf, type BatchTask } from '../../../shared/batches/batch-model.js';
import { decodeBatchTask, encodeTask } from '../../../shared/engine/task-codec.js';

describe('batch task messages', () => {
  it('round-trip every kind of task', () => {
    const tasks: BatchTask[] = [
      { kind: 'plan', batchId: 'batch_1' },
      { kind: 'chunk', batchId: 'batch_1', line: 3, chunkIndex: 2, offset: 128, count: 64 },
      { kind: 'chunk', batchId: 'batch_1', line: 4, chunkIndex: 0, offset: 0, count: 1000, corpusRange: { start: 10, end: 90_000 } },
      // A group of lines over one stored corpus: one shard for all of them.
      {
        kind: 'chunk',
        batchId: 'batch_1',
        line: 4,
        chunkIndex: 7,
        offset: 7000,
        count: 1000,
        corpusRange: { start: 10, end: 90_000 },
        lines: [4, 5, 9],
      },
      // A group's task over a span of three stored shards.
      {
        kind: 'chunk',
        batchId: 'batch_1',
        line: 4,
        chunkIndex: 1,
        offset: 300,
        count: 250,
        corpusRange: { start: 1000, end: 4000 },
        lines: [4, 5],
        shards: [
          { offset: 300, count: 100, range: { start: 1000, end: 2000 } },
          { offset: 400, count: 100, range: { start: 2001, end: 3000 } },
          { offset: 500, count: 50, range: { start: 3001, end: 4000 } },
        ],
      },
      { kind: 'finalize', batchId: 'batch_1' },
    ];
    for (const task of tasks) expect(decodeBatchTask(encodeTask(task))).toEqual(task);
  });

  it('still reads the chunk messages stacks sent before lines were grouped (one line, no `lines`)', () => {
    const old =
      '{"kind":"chunk","batchId":"batch_1","line":4,"chunkIndex":0,"offset":0,"count":1000,"corpusRange":{"start":10,"end":90000}}';
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
      // Spans: over a corpus only, their shards consecutive, together exactly the task's documents and bytes, bounded.
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":2,"shards":[{"offset":0,"count":2,"range":{"start":0,"end":5}}]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":2,"corpusRange":{"start":0,"end":9},"shards":[{"offset":0,"count":1,"range":{"start":0,"end":4}},{"offset":2,"count":1,"range":{"start":5,"end":9}}]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":3,"corpusRange":{"start":0,"end":9},"shards":[{"offset":0,"count":1,"range":{"start":0,"end":4}},{"offset":1,"count":1,"range":{"start":5,"end":9}}]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":2,"corpusRange":{"start":0,"end":9},"shards":[{"offset":0,"count":1,"range":{"start":0,"end":6}},{"offset":1,"count":1,"range":{"start":5,"end":9}}]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":2,"corpusRange":{"start":0,"end":9},"shards":[]}',
      '{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":2,"corpusRange":{"start":0,"end":9},"shards":[{"offset":0,"count":1,"range":{"start":0,"end":4}},{"offset":1,"count":"1","range":{"start":5,"end":9}}]}',
      `{"kind":"chunk","batchId":"b","line":1,"chunkIndex":0,"offset":0,"count":257,"corpusRange":{"start":0,"end":257},"shards":[${Array.from({ length: 257 }, (_, i) => `{"offset":${i},"count":1,"range":{"start":${i},"end":${i + 1}}}`).join()}]}`,
    ]) {
      expect(() => decodeBatchTask(body), body).toThrow(TypeError);
    }
    expect(() => decodeBatchTask('{not json')).toThrow(SyntaxError);
  });
});
