import type { ByteRange } from '../files/file-store.js';
import { checkBatchTask, type BatchChunkTask, type BatchTask, type TaskShard } from './batch-task.js';
import { isJobTask, type EngineTask } from './engine-task.js';
import { checkChunkTask, finishTask, isFinishTask, type ChunkTask, type JobTask } from './job-task.js';

/**
 * The one wire form of every task of the async engine, whichever queue carries it: whose it is (`owner`: a job, or a
 * batch and the line or lines a chunk scores), what to do (`kind`: chunk, finish, plan, finalize), which documents a
 * chunk is (`chunk`: index, first document, count, the request's chunks in all) and where its candidates are
 * (`candidates`: inline, or a corpus file's byte range; absent for a batch line scoring its own documents).
 */
export interface TaskEnvelope {
  readonly owner: { readonly job: string } | { readonly batch: string; readonly line?: number; readonly lines?: readonly number[] };
  readonly kind: 'chunk' | 'finish' | 'plan' | 'finalize';
  readonly chunk?: { readonly index: number; readonly offset: number; readonly count: number; readonly of?: number };
  readonly candidates?: { readonly inline: InlineCandidates } | { readonly range: ByteRange; readonly shards?: readonly TaskShard[] };
}

/** A job chunk's candidates and the request's controls its scoring applies. */
type InlineCandidates = Pick<ChunkTask, 'model' | 'query' | 'documents' | (typeof CONTROLS)[number]>;

/** The request's optional controls a job's chunk carries inline, each kept only when set. */
const CONTROLS = ['maxDocumentTokens', 'instruction', 'maxQueryTokens', 'truncationSide'] as const;
const setControls = (from: Fields): Fields => Object.fromEntries(CONTROLS.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

function jobEnvelope(task: JobTask): TaskEnvelope {
  if (isFinishTask(task)) return { owner: { job: task.jobId }, kind: 'finish' };
  const { jobId, chunkIndex, offset, chunkCount, model, query, documents } = task;
  const inline = { model, query, documents, ...setControls(task as unknown as Fields) } as InlineCandidates;
  const chunk = { index: chunkIndex, offset, count: documents.length, ...(chunkCount === undefined ? {} : { of: chunkCount }) };
  return { owner: { job: jobId }, kind: 'chunk', chunk, candidates: { inline } };
}

function batchEnvelope(task: BatchTask): TaskEnvelope {
  if (task.kind !== 'chunk') return { owner: { batch: task.batchId }, kind: task.kind };
  const { batchId, line, lines, chunkIndex, offset, count, corpusRange, shards } = task;
  return {
    owner: { batch: batchId, line, ...(lines === undefined ? {} : { lines }) },
    kind: 'chunk',
    chunk: { index: chunkIndex, offset, count },
    ...(corpusRange === undefined ? {} : { candidates: { range: corpusRange, ...(shards === undefined ? {} : { shards }) } }),
  };
}

/** A task's message body: the envelope as JSON (a job's candidates inline, a batch's references only). */
export const encodeTask = (task: EngineTask): string => JSON.stringify(isJobTask(task) ? jobEnvelope(task) : batchEnvelope(task));

/** A job's task from its envelope's fields, checked as the job's own (finishTask, checkChunkTask). */
function jobTaskOf(jobId: unknown, value: Fields): JobTask {
  if (value['kind'] === 'finish') return finishTask(jobId);
  const chunk = isObject(value['chunk']) ? value['chunk'] : {};
  const candidates = isObject(value['candidates']) ? value['candidates'] : {};
  const inline = isObject(candidates['inline']) ? candidates['inline'] : {};
  if (value['kind'] !== 'chunk' || !Array.isArray(inline['documents']) || chunk['count'] !== inline['documents'].length)
    throw new TypeError('malformed job task message');
  const { model, query, documents } = inline;
  return checkChunkTask({
    jobId,
    chunkIndex: chunk['index'],
    offset: chunk['offset'],
    model,
    query,
    documents,
    ...setControls(inline),
    ...(chunk['of'] === undefined ? {} : { chunkCount: chunk['of'] }),
  });
}

/** A batch's task from its envelope's fields, checked as the batch's own (checkBatchTask). */
function batchTaskOf(owner: Fields, value: Fields): BatchTask {
  if (value['kind'] !== 'chunk') return checkBatchTask({ kind: value['kind'], batchId: owner['batch'] });
  const chunk = isObject(value['chunk']) ? value['chunk'] : {};
  const candidates = value['candidates'];
  if (candidates !== undefined && (!isObject(candidates) || candidates['range'] === undefined))
    throw new TypeError('malformed batch chunk task message');
  const task: Fields = {
    kind: 'chunk',
    batchId: owner['batch'],
    line: owner['line'],
    chunkIndex: chunk['index'],
    offset: chunk['offset'],
    count: chunk['count'],
    ...(candidates === undefined ? {} : { corpusRange: candidates['range'] }),
    ...(owner['lines'] === undefined ? {} : { lines: owner['lines'] }),
    ...(candidates?.['shards'] === undefined ? {} : { shards: candidates['shards'] }),
  };
  return checkBatchTask(task) as BatchChunkTask;
}

/** A job's task in the form stacks sent before the envelope (see decodeTask), where its finish was `merge`. */
function legacyJobTask(value: Fields): JobTask {
  return value['kind'] === 'merge' ? finishTask(value['jobId']) : checkChunkTask(value);
}

/**
 * A task message body back into the task its lane built; anything malformed is a poison message and throws.
 *
 * Compatibility, for one release: a body without `owner` is one of the two forms stacks sent before the envelope (and
 * may still be in flight across the deploy): a job's chunk (its ChunkTask as JSON) or finish (then named `merge`:
 * `{"kind":"merge","jobId"}`), or a batch's task (its BatchTask as JSON, named by `batchId`). They decode to the same tasks.
 */
export function decodeTask(body: string): EngineTask {
  const value: unknown = JSON.parse(body);
  if (!isObject(value)) throw new TypeError('malformed task message');
  const owner = value['owner'];
  if (owner === undefined) return typeof value['batchId'] === 'string' ? checkBatchTask(value) : legacyJobTask(value);
  if (isObject(owner) && typeof owner['job'] === 'string') return jobTaskOf(owner['job'], value);
  if (isObject(owner) && typeof owner['batch'] === 'string') return batchTaskOf(owner, value);
  throw new TypeError('malformed task message');
}

/** A job queue's message: throws unless it is a job's task. */
export function decodeJobTask(body: string): JobTask {
  const task = decodeTask(body);
  if (!isJobTask(task)) throw new TypeError('a batch task on a job queue');
  return task;
}

/** A job's chunk message (the chunk queue's contract tests read these). */
export function decodeChunkTask(body: string): ChunkTask {
  const task = decodeJobTask(body);
  if (isFinishTask(task)) throw new TypeError('a finish task where a chunk task was expected');
  return task;
}

/** A batch queue's message: throws unless it is a batch's task. */
export function decodeBatchTask(body: string): BatchTask {
  const task = decodeTask(body);
  if (isJobTask(task)) throw new TypeError('a job task on a batch queue');
  return task;
}

/** What a dead-lettered message still says: the batch task to end, or the job (and chunk) to fail. */
export type DeadLetteredTask =
  | { readonly of: 'batch'; readonly task: BatchTask }
  | { readonly of: 'job'; readonly jobId: string; readonly chunkIndex: number | undefined; readonly reason: string };

/** A job's part of a dead-lettered body, read field by field: even a poison chunk names its job and chunk. */
function deadJob(value: Fields): { jobId: unknown; chunkIndex: unknown; finish: boolean } {
  const owner = value['owner'];
  if (owner === undefined) return { jobId: value['jobId'], chunkIndex: value['chunkIndex'], finish: value['kind'] === 'merge' };
  const chunk = isObject(value['chunk']) ? value['chunk'] : {};
  return { jobId: isObject(owner) ? owner['job'] : undefined, chunkIndex: chunk['index'], finish: value['kind'] === 'finish' };
}

/**
 * The reading of a dead-lettered message (either wire form decodeTask reads): a batch task must decode whole (its
 * handler needs its line or its batch); a job's message needs only its job id (and chunk index), so even a poison chunk
 * fails its job instead of leaving it waiting. Undefined when unreadable.
 */
export function readDeadLetteredTask(body: string): DeadLetteredTask | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const owner = value['owner'];
  if (typeof value['batchId'] === 'string' || (isObject(owner) && typeof owner['batch'] === 'string')) {
    try {
      return { of: 'batch', task: decodeBatchTask(body) };
    } catch {
      return undefined;
    }
  }
  const { jobId, chunkIndex, finish } = deadJob(value);
  if (typeof jobId !== 'string') return undefined;
  if (finish) {
    const reason = 'the job could not be merged: its merge failed on every delivery and was moved to the dead-letter queue';
    return { of: 'job', jobId, chunkIndex: undefined, reason };
  }
  // No attempt count in the reason: ApproximateReceiveCount keeps counting on the dead-letter queue.
  const index = typeof chunkIndex === 'number' ? chunkIndex : undefined;
  const reason = `${index === undefined ? 'a chunk' : `chunk ${index}`} could not be scored: it failed on every delivery and was moved to the dead-letter queue`;
  return { of: 'job', jobId, chunkIndex: index, reason };
}
