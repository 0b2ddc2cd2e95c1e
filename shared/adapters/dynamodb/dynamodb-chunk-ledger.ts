import { DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ChunkLedger, ChunkRecorded, LedgerChunkScores } from '../../engine/chunk-ledger.js';
import { forEachBounded } from '../../core/for-each-bounded.js';
import { isConditionFailure } from './condition-failed.js';
import { decodeFloat64s, encodeFloat64s } from './float64-codec.js';
import { decodeCuts, encodeCuts } from './token-cuts-codec.js';
import {
  BATCH_SHARDS,
  chunksOfCounter,
  counterCount,
  counterOfChunk,
  counterShardPk,
  countSk,
  lineShardPk,
  requestSk,
  scoresPrefix,
  scoresSk,
} from './batch-table-keys.js';
import { batchTable, lineItemTtl, n, partitionItems, s, type BatchTable, type DynamoDbBatchStoreOptions } from './batch-table-items.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { batchGetItems, mergeSorted, type Item } from './query-items.js';

/**
 * The ChunkLedger on the jobs table (batch-table-keys.ts), for batch lines and async jobs alike (a job under its own
 * owner key): chunk scores are put and then counted once on a counter item by a conditional set-add, so a redelivered
 * chunk counts nothing twice. The embedded twin is memory/in-memory-chunk-ledger.ts.
 */
export class DynamoDbChunkLedger implements ChunkLedger {
  readonly #t: BatchTable;

  constructor(client: DynamoDBClient, table: string, options: DynamoDbBatchStoreOptions = {}) {
    this.#t = batchTable(client, table, options);
  }

  /**
   * No transaction: the scores are put (a redelivery puts the same bytes again); then the chunk's counter counts it
   * only if its index is not yet in that counter's set. A request of at most CHUNKS_PER_COUNTER chunks counts on its
   * own item, whose count is refused once the request is finished; a larger one on counter items (chunk i on counter
   * i % counterCount, each on its own partition) after one read of the finished flag. A crash between put and count
   * leaves the chunk uncounted, and its redelivery counts it. When a counter fills, the counters are summed: chunksDone
   * is exact then, and for a request with one counter; otherwise a lower bound (the worker only compares it with
   * chunkCount). No item grows with the request: an update's cost stays that of a 64-entry set, where one set of every
   * chunk index made the last updates of a 15,625-chunk request cost ~90 write units each.
   */
  async putChunkScores(owner: string, line: number, scores: LedgerChunkScores, chunkCount: number): Promise<ChunkRecorded> {
    // A request of one counter counts on its own item, whose finished flag the count's condition checks (no read).
    const single = counterCount(chunkCount) === 1;
    if (!single && (await this.#isFinished(owner, line)))
      return { recorded: false, chunksDone: await this.countChunks(owner, line, chunkCount) };
    const counter = counterOfChunk(scores.chunkIndex, chunkCount);
    await this.#putScores(counterShardPk(owner, line, counter), line, scores);
    try {
      const done = await this.#count(owner, line, counter, chunkCount, scores.chunkIndex);
      if (single) return { recorded: true, chunksDone: done };
      // Only a full counter can make the request complete: then (and only then) every counter is read.
      return {
        recorded: true,
        chunksDone: done < chunksOfCounter(counter, chunkCount) ? done : await this.countChunks(owner, line, chunkCount),
      };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { recorded: false, chunksDone: await this.countChunks(owner, line, chunkCount) };
    }
  }

  async #putScores(pk: string, line: number, scores: LedgerChunkScores): Promise<void> {
    const { client, table } = this.#t;
    const Item: Item = {
      [PK]: s(pk),
      [SK]: s(scoresSk(line, scores.chunkIndex)),
      chunkIndex: n(scores.chunkIndex),
      offset: n(scores.offset),
      tokens: n(scores.tokens),
      scores: { B: encodeFloat64s(scores.scores) },
      // The lexical component of a request fused over a corpus.
      ...(scores.lexical ? { lexical: { B: encodeFloat64s(scores.lexical) } } : {}),
      // A pruned chunk: where its kept scores stand in the chunk, and how many documents it scored.
      ...(scores.positions ? { positions: { B: encodeFloat64s(scores.positions) }, scored: n(scores.count ?? scores.scores.length) } : {}),
      // What the model cut in the chunk, for the request's report.
      ...(scores.cuts ? { cuts: { B: encodeCuts(scores.cuts) } } : {}),
      [TTL]: lineItemTtl(this.#t),
    };
    await client.send(new PutItemCommand({ TableName: table, Item }));
  }

  /** Adds chunk `index` to its counter's set once; the counter's count after it (a condition failure when counted). */
  async #count(owner: string, line: number, counter: number, chunkCount: number, index: number): Promise<number> {
    const single = counterCount(chunkCount) === 1;
    const chunk = n(index);
    const counted = await this.#t.client.send(
      new UpdateItemCommand({
        TableName: this.#t.table,
        Key: this.#counterKey(owner, line, counter, chunkCount),
        UpdateExpression: 'ADD #done :one, #chunks :chunk SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: single ? 'attribute_not_exists(#finished) AND NOT contains(#chunks, :index)' : 'NOT contains(#chunks, :index)',
        ExpressionAttributeNames: {
          '#done': 'chunksDone',
          '#chunks': 'doneChunks',
          '#ttl': TTL,
          ...(single ? { '#finished': 'finished' } : {}),
        },
        ExpressionAttributeValues: { ':one': n(1), ':chunk': { NS: [chunk.N] }, ':index': chunk, ':ttl': lineItemTtl(this.#t) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(counted.Attributes?.['chunksDone']?.N ?? 0);
  }

  async *readChunkScores(owner: string, line: number, chunkCount?: number): AsyncIterable<LedgerChunkScores> {
    const streams = this.#scoresPartitions(owner, line, chunkCount).map((pk) => partitionItems(this.#t, pk, scoresPrefix(line)));
    for await (const item of mergeSorted(streams, (i) => Number(i['chunkIndex']?.N))) {
      yield {
        chunkIndex: Number(item['chunkIndex']?.N),
        offset: Number(item['offset']?.N),
        tokens: Number(item['tokens']?.N),
        scores: decodeFloat64s(item['scores']?.B ?? new Uint8Array()),
        ...(item['lexical']?.B ? { lexical: decodeFloat64s(item['lexical'].B) } : {}),
        ...(item['positions']?.B ? { positions: decodeFloat64s(item['positions'].B), count: Number(item['scored']?.N) } : {}),
        ...(item['cuts']?.B ? { cuts: decodeCuts(item['cuts'].B) } : {}),
      };
    }
  }

  async deleteChunkScores(owner: string, line: number, chunkCount?: number): Promise<void> {
    const keys: Item[] = [];
    for (const pk of this.#scoresPartitions(owner, line, chunkCount)) {
      for await (const item of partitionItems(this.#t, pk, scoresPrefix(line), true))
        keys.push({ [PK]: item[PK] as Item[string], [SK]: item[SK] as Item[string] });
    }
    await forEachBounded(keys, this.#t.concurrency, async (Key) => {
      await this.#t.client.send(new DeleteItemCommand({ TableName: this.#t.table, Key }));
    });
  }

  /** Chunks counted so far: the sum of the line's counters (one BatchGetItem per 100, strongly consistent). */
  async countChunks(owner: string, line: number, chunkCount: number): Promise<number> {
    const keys = Array.from({ length: counterCount(chunkCount) }, (_, counter) => this.#counterKey(owner, line, counter, chunkCount));
    let done = 0;
    for await (const item of batchGetItems(this.#t.client, this.#t.table, keys)) done += Number(item['chunksDone']?.N ?? 0);
    return done;
  }

  /** The partitions a line's chunk scores live on: its counters' (every shard when the chunk count is not known). */
  #scoresPartitions(owner: string, line: number, chunkCount: number | undefined): string[] {
    const counters = chunkCount === undefined ? BATCH_SHARDS : Math.min(BATCH_SHARDS, counterCount(chunkCount));
    return Array.from({ length: counters }, (_, counter) => counterShardPk(owner, line, counter));
  }

  /** Where counter `counter` of a line counts: the request's own item for a one-counter request, else its counter item. */
  #counterKey(owner: string, line: number, counter: number, chunkCount: number): Item {
    return counterCount(chunkCount) === 1
      ? { [PK]: s(lineShardPk(owner, line)), [SK]: s(requestSk(line)) }
      : { [PK]: s(counterShardPk(owner, line, counter)), [SK]: s(countSk(line, counter)) };
  }

  async #isFinished(owner: string, line: number): Promise<boolean> {
    const got = await this.#t.client.send(
      new GetItemCommand({
        TableName: this.#t.table,
        Key: { [PK]: s(lineShardPk(owner, line)), [SK]: s(requestSk(line)) },
        ProjectionExpression: '#finished',
        ExpressionAttributeNames: { '#finished': 'finished' },
        ConsistentRead: true,
      }),
    );
    return got.Item?.['finished'] !== undefined;
  }
}
