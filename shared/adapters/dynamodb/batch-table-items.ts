import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEFAULT_PAGE_BYTES } from './byte-pages.js';
import { BATCH_SHARDS, batchShardPk } from './batch-table-keys.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK } from './job-table-keys.js';
import { queryItems, type Item } from './query-items.js';

export interface DynamoDbBatchStoreOptions {
  /** Seconds every batch item outlives the batch's expiry before the table's TTL removes it (default 30 days). */
  readonly retentionSeconds?: number;
  /** Bytes of a result line per item; the rest of the 400 KB item limit is left for keys and names. */
  readonly pageBytes?: number;
  /** Parallel reads and deletes. */
  readonly concurrency?: number;
  /** Epoch seconds, injected so tests control time. */
  readonly clock?: () => number;
}

/** The jobs table as the batch store, its chunk ledger and its results read it, with the options settled. */
export interface BatchTable {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly retentionSeconds: number;
  readonly pageBytes: number;
  readonly concurrency: number;
  readonly clock: () => number;
}

export function batchTable(client: DynamoDBClient, table: string, options: DynamoDbBatchStoreOptions = {}): BatchTable {
  return {
    client,
    table,
    retentionSeconds: options.retentionSeconds ?? 30 * 86_400,
    pageBytes: Math.min(options.pageBytes ?? DEFAULT_PAGE_BYTES, DEFAULT_PAGE_BYTES),
    concurrency: options.concurrency ?? 8,
    clock: options.clock ?? (() => Math.floor(Date.now() / 1000)),
  };
}

export const s = (value: string) => ({ S: value });
export const n = (value: number) => ({ N: String(value) });

/** OpenAI's only completion window: a batch's items outlive any batch started now by at most this. */
const LONGEST_WINDOW_SECONDS = 86_400;

/** Per-line items expire a retention after the longest window from now: no META read on the workers' hot path. */
export const lineItemTtl = (t: BatchTable): { N: string } => n(t.clock() + LONGEST_WINDOW_SECONDS + t.retentionSeconds);

/** One partition's items under a sort-key prefix, strongly consistent (keys only on request). */
export function partitionItems(t: BatchTable, pk: string, prefix: string, keysOnly = false): AsyncGenerator<Item> {
  return queryItems(t.client, {
    TableName: t.table,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
    ExpressionAttributeValues: { ':pk': s(pk), ':prefix': s(prefix) },
    ConsistentRead: true,
    ...(keysOnly ? { ProjectionExpression: '#pk, #sk' } : {}),
  });
}

/** A batch's items under a sort-key prefix, one query per shard (merged in line order by the caller). */
export const shardQueries = (t: BatchTable, batchId: string, prefix: string): AsyncGenerator<Item>[] =>
  Array.from({ length: BATCH_SHARDS }, (_, shard) => partitionItems(t, batchShardPk(batchId, shard), prefix));
