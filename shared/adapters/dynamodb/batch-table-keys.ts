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
export const SCORES_SK_PREFIX = 'SCORES#';
export const BATCH_RESULT_SK_PREFIX = 'RESULT#';
export const PROGRESS_SK = 'PROGRESS';

export const batchPk = (batchId: string): string => `BATCH#${batchId}`;
export const shardOfLine = (line: number): number => line % BATCH_SHARDS;
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
