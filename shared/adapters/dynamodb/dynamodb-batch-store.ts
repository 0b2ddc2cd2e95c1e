import {
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from './condition-failed.js';
import {
  isTerminal,
  mayLeaseFinalize,
  type FinalizeLease,
  type BatchChunkScores,
  type BatchRecord,
  type BatchRequestPlan,
  type BatchRequestResult,
  type BatchStatus,
} from '../../batches/batch-model.js';
import { BatchExistsError, type BatchPage, type BatchStore, type ChunkRecorded } from '../../batches/batch-store.js';
import { forEachBounded } from '../../core/for-each-bounded.js';
import {
  ACTIVE_BATCHES_PK,
  BATCH_META_SK,
  REQUEST_SK_PREFIX,
  batchPk,
  lineOfSk,
  lineShardPk,
  ownerBatchSk,
  ownerBatchesPk,
  requestSk,
} from './batch-table-keys.js';
import { batchTable, lineItemTtl, n, s, shardQueries, type BatchTable, type DynamoDbBatchStoreOptions } from './batch-table-items.js';
import { DynamoDbBatchResults } from './dynamodb-batch-results.js';
import { DynamoDbChunkLedger } from './dynamodb-chunk-ledger.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { mergeSorted, queryItems, type Item } from './query-items.js';
import { sendTransactionWithRetry } from './transact-with-retry.js';

export type { DynamoDbBatchStoreOptions } from './batch-table-items.js';

/** Optimistic-update attempts before a transition gives up (each attempt re-reads META). */
const MAX_UPDATE_ATTEMPTS = 10;

/**
 * BatchStore on the jobs table (batch-table-keys.ts). META changes only by optimistic, versioned conditional
 * writes; chunk scores go through the ChunkLedger (dynamodb-chunk-ledger.ts, which async jobs use too, under their own
 * owner key); a result is kept once and counted on its shard's PROGRESS item in the same transaction
 * (dynamodb-batch-results.ts), so a redelivered chunk or a second finalizer counts nothing twice.
 */
export class DynamoDbBatchStore implements BatchStore {
  readonly #t: BatchTable;
  readonly #chunks: DynamoDbChunkLedger;
  readonly #results: DynamoDbBatchResults;

  constructor(client: DynamoDBClient, table: string, options: DynamoDbBatchStoreOptions = {}) {
    this.#t = batchTable(client, table, options);
    this.#chunks = new DynamoDbChunkLedger(client, table, options);
    this.#results = new DynamoDbBatchResults(this.#t);
  }

  async create(batch: BatchRecord): Promise<void> {
    const ttl = n(batch.expiresAt + this.#t.retentionSeconds);
    const items: TransactWriteItem[] = [
      {
        Put: {
          TableName: this.#t.table,
          Item: { [PK]: s(batchPk(batch.id)), [SK]: s(BATCH_META_SK), ...this.#metaAttributes(batch, 0), [TTL]: ttl },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
        },
      },
      {
        Put: {
          TableName: this.#t.table,
          Item: {
            [PK]: s(ownerBatchesPk(batch.ownerKeyId)),
            [SK]: s(ownerBatchSk(batch.createdAt, batch.id)),
            id: s(batch.id),
            [TTL]: ttl,
          },
        },
      },
    ];
    if (!isTerminal(batch.status)) {
      items.push({
        Put: { TableName: this.#t.table, Item: { [PK]: s(ACTIVE_BATCHES_PK), [SK]: s(batch.id), owner: s(batch.ownerKeyId), [TTL]: ttl } },
      });
    }
    try {
      await sendTransactionWithRetry(this.#t.client, new TransactWriteItemsCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new BatchExistsError(batch.id);
      throw error;
    }
  }

  async get(batchId: string): Promise<BatchRecord | undefined> {
    return (await this.#readMeta(batchId))?.record;
  }

  async list(ownerKeyId: string, page: { readonly after?: string; readonly limit: number }): Promise<BatchPage> {
    const after = page.after === undefined ? undefined : await this.get(page.after);
    // Another key's id as the cursor reveals nothing: the page starts from the newest.
    const startKey =
      after !== undefined && after.ownerKeyId === ownerKeyId
        ? { [PK]: s(ownerBatchesPk(ownerKeyId)), [SK]: s(ownerBatchSk(after.createdAt, after.id)) }
        : undefined;
    const ids: string[] = [];
    for await (const item of queryItems(this.#t.client, {
      TableName: this.#t.table,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': PK },
      ExpressionAttributeValues: { ':pk': s(ownerBatchesPk(ownerKeyId)) },
      ScanIndexForward: false,
      Limit: page.limit + 1,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    })) {
      ids.push(item['id']?.S ?? '');
      if (ids.length > page.limit) break;
    }
    const batches = await this.#getMany(ids.slice(0, page.limit));
    return { batches, hasMore: ids.length > page.limit };
  }

  async listActive(): Promise<readonly BatchRecord[]> {
    const ids: string[] = [];
    for await (const item of queryItems(this.#t.client, {
      TableName: this.#t.table,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': PK },
      ExpressionAttributeValues: { ':pk': s(ACTIVE_BATCHES_PK) },
    })) {
      ids.push(item[SK]?.S ?? '');
    }
    return (await this.#getMany(ids)).filter((batch) => !isTerminal(batch.status));
  }

  async update(
    batchId: string,
    from: readonly BatchStatus[],
    patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
    leaseOwner?: string,
  ): Promise<BatchRecord | undefined> {
    return this.#transition(batchId, (current) =>
      !from.includes(current.status) || (leaseOwner !== undefined && current.finalizeLease?.owner !== leaseOwner)
        ? undefined
        : { ...current, ...patch },
    );
  }

  async leaseFinalize(batchId: string, lease: FinalizeLease, now: number): Promise<BatchRecord | undefined> {
    return this.#transition(batchId, (current) =>
      mayLeaseFinalize(current, lease.owner, now) ? { ...current, finalizeLease: lease } : undefined,
    );
  }

  /**
   * Every change of META: `change` decides on the record read (undefined: the condition failed); the put is conditional
   * on the version read, so a concurrent transition makes it fail and the loop decides again on what that one wrote.
   */
  async #transition(batchId: string, change: (current: BatchRecord) => BatchRecord | undefined): Promise<BatchRecord | undefined> {
    for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.#readMeta(batchId);
      const next = current && change(current.record);
      if (!current || !next) return undefined;
      const put: TransactWriteItem = {
        Put: {
          TableName: this.#t.table,
          Item: {
            [PK]: s(batchPk(batchId)),
            [SK]: s(BATCH_META_SK),
            ...this.#metaAttributes(next, current.version + 1),
            [TTL]: n(next.expiresAt + this.#t.retentionSeconds),
          },
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': n(current.version) },
        },
      };
      const leavesActive = isTerminal(next.status) && !isTerminal(current.record.status);
      const items: TransactWriteItem[] = leavesActive
        ? [put, { Delete: { TableName: this.#t.table, Key: { [PK]: s(ACTIVE_BATCHES_PK), [SK]: s(batchId) } } }]
        : [put];
      try {
        await sendTransactionWithRetry(this.#t.client, new TransactWriteItemsCommand({ TransactItems: items }));
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(`batch ${batchId}: META kept changing under ${MAX_UPDATE_ATTEMPTS} conditional updates`);
  }

  async putRequest(batchId: string, request: BatchRequestPlan): Promise<void> {
    try {
      await this.#t.client.send(
        new PutItemCommand({
          TableName: this.#t.table,
          Item: {
            [PK]: s(lineShardPk(batchId, request.line)),
            [SK]: s(requestSk(request.line)),
            plan: s(JSON.stringify(request)),
            chunksDone: n(0),
            [TTL]: lineItemTtl(this.#t),
          },
          // A re-run planner puts the same plan again: the first one (and its chunk count) stays.
          ConditionExpression: 'attribute_not_exists(#plan)',
          ExpressionAttributeNames: { '#plan': 'plan' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async getRequest(batchId: string, line: number): Promise<BatchRequestPlan | undefined> {
    const item = await this.#getItem(lineShardPk(batchId, line), requestSk(line));
    const plan = item?.['plan']?.S;
    return plan === undefined ? undefined : (JSON.parse(plan) as BatchRequestPlan);
  }

  async *readRequests(batchId: string): AsyncIterable<BatchRequestPlan> {
    const shards = shardQueries(this.#t, batchId, REQUEST_SK_PREFIX);
    for await (const item of mergeSorted(shards, (i) => lineOfSk(i[SK]?.S ?? ''))) {
      const plan = item['plan']?.S;
      if (plan !== undefined) yield JSON.parse(plan) as BatchRequestPlan;
    }
  }

  putChunkScores(batchId: string, line: number, scores: BatchChunkScores, chunkCount: number): Promise<ChunkRecorded> {
    return this.#chunks.putChunkScores(batchId, line, scores, chunkCount);
  }

  readChunkScores(batchId: string, line: number, chunkCount?: number): AsyncIterable<BatchChunkScores> {
    return this.#chunks.readChunkScores(batchId, line, chunkCount);
  }

  deleteChunkScores(batchId: string, line: number, chunkCount?: number): Promise<void> {
    return this.#chunks.deleteChunkScores(batchId, line, chunkCount);
  }

  countChunks(batchId: string, line: number, chunkCount: number): Promise<number> {
    return this.#chunks.countChunks(batchId, line, chunkCount);
  }

  putResult(batchId: string, result: BatchRequestResult): Promise<boolean> {
    return this.#results.putResult(batchId, result);
  }

  getResult(batchId: string, line: number): Promise<BatchRequestResult | undefined> {
    return this.#results.getResult(batchId, line);
  }

  readResults(batchId: string): AsyncIterable<BatchRequestResult> {
    return this.#results.readResults(batchId);
  }

  /** Deletes every plan, chunk score and result item of the batch; the PROGRESS counters (its request counts) stay. */
  dropWork(batchId: string): Promise<void> {
    return this.#results.dropWork(batchId);
  }

  countResults(batchId: string): Promise<{ readonly completed: number; readonly failed: number }> {
    return this.#results.countResults(batchId);
  }

  #metaAttributes(record: BatchRecord, version: number): Item {
    return { status: s(record.status), owner: s(record.ownerKeyId), version: n(version), record: s(JSON.stringify(record)) };
  }

  async #readMeta(batchId: string): Promise<{ record: BatchRecord; version: number } | undefined> {
    const item = await this.#getItem(batchPk(batchId), BATCH_META_SK);
    const record = item?.['record']?.S;
    return record === undefined ? undefined : { record: JSON.parse(record) as BatchRecord, version: Number(item?.['version']?.N ?? 0) };
  }

  async #getMany(ids: readonly string[]): Promise<BatchRecord[]> {
    const records = new Array<BatchRecord | undefined>(ids.length);
    await forEachBounded(
      ids.map((id, i) => [id, i] as const),
      this.#t.concurrency,
      async ([id, i]) => {
        records[i] = await this.get(id);
      },
    );
    return records.filter((r): r is BatchRecord => r !== undefined);
  }

  async #getItem(pk: string, sk: string): Promise<Item | undefined> {
    const got = await this.#t.client.send(
      new GetItemCommand({ TableName: this.#t.table, Key: { [PK]: s(pk), [SK]: s(sk) }, ConsistentRead: true }),
    );
    return got.Item;
  }
}
