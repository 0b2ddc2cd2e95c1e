/**
 * Batch items on the jobs table (the key schema of job-table-keys.ts). A batch's META sits alone; its requests,
 * chunk scores, results and progress counters are spread over SHARDS partitions by line, so thousands of workers
 * finishing chunks of one batch write to many partitions instead of one (a partition takes ~1,000 writes/s).
 * Sort keys are zero-padded so each shard's Query returns lines in order; readers merge the shards by line.
 */
export const BATCH_SHARDS = 16;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export const BATCH_META_SK = 'META';
export const REQUEST_SK_PREFIX = 'REQ#';
const SCORES_SK_PREFIX = 'SCORES#';
export const BATCH_RESULT_SK_PREFIX = 'RESULT#';
export const PROGRESS_SK = 'PROGRESS';
const COUNT_SK_PREFIX = 'COUNT#';

/**
 * A request's chunks are counted on counter items of at most this many chunks each (chunk i on counter
 * i % counters), so no item's set of counted chunks grows with the request (an update's cost grows with its item)
 * and a 1M-document request's counts spread over partitions instead of one.
 */
export const CHUNKS_PER_COUNTER = 64;
export const counterCount = (chunkCount: number): number => Math.max(1, Math.ceil(chunkCount / CHUNKS_PER_COUNTER));
export const counterOfChunk = (chunkIndex: number, chunkCount: number): number => chunkIndex % counterCount(chunkCount);
/** Chunks counted on counter `counter`: the indices below chunkCount congruent to it. */
export const chunksOfCounter = (counter: number, chunkCount: number): number =>
  counter >= chunkCount ? 0 : Math.floor((chunkCount - 1 - counter) / counterCount(chunkCount)) + 1;
/** Counter `counter` of line `line`, and the scores of its chunks, live on partition (line + counter) mod SHARDS. */
export const counterShardPk = (batchId: string, line: number, counter: number): string =>
  batchShardPk(batchId, (line + counter) % BATCH_SHARDS);
export const countSk = (line: number, counter: number): string => `${COUNT_SK_PREFIX}${pad(line, 10)}#${pad(counter, 6)}`;

export const batchPk = (batchId: string): string => `BATCH#${batchId}`;
const shardOfLine = (line: number): number => line % BATCH_SHARDS;
export const batchShardPk = (batchId: string, shard: number): string => `BATCH#${batchId}#S${pad(shard, 2)}`;
export const lineShardPk = (batchId: string, line: number): string => batchShardPk(batchId, shardOfLine(line));

export const requestSk = (line: number): string => `${REQUEST_SK_PREFIX}${pad(line, 10)}`;
export const scoresPrefix = (line: number): string => `${SCORES_SK_PREFIX}${pad(line, 10)}#`;
export const scoresSk = (line: number, chunkIndex: number): string => `${scoresPrefix(line)}${pad(chunkIndex, 8)}`;
export const resultPrefix = (line: number): string => `${BATCH_RESULT_SK_PREFIX}${pad(line, 10)}#`;
export const resultSk = (line: number, page: number): string => `${resultPrefix(line)}${pad(page, 4)}`;
/** The line number a REQ#/RESULT# sort key carries. */
export const lineOfSk = (sk: string): number => Number(sk.slice(sk.indexOf('#') + 1, sk.indexOf('#') + 11));

/** A key's batches, newest first: the sort key leads with the creation second. */
export const ownerBatchesPk = (ownerKeyId: string): string => `BATCHES#${ownerKeyId}`;
export const ownerBatchSk = (createdAt: number, batchId: string): string => `${pad(createdAt, 12)}#${batchId}`;
/** Batches not yet in a terminal status, for the expiry sweep and the running-batch quota (few at a time). */
export const ACTIVE_BATCHES_PK = 'BATCHES_ACTIVE';
