import type { BatchTask } from '../../shared/engine/batch-task.js';
import { decodeBatchTask, decodeChunkTask } from '../../shared/engine/task-codec.js';
import type { ChunkTask } from '../../shared/engine/job-task.js';

/**
 * A lane of the engine's task queue as the contract drives it: how to make its i-th task, find i again in a delivered
 * one, read a message body back, and the lane's largest messages. Both lanes run every case on every adapter.
 */
export interface QueueLane<T> {
  readonly name: 'job' | 'batch';
  /** The lane's name on SqsTaskQueue. */
  readonly sqsLane: 'chunk' | 'batch';
  task(i: number): T;
  index(task: T): number;
  decode(body: string): T;
  /** Tasks as large as the lane sends: a job chunk carries its documents, a batch task references only. */
  large(): T[];
}

const chunk = (i: number, documents: string[] = [`doc ${i}a`, `doc ${i}b`]): ChunkTask => ({
  jobId: 'job-1',
  chunkIndex: i,
  offset: i * documents.length,
  model: 'rerank-test',
  query: 'what is a queue?',
  documents,
});

export const JOB_LANE: QueueLane<ChunkTask> = {
  name: 'job',
  sqsLane: 'chunk',
  task: (i) => chunk(i),
  index: (task) => task.chunkIndex,
  decode: decodeChunkTask,
  // A 900 KB chunk, and twelve of 200 KB that must go out in several SendMessageBatch calls.
  large: () => [
    chunk(
      0,
      Array.from({ length: 9 }, (_, i) => `${i}`.repeat(100_000)),
    ),
    ...Array.from({ length: 12 }, (_, i) => chunk(i + 1, ['y'.repeat(200_000)])),
  ],
};

/** Plan, chunk (own documents; a corpus range over a group of lines) and finalize tasks, in turn by index. */
function batchTask(i: number): BatchTask {
  const batchId = `batch_contract_${i}`;
  if (i % 4 === 0) return { kind: 'plan', batchId };
  if (i % 4 === 3) return { kind: 'finalize', batchId };
  const group = i % 4 === 2 ? { corpusRange: { start: i * 4096, end: (i + 1) * 4096 }, lines: [i, i + 1, i + 2] } : {};
  return { kind: 'chunk', batchId, line: i, chunkIndex: i, offset: i * 64, count: 64, ...group };
}

export const BATCH_LANE: QueueLane<BatchTask> = {
  name: 'batch',
  sqsLane: 'batch',
  task: batchTask,
  // The index is in the batch id: plan and finalize tasks carry nothing else.
  index: (task) => Number(task.batchId.slice('batch_contract_'.length)),
  decode: decodeBatchTask,
  // A planner's round: 130 tasks, thirteen SendMessageBatch calls of ten.
  large: () => Array.from({ length: 130 }, (_, i) => batchTask(i)),
};
