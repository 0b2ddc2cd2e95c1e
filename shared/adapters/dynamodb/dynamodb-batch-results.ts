import { DeleteItemCommand, TransactWriteItemsCommand, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { BatchRequestResult } from '../../batches/batch-model.js';
import { forEachBounded } from '../../core/for-each-bounded.js';
import { joinPages, splitIntoPages } from './byte-pages.js';
import { isConditionFailure } from './condition-failed.js';
import {
  BATCH_RESULT_SK_PREFIX,
  BATCH_SHARDS,
  PROGRESS_SK,
  batchShardPk,
  lineOfSk,
  lineShardPk,
  requestSk,
  resultPrefix,
  resultSk,
} from './batch-table-keys.js';
import { lineItemTtl, n, partitionItems, s, shardQueries, type BatchTable } from './batch-table-items.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { batchGetItems, mergeSorted, queryItems, type Item } from './query-items.js';
import { sendTransactionWithRetry } from './transact-with-retry.js';

/** A transaction carries at most 4 MB: a result line longer than this cannot be kept in one. */
const MAX_RESULT_BYTES = 3_500_000;

/**
 * A batch's result lines on the jobs table: a result is kept once (its first page's condition) and counted on its
 * shard's PROGRESS item in the same transaction, which also marks the request finished, so a second finalizer of the
 * same line changes and counts nothing.
 */
export class DynamoDbBatchResults {
  readonly #t: BatchTable;

  constructor(table: BatchTable) {
    this.#t = table;
  }

  async putResult(batchId: string, result: BatchRequestResult): Promise<boolean> {
    const bytes = new TextEncoder().encode(result.jsonl);
    if (bytes.byteLength > MAX_RESULT_BYTES) {
      throw new RangeError(
        `result of line ${result.line} is ${bytes.byteLength} bytes; a batch result line is kept up to ${MAX_RESULT_BYTES}`,
      );
    }
    const pk = s(lineShardPk(batchId, result.line));
    const ttl = lineItemTtl(this.#t);
    const pages = splitIntoPages(bytes, this.#t.pageBytes);
    if (pages.length === 0) pages.push(new Uint8Array());
    const items: TransactWriteItem[] = pages.map((page, i) => ({
      Put: {
        TableName: this.#t.table,
        Item: {
          [PK]: pk,
          [SK]: s(resultSk(result.line, i)),
          outcome: s(result.outcome),
          pages: n(pages.length),
          body: { B: page },
          [TTL]: ttl,
        },
        // The first page decides: a second finalizer of the same line changes and counts nothing.
        ...(i === 0 ? { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': PK } } : {}),
      },
    }));
    items.push(...this.#finishAndCount(pk, result, ttl));
    try {
      await sendTransactionWithRetry(this.#t.client, new TransactWriteItemsCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The request's finished flag (its chunk counts stop) and its shard's count of the outcome. */
  #finishAndCount(pk: { S: string }, result: BatchRequestResult, ttl: { N: string }): TransactWriteItem[] {
    const TableName = this.#t.table;
    return [
      {
        Update: {
          TableName,
          Key: { [PK]: pk, [SK]: s(requestSk(result.line)) },
          UpdateExpression: 'SET #finished = :yes',
          ExpressionAttributeNames: { '#finished': 'finished' },
          ExpressionAttributeValues: { ':yes': { BOOL: true } },
        },
      },
      {
        Update: {
          TableName,
          Key: { [PK]: pk, [SK]: s(PROGRESS_SK) },
          UpdateExpression: 'ADD #outcome :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#outcome': result.outcome, '#ttl': TTL },
          ExpressionAttributeValues: { ':one': n(1), ':ttl': ttl },
        },
      },
    ];
  }

  async getResult(batchId: string, line: number): Promise<BatchRequestResult | undefined> {
    const pages: Item[] = [];
    for await (const item of partitionItems(this.#t, lineShardPk(batchId, line), resultPrefix(line))) pages.push(item);
    return pages.length === 0 ? undefined : resultOf(line, pages);
  }

  async *readResults(batchId: string): AsyncIterable<BatchRequestResult> {
    let pages: Item[] = [];
    for await (const item of mergeSorted(shardQueries(this.#t, batchId, BATCH_RESULT_SK_PREFIX), (i) => lineOfSk(i[SK]?.S ?? ''))) {
      pages.push(item);
      if (pages.length === Number(item['pages']?.N)) {
        yield resultOf(lineOfSk(item[SK]?.S ?? ''), pages);
        pages = [];
      }
    }
  }

  /** Deletes every plan, chunk score and result item of the batch; the PROGRESS counters (its request counts) stay. */
  async dropWork(batchId: string): Promise<void> {
    const { client, table } = this.#t;
    const shards = Array.from({ length: BATCH_SHARDS }, (_, shard) => shard);
    await forEachBounded(shards, this.#t.concurrency, async (shard) => {
      for await (const item of queryItems(client, {
        TableName: table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
        ExpressionAttributeValues: { ':pk': s(batchShardPk(batchId, shard)) },
        ProjectionExpression: '#pk, #sk',
      })) {
        if (item[SK]?.S === PROGRESS_SK) continue;
        await client.send(
          new DeleteItemCommand({ TableName: table, Key: { [PK]: item[PK] as Item[string], [SK]: item[SK] as Item[string] } }),
        );
      }
    });
  }

  /** The shards' PROGRESS items in one BatchGetItem (16 keys; unprocessed keys are asked for again). */
  async countResults(batchId: string): Promise<{ readonly completed: number; readonly failed: number }> {
    const keys = Array.from({ length: BATCH_SHARDS }, (_, shard) => ({ [PK]: s(batchShardPk(batchId, shard)), [SK]: s(PROGRESS_SK) }));
    const counts = { completed: 0, failed: 0 };
    for await (const item of batchGetItems(this.#t.client, this.#t.table, keys)) {
      counts.completed += Number(item['completed']?.N ?? 0);
      counts.failed += Number(item['failed']?.N ?? 0);
    }
    return counts;
  }
}

function resultOf(line: number, pages: readonly Item[]): BatchRequestResult {
  const bytes = joinPages(pages.map((page) => page['body']?.B ?? new Uint8Array()));
  return { line, outcome: pages[0]?.['outcome']?.S === 'failed' ? 'failed' : 'completed', jsonl: new TextDecoder().decode(bytes) };
}
