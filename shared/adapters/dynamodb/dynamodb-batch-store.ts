import {
  GetItemCommand,
  UpdateItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  DeleteItemCommand,
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
import { DEFAULT_PAGE_BYTES, joinPages, splitIntoPages } from './byte-pages.js';
import { decodeFloat64s, encodeFloat64s } from './float64-codec.js';
import {
  ACTIVE_BATCHES_PK,
  BATCH_META_SK,
  BATCH_RESULT_SK_PREFIX,
  BATCH_SHARDS,
  PROGRESS_SK,
  REQUEST_SK_PREFIX,
  batchPk,
  batchShardPk,
  counterCount,
  counterOfChunk,
  counterShardPk,
  chunksOfCounter,
  countSk,
  lineOfSk,
  lineShardPk,
  ownerBatchSk,
  ownerBatchesPk,
  requestSk,
  resultPrefix,
  resultSk,
  scoresPrefix,
  scoresSk,
} from './batch-table-keys.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { batchGetItems, mergeSorted, queryItems, type Item } from './query-items.js';
import { sendTransactionWithRetry } from './transact-with-retry.js';

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

/** OpenAI's only completion window: a batch's items outlive any batch started now by at most this. */
const LONGEST_WINDOW_SECONDS = 86_400;

/** A transaction carries at most 4 MB: a result line longer than this cannot be kept in one. */
const MAX_RESULT_BYTES = 3_500_000;
/** Optimistic-update attempts before a transition gives up (each attempt re-reads META). */
const MAX_UPDATE_ATTEMPTS = 10;

const NAMES = { '#status': 'status', '#ttl': TTL } as const;
const s = (value: string) => ({ S: value });
const n = (value: number) => ({ N: String(value) });

/**
 * BatchStore on the jobs table (batch-table-keys.ts). META changes only by optimistic, versioned conditional
 * writes; chunk scores are put and then counted once on a counter item by a conditional set-add (the ChunkLedger
 * protocol, which async jobs use too, under their own owner key); a result is kept once and counted on its shard's
 * PROGRESS item in the same transaction, so a redelivered chunk or a second finalizer counts nothing twice.
 */
export class DynamoDbBatchStore implements BatchStore {
  private readonly retentionSeconds: number;
  private readonly pageBytes: number;
  private readonly concurrency: number;
  private readonly clock: () => number;

  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
    options: DynamoDbBatchStoreOptions = {},
  ) {
    this.retentionSeconds = options.retentionSeconds ?? 30 * 86_400;
    this.pageBytes = Math.min(options.pageBytes ?? DEFAULT_PAGE_BYTES, DEFAULT_PAGE_BYTES);
    this.concurrency = options.concurrency ?? 8;
    this.clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  async create(batch: BatchRecord): Promise<void> {
    const ttl = n(batch.expiresAt + this.retentionSeconds);
    const items: TransactWriteItem[] = [
      {
        Put: {
          TableName: this.table,
          Item: { [PK]: s(batchPk(batch.id)), [SK]: s(BATCH_META_SK), ...this.metaAttributes(batch, 0), [TTL]: ttl },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
        },
      },
      {
        Put: {
          TableName: this.table,
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
        Put: { TableName: this.table, Item: { [PK]: s(ACTIVE_BATCHES_PK), [SK]: s(batch.id), owner: s(batch.ownerKeyId), [TTL]: ttl } },
      });
    }
    try {
      await sendTransactionWithRetry(this.client, new TransactWriteItemsCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new BatchExistsError(batch.id);
      throw error;
    }
  }

  async get(batchId: string): Promise<BatchRecord | undefined> {
    return (await this.readMeta(batchId))?.record;
  }

  async list(ownerKeyId: string, page: { readonly after?: string; readonly limit: number }): Promise<BatchPage> {
    const after = page.after === undefined ? undefined : await this.get(page.after);
    // Another key's id as the cursor reveals nothing: the page starts from the newest.
    const startKey =
      after !== undefined && after.ownerKeyId === ownerKeyId
        ? { [PK]: s(ownerBatchesPk(ownerKeyId)), [SK]: s(ownerBatchSk(after.createdAt, after.id)) }
        : undefined;
    const ids: string[] = [];
    for await (const item of queryItems(this.client, {
      TableName: this.table,
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
    const batches = await this.getMany(ids.slice(0, page.limit));
    return { batches, hasMore: ids.length > page.limit };
  }

  async listActive(): Promise<readonly BatchRecord[]> {
    const ids: string[] = [];
    for await (const item of queryItems(this.client, {
      TableName: this.table,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': PK },
      ExpressionAttributeValues: { ':pk': s(ACTIVE_BATCHES_PK) },
    })) {
      ids.push(item[SK]?.S ?? '');
    }
    return (await this.getMany(ids)).filter((batch) => !isTerminal(batch.status));
  }

  async update(
    batchId: string,
    from: readonly BatchStatus[],
    patch: Partial<Omit<BatchRecord, 'id' | 'ownerKeyId'>>,
    leaseOwner?: string,
  ): Promise<BatchRecord | undefined> {
    return this.transition(batchId, (current) =>
      !from.includes(current.status) || (leaseOwner !== undefined && current.finalizeLease?.owner !== leaseOwner)
        ? undefined
        : { ...current, ...patch },
    );
  }

  async leaseFinalize(batchId: string, lease: FinalizeLease, now: number): Promise<BatchRecord | undefined> {
    return this.transition(batchId, (current) =>
      mayLeaseFinalize(current, lease.owner, now) ? { ...current, finalizeLease: lease } : undefined,
    );
  }

  /**
   * Every change of META: `change` decides on the record read (undefined: the condition failed); the put is conditional
   * on the version read, so a concurrent transition makes it fail and the loop decides again on what that one wrote.
   */
  private async transition(batchId: string, change: (current: BatchRecord) => BatchRecord | undefined): Promise<BatchRecord | undefined> {
    for (let attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.readMeta(batchId);
      const next = current && change(current.record);
      if (!current || !next) return undefined;
      const put: TransactWriteItem = {
        Put: {
          TableName: this.table,
          Item: {
            [PK]: s(batchPk(batchId)),
            [SK]: s(BATCH_META_SK),
            ...this.metaAttributes(next, current.version + 1),
            [TTL]: n(next.expiresAt + this.retentionSeconds),
          },
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': n(current.version) },
        },
      };
      const leavesActive = isTerminal(next.status) && !isTerminal(current.record.status);
      const items: TransactWriteItem[] = leavesActive
        ? [put, { Delete: { TableName: this.table, Key: { [PK]: s(ACTIVE_BATCHES_PK), [SK]: s(batchId) } } }]
        : [put];
      try {
        await sendTransactionWithRetry(this.client, new TransactWriteItemsCommand({ TransactItems: items }));
        return next;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(`batch ${batchId}: META kept changing under ${MAX_UPDATE_ATTEMPTS} conditional updates`);
  }

  async putRequest(batchId: string, request: BatchRequestPlan): Promise<void> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.table,
          Item: {
            [PK]: s(lineShardPk(batchId, request.line)),
            [SK]: s(requestSk(request.line)),
            plan: s(JSON.stringify(request)),
            chunksDone: n(0),
            [TTL]: this.ttl(),
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
    const item = await this.getItem(lineShardPk(batchId, line), requestSk(line));
    const plan = item?.['plan']?.S;
    return plan === undefined ? undefined : (JSON.parse(plan) as BatchRequestPlan);
  }

  async *readRequests(batchId: string): AsyncIterable<BatchRequestPlan> {
    const shards = this.shardQueries(batchId, REQUEST_SK_PREFIX);
    for await (const item of mergeSorted(shards, (i) => lineOfSk(i[SK]?.S ?? ''))) {
      const plan = item['plan']?.S;
      if (plan !== undefined) yield JSON.parse(plan) as BatchRequestPlan;
    }
  }

  /**
   * No transaction: the scores are put (a redelivery puts the same bytes again); then the chunk's counter counts it
   * only if its index is not yet in that counter's set. A request of at most CHUNKS_PER_COUNTER chunks counts on its
   * own item, whose count is refused once the request is finished (two calls, as before); a larger one on counter
   * items (chunk i on counter i % counterCount, each on its own partition) after one read of the finished flag. A crash between put and count leaves the chunk uncounted, and its
   * redelivery counts it. When a counter fills, the counters are summed: chunksDone is exact then, and for a
   * request with one counter; otherwise a lower bound (the worker only compares it with chunkCount). No item grows
   * with the request: an update's cost stays that of a 64-entry set, where one set of every chunk index made the
   * last updates of a 15,625-chunk request cost ~90 write units each.
   */
  async putChunkScores(batchId: string, line: number, scores: BatchChunkScores, chunkCount: number): Promise<ChunkRecorded> {
    // A request of one counter counts on its own item, whose finished flag the count's condition checks (no read).
    const single = counterCount(chunkCount) === 1;
    if (!single && (await this.isFinished(batchId, line)))
      return { recorded: false, chunksDone: await this.countChunks(batchId, line, chunkCount) };
    const counter = counterOfChunk(scores.chunkIndex, chunkCount);
    const pk = s(counterShardPk(batchId, line, counter));
    const chunk = n(scores.chunkIndex);
    await this.client.send(
      new PutItemCommand({
        TableName: this.table,
        Item: {
          [PK]: pk,
          [SK]: s(scoresSk(line, scores.chunkIndex)),
          chunkIndex: chunk,
          offset: n(scores.offset),
          tokens: n(scores.tokens),
          scores: { B: encodeFloat64s(scores.scores) },
          // The lexical component of a request fused over a corpus (it was dropped here before: fused with NaN).
          ...(scores.lexical ? { lexical: { B: encodeFloat64s(scores.lexical) } } : {}),
          // A pruned chunk: where its kept scores stand in the chunk, and how many documents it scored.
          ...(scores.positions
            ? { positions: { B: encodeFloat64s(scores.positions) }, scored: n(scores.count ?? scores.scores.length) }
            : {}),
          [TTL]: this.ttl(),
        },
      }),
    );
    try {
      const counted = await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: this.counterKey(batchId, line, counter, chunkCount),
          UpdateExpression: 'ADD #done :one, #chunks :chunk SET #ttl = if_not_exists(#ttl, :ttl)',
          ConditionExpression: single
            ? 'attribute_not_exists(#finished) AND NOT contains(#chunks, :index)'
            : 'NOT contains(#chunks, :index)',
          ExpressionAttributeNames: {
            '#done': 'chunksDone',
            '#chunks': 'doneChunks',
            '#ttl': TTL,
            ...(single ? { '#finished': 'finished' } : {}),
          },
          ExpressionAttributeValues: { ':one': n(1), ':chunk': { NS: [chunk.N] }, ':index': chunk, ':ttl': this.ttl() },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const done = Number(counted.Attributes?.['chunksDone']?.N ?? 0);
      if (single) return { recorded: true, chunksDone: done };
      // Only a full counter can make the request complete: then (and only then) every counter is read.
      return {
        recorded: true,
        chunksDone: done < chunksOfCounter(counter, chunkCount) ? done : await this.countChunks(batchId, line, chunkCount),
      };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { recorded: false, chunksDone: await this.countChunks(batchId, line, chunkCount) };
    }
  }

  async *readChunkScores(batchId: string, line: number, chunkCount?: number): AsyncIterable<BatchChunkScores> {
    const streams = this.scoresPartitions(batchId, line, chunkCount).map((pk) => this.partitionItems(pk, scoresPrefix(line)));
    for await (const item of mergeSorted(streams, (i) => Number(i['chunkIndex']?.N))) {
      yield {
        chunkIndex: Number(item['chunkIndex']?.N),
        offset: Number(item['offset']?.N),
        tokens: Number(item['tokens']?.N),
        scores: decodeFloat64s(item['scores']?.B ?? new Uint8Array()),
        ...(item['lexical']?.B ? { lexical: decodeFloat64s(item['lexical'].B) } : {}),
        ...(item['positions']?.B ? { positions: decodeFloat64s(item['positions'].B), count: Number(item['scored']?.N) } : {}),
      };
    }
  }

  async deleteChunkScores(batchId: string, line: number, chunkCount?: number): Promise<void> {
    const keys: Item[] = [];
    for (const pk of this.scoresPartitions(batchId, line, chunkCount)) {
      for await (const item of this.partitionItems(pk, scoresPrefix(line), true))
        keys.push({ [PK]: item[PK] as Item[string], [SK]: item[SK] as Item[string] });
    }
    await forEachBounded(keys, this.concurrency, async (Key) => {
      await this.client.send(new DeleteItemCommand({ TableName: this.table, Key }));
    });
  }

  /** The partitions a line's chunk scores live on: its counters' (every shard when the chunk count is not known). */
  private scoresPartitions(batchId: string, line: number, chunkCount: number | undefined): string[] {
    const counters = chunkCount === undefined ? BATCH_SHARDS : Math.min(BATCH_SHARDS, counterCount(chunkCount));
    return Array.from({ length: counters }, (_, counter) => counterShardPk(batchId, line, counter));
  }

  async putResult(batchId: string, result: BatchRequestResult): Promise<boolean> {
    const bytes = new TextEncoder().encode(result.jsonl);
    if (bytes.byteLength > MAX_RESULT_BYTES) {
      throw new RangeError(
        `result of line ${result.line} is ${bytes.byteLength} bytes; a batch result line is kept up to ${MAX_RESULT_BYTES}`,
      );
    }
    const pk = s(lineShardPk(batchId, result.line));
    const ttl = this.ttl();
    const pages = splitIntoPages(bytes, this.pageBytes);
    if (pages.length === 0) pages.push(new Uint8Array());
    const items: TransactWriteItem[] = pages.map((page, i) => ({
      Put: {
        TableName: this.table,
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
    items.push(
      {
        Update: {
          TableName: this.table,
          Key: { [PK]: pk, [SK]: s(requestSk(result.line)) },
          UpdateExpression: 'SET #finished = :yes',
          ExpressionAttributeNames: { '#finished': 'finished' },
          ExpressionAttributeValues: { ':yes': { BOOL: true } },
        },
      },
      {
        Update: {
          TableName: this.table,
          Key: { [PK]: pk, [SK]: s(PROGRESS_SK) },
          UpdateExpression: 'ADD #outcome :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#outcome': result.outcome, '#ttl': NAMES['#ttl'] },
          ExpressionAttributeValues: { ':one': n(1), ':ttl': ttl },
        },
      },
    );
    try {
      await sendTransactionWithRetry(this.client, new TransactWriteItemsCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async getResult(batchId: string, line: number): Promise<BatchRequestResult | undefined> {
    const pages: Item[] = [];
    for await (const item of this.partitionItems(lineShardPk(batchId, line), resultPrefix(line))) pages.push(item);
    return pages.length === 0 ? undefined : this.resultOf(line, pages);
  }

  async *readResults(batchId: string): AsyncIterable<BatchRequestResult> {
    const shards = this.shardQueries(batchId, BATCH_RESULT_SK_PREFIX);
    let pages: Item[] = [];
    for await (const item of mergeSorted(shards, (i) => lineOfSk(i[SK]?.S ?? ''))) {
      pages.push(item);
      if (pages.length === Number(item['pages']?.N)) {
        yield this.resultOf(lineOfSk(item[SK]?.S ?? ''), pages);
        pages = [];
      }
    }
  }

  /** Deletes every plan, chunk score and result item of the batch; the PROGRESS counters (its request counts) stay. */
  async dropWork(batchId: string): Promise<void> {
    const shards = Array.from({ length: BATCH_SHARDS }, (_, shard) => shard);
    await forEachBounded(shards, this.concurrency, async (shard) => {
      for await (const item of queryItems(this.client, {
        TableName: this.table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
        ExpressionAttributeValues: { ':pk': s(batchShardPk(batchId, shard)) },
        ProjectionExpression: '#pk, #sk',
      })) {
        if (item[SK]?.S === PROGRESS_SK) continue;
        await this.client.send(
          new DeleteItemCommand({ TableName: this.table, Key: { [PK]: item[PK] as Item[string], [SK]: item[SK] as Item[string] } }),
        );
      }
    });
  }

  /** The shards' PROGRESS items in one BatchGetItem (16 keys; unprocessed keys are asked for again). */
  async countResults(batchId: string): Promise<{ readonly completed: number; readonly failed: number }> {
    const keys = Array.from({ length: BATCH_SHARDS }, (_, shard) => ({ [PK]: s(batchShardPk(batchId, shard)), [SK]: s(PROGRESS_SK) }));
    const counts = { completed: 0, failed: 0 };
    for await (const item of batchGetItems(this.client, this.table, keys)) {
      counts.completed += Number(item['completed']?.N ?? 0);
      counts.failed += Number(item['failed']?.N ?? 0);
    }
    return counts;
  }

  private metaAttributes(record: BatchRecord, version: number): Item {
    return { status: s(record.status), owner: s(record.ownerKeyId), version: n(version), record: s(JSON.stringify(record)) };
  }

  private async readMeta(batchId: string): Promise<{ record: BatchRecord; version: number } | undefined> {
    const item = await this.getItem(batchPk(batchId), BATCH_META_SK);
    const record = item?.['record']?.S;
    return record === undefined ? undefined : { record: JSON.parse(record) as BatchRecord, version: Number(item?.['version']?.N ?? 0) };
  }

  private async getMany(ids: readonly string[]): Promise<BatchRecord[]> {
    const records = new Array<BatchRecord | undefined>(ids.length);
    await forEachBounded(
      ids.map((id, i) => [id, i] as const),
      this.concurrency,
      async ([id, i]) => {
        records[i] = await this.get(id);
      },
    );
    return records.filter((r): r is BatchRecord => r !== undefined);
  }

  private async getItem(pk: string, sk: string): Promise<Item | undefined> {
    const got = await this.client.send(
      new GetItemCommand({ TableName: this.table, Key: { [PK]: s(pk), [SK]: s(sk) }, ConsistentRead: true }),
    );
    return got.Item;
  }

  /** Where counter `counter` of a line counts: the request's own item for a one-counter request, else its counter item. */
  private counterKey(batchId: string, line: number, counter: number, chunkCount: number): Item {
    return counterCount(chunkCount) === 1
      ? { [PK]: s(lineShardPk(batchId, line)), [SK]: s(requestSk(line)) }
      : { [PK]: s(counterShardPk(batchId, line, counter)), [SK]: s(countSk(line, counter)) };
  }

  private async isFinished(batchId: string, line: number): Promise<boolean> {
    const got = await this.client.send(
      new GetItemCommand({
        TableName: this.table,
        Key: { [PK]: s(lineShardPk(batchId, line)), [SK]: s(requestSk(line)) },
        ProjectionExpression: '#finished',
        ExpressionAttributeNames: { '#finished': 'finished' },
        ConsistentRead: true,
      }),
    );
    return got.Item?.['finished'] !== undefined;
  }

  /** Chunks counted so far: the sum of the line's counters (one BatchGetItem per 100, strongly consistent). */
  async countChunks(batchId: string, line: number, chunkCount: number): Promise<number> {
    const keys = Array.from({ length: counterCount(chunkCount) }, (_, counter) => this.counterKey(batchId, line, counter, chunkCount));
    let done = 0;
    for await (const item of batchGetItems(this.client, this.table, keys)) done += Number(item['chunksDone']?.N ?? 0);
    return done;
  }

  /** Per-line items expire a retention after the longest window from now: no META read on the workers' hot path. */
  private ttl(): { N: string } {
    return n(this.clock() + LONGEST_WINDOW_SECONDS + this.retentionSeconds);
  }

  private partitionItems(pk: string, prefix: string, keysOnly = false): AsyncGenerator<Item> {
    return queryItems(this.client, {
      TableName: this.table,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
      ExpressionAttributeValues: { ':pk': s(pk), ':prefix': s(prefix) },
      ConsistentRead: true,
      ...(keysOnly ? { ProjectionExpression: '#pk, #sk' } : {}),
    });
  }

  private shardQueries(batchId: string, prefix: string): AsyncGenerator<Item>[] {
    return Array.from({ length: BATCH_SHARDS }, (_, shard) =>
      queryItems(this.client, {
        TableName: this.table,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
        ExpressionAttributeValues: { ':pk': s(batchShardPk(batchId, shard)), ':prefix': s(prefix) },
        ConsistentRead: true,
      }),
    );
  }

  private resultOf(line: number, pages: readonly Item[]): BatchRequestResult {
    const bytes = joinPages(pages.map((page) => page['body']?.B ?? new Uint8Array()));
    return { line, outcome: pages[0]?.['outcome']?.S === 'failed' ? 'failed' : 'completed', jsonl: new TextDecoder().decode(bytes) };
  }
}
