import { describe, expect, it } from 'vitest';
import type { BatchTask } from '../../../shared/engine/batch-task.js';
import type { EngineTask } from '../../../shared/engine/engine-task.js';
import type { ChunkTask } from '../../../shared/engine/job-task.js';
import { decodeTask, encodeTask, readDeadLetteredTask } from '../../../shared/engine/task-codec.js';

const JOB = '3f1c2d9e-7b4a-4e61-9d0f-5a8c2b7e1f30';
const BATCH = 'batch_9b2e4c1a7d3f4e8a9c0b1d2e3f4a5b6c';
const chunk: ChunkTask = {
  jobId: JOB,
  chunkIndex: 0,
  offset: 0,
  model: 'tinybert-l2-fixture',
  query: 'how do neural networks learn to rank',
  documents: ['ranking with gradients', 'a panda eats bamboo'],
  maxDocumentTokens: 128,
  instruction: 'Judge relevance',
  chunkCount: 1,
};
const grouped: BatchTask = {
  kind: 'chunk',
  batchId: BATCH,
  line: 3,
  chunkIndex: 0,
  offset: 0,
  count: 5,
  corpusRange: { start: 0, end: 120 },
  lines: [3, 4, 9],
  shards: [
    { offset: 0, count: 2, range: { start: 0, end: 50 } },
    { offset: 2, count: 3, range: { start: 50, end: 120 } },
  ],
};

/**
 * Message bodies exactly as the job and batch codecs encoded them before the envelope (printed by those encoders, not
 * built by this build): messages in flight across the deploy must decode to the same tasks.
 */
const PINNED: readonly (readonly [string, EngineTask])[] = [
  [
    '{"jobId":"3f1c2d9e-7b4a-4e61-9d0f-5a8c2b7e1f30","chunkIndex":0,"offset":0,"model":"tinybert-l2-fixture","query":"how do neural networks learn to rank","documents":["ranking with gradients","a panda eats bamboo"],"maxDocumentTokens":128,"instruction":"Judge relevance","chunkCount":1}',
    chunk,
  ],
  [
    '{"jobId":"3f1c2d9e-7b4a-4e61-9d0f-5a8c2b7e1f30","chunkIndex":0,"offset":0,"model":"tinybert-l2-fixture","query":"how do neural networks learn to rank","documents":["ranking with gradients","a panda eats bamboo"],"maxDocumentTokens":128,"instruction":"Judge relevance","maxQueryTokens":32,"truncationSide":"left","chunkCount":1}',
    { ...chunk, maxQueryTokens: 32, truncationSide: 'left' },
  ],
  ['{"kind":"merge","jobId":"3f1c2d9e-7b4a-4e61-9d0f-5a8c2b7e1f30"}', { kind: 'finish', jobId: JOB }],
  ['{"kind":"plan","batchId":"batch_9b2e4c1a7d3f4e8a9c0b1d2e3f4a5b6c"}', { kind: 'plan', batchId: BATCH }],
  ['{"kind":"finalize","batchId":"batch_9b2e4c1a7d3f4e8a9c0b1d2e3f4a5b6c"}', { kind: 'finalize', batchId: BATCH }],
  [
    '{"kind":"chunk","batchId":"batch_9b2e4c1a7d3f4e8a9c0b1d2e3f4a5b6c","line":7,"chunkIndex":1,"offset":64,"count":64}',
    { kind: 'chunk', batchId: BATCH, line: 7, chunkIndex: 1, offset: 64, count: 64 },
  ],
  [
    '{"kind":"chunk","batchId":"batch_9b2e4c1a7d3f4e8a9c0b1d2e3f4a5b6c","line":3,"chunkIndex":0,"offset":0,"count":5,"corpusRange":{"start":0,"end":120},"lines":[3,4,9],"shards":[{"offset":0,"count":2,"range":{"start":0,"end":50}},{"offset":2,"count":3,"range":{"start":50,"end":120}}]}',
    grouped,
  ],
];

describe('one task envelope and codec for both lanes', () => {
  it('still decodes the two wire forms stacks sent before the envelope (pinned bodies)', () => {
    for (const [body, task] of PINNED) expect(decodeTask(body), body).toStrictEqual(task);
  });

  it('encodes every task as the envelope: owner, kind, chunk, candidates inline or by byte range', () => {
    expect(JSON.parse(encodeTask(chunk))).toStrictEqual({
      owner: { job: JOB },
      kind: 'chunk',
      chunk: { index: 0, offset: 0, count: 2, of: 1 },
      candidates: {
        inline: {
          model: chunk.model,
          query: chunk.query,
          documents: chunk.documents,
          maxDocumentTokens: 128,
          instruction: 'Judge relevance',
        },
      },
    });
    expect(JSON.parse(encodeTask({ kind: 'finish', jobId: JOB }))).toStrictEqual({ owner: { job: JOB }, kind: 'finish' });
    expect(JSON.parse(encodeTask({ kind: 'plan', batchId: BATCH }))).toStrictEqual({ owner: { batch: BATCH }, kind: 'plan' });
    expect(JSON.parse(encodeTask(grouped))).toStrictEqual({
      owner: { batch: BATCH, line: 3, lines: [3, 4, 9] },
      kind: 'chunk',
      chunk: { index: 0, offset: 0, count: 5 },
      candidates: { range: { start: 0, end: 120 }, shards: (grouped as { shards: unknown }).shards },
    });
    for (const [, task] of PINNED) expect(decodeTask(encodeTask(task))).toStrictEqual(task);
  });

  it('throws on a poison message in either form', () => {
    for (const body of [
      '{}',
      'null',
      '[]',
      '{"jobId":"j"}',
      '{"kind":"merge"}',
      '{"kind":"nope","batchId":"b"}',
      '{"kind":"chunk","batchId":"b"}',
      '{"owner":{}}',
      '{"owner":{"job":"j"},"kind":"plan"}',
      '{"owner":{"job":"j"},"kind":"chunk","chunk":{"index":0,"offset":0,"count":2},"candidates":{"inline":{"model":"m","query":"q","documents":["a"]}}}',
      '{"owner":{"batch":"b"},"kind":"finish"}',
      '{"owner":{"batch":"b","line":1},"kind":"chunk","chunk":{"index":0,"offset":0,"count":1},"candidates":{"inline":{}}}',
    ]) {
      expect(() => decodeTask(body), body).toThrow();
    }
    // A group names its first line: in the envelope, the owner's `lines` lead with its `line`.
    expect(() =>
      decodeTask(
        '{"owner":{"batch":"b","line":1,"lines":[2,1]},"kind":"chunk","chunk":{"index":0,"offset":0,"count":1},"candidates":{"range":{"start":0,"end":5}}}',
      ),
    ).toThrow(TypeError);
  });

  it('reads a dead-lettered message in either form for what it can still end: a whole batch task, or a job from its id alone', () => {
    expect(readDeadLetteredTask(encodeTask({ kind: 'plan', batchId: 'b' }))).toStrictEqual({
      of: 'batch',
      task: { kind: 'plan', batchId: 'b' },
    });
    expect(readDeadLetteredTask('{"kind":"plan","batchId":"b"}')).toStrictEqual({ of: 'batch', task: { kind: 'plan', batchId: 'b' } });
    for (const body of [
      '{"jobId":"job-1","chunkIndex":4,"documents":"poison"}',
      '{"owner":{"job":"job-1"},"kind":"chunk","chunk":{"index":4},"candidates":7}',
    ])
      expect(readDeadLetteredTask(body), body).toMatchObject({
        of: 'job',
        jobId: 'job-1',
        chunkIndex: 4,
        reason: expect.stringContaining('chunk 4'),
      });
    for (const body of ['{"kind":"merge","jobId":"job-1"}', encodeTask({ kind: 'finish', jobId: 'job-1' })])
      expect(readDeadLetteredTask(body), body).toMatchObject({
        of: 'job',
        jobId: 'job-1',
        chunkIndex: undefined,
        reason: expect.stringContaining('merge'),
      });
    for (const body of ['not json', '{"kind":"chunk","batchId":"b"}', '{"owner":{"batch":"b"},"kind":"chunk"}', '{"chunkIndex":1}', '7'])
      expect(readDeadLetteredTask(body), body).toBeUndefined();
  });
});
