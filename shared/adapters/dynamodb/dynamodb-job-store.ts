import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from './condition-failed.js';
import { JobExistsError, type JobStore } from '../../jobs/job-store.js';
import { isSameJobCreation } from '../../jobs/job-model.js';
import type { RerankDocument } from '../../core/rerank-request.js';
import { forEachBounded } from '../../core/for-each-bounded.js';
import type { JobSpec, JobState, StoredResult } from '../../jobs/job-model.js';
import { DEFAULT_PAGE_BYTES, joinPages, splitIntoPages } from './byte-pages.js';
import { fromMetaItem, toMetaItem, type MetaBookkeeping } from './job-meta-item.js';
import { decodeDocuments, decodeRanked, encodeDocuments, encodeRanked } from './job-payload-codec.js';
import { encodeCuts } from './token-cuts-codec.js';
import {
  DOCS_SK_PREFIX,
  JOB_TABLE_PARTITION_KEY as PK,
  JOB_TABLE_SORT_KEY as SK,
  JOB_TABLE_TTL_ATTRIBUTE as TTL,
  META_SK,
  RESULT_SK_PREFIX,
  docsSk,
  jobPk,
  resultSk,
} from './job-table-keys.js';

type Item = Record<string, AttributeValue>;

export interface DynamoDbJobStoreOptions {
  /** Epoch seconds; `get` hides jobs whose expiresAt is before it. Injected so tests control time. */
  readonly clock?: () => number;
  /** Bytes of payload per DOCS/RESULT item; the rest of the 400 KB item limit is left for keys and names. */
  readonly pageBytes?: number;
  /** Parallel PutItems when writing pages. */
  readonly writeConcurrency?: number;
}

/** Status and expiry names are DynamoDB reserved words, so every expression goes through these aliases. */
const NAMES = { '#status': 'status', '#ttl': TTL } as const;

/**
 * JobStore on one DynamoDB table (see job-table-keys.ts). `now` arguments and the clock are epoch seconds. META is
 * written at creation and once more by the transition that ends the job; chunks never touch it (they are counted
 * in the ChunkLedger on sharded counters, so a job's thousands of chunks never serialize on this one item).
 */
export class DynamoDbJobStore implements JobStore {
  readonly #clock: () => number;
  readonly #pageBytes: number;
  readonly #writeConcurrency: number;
  readonly #tableName: string;
  readonly #client: DynamoDBClient;

  constructor(tableName: string, client: DynamoDBClient = new DynamoDBClient({}), options: DynamoDbJobStoreOptions = {}) {
    this.#tableName = tableName;
    this.#client = client;
    this.#clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
    this.#pageBytes = options.pageBytes ?? DEFAULT_PAGE_BYTES;
    this.#writeConcurrency = options.writeConcurrency ?? 4;
  }

  async create(spec: JobSpec, documents: readonly RerankDocument[] | undefined, now: number): Promise<void> {
    // Pages first, META last: a job that `get` can see always has its documents.
    if (documents !== undefined) {
      const pages = splitIntoPages(encodeDocuments(documents), this.#pageBytes);
      await this.#putPages(spec.id, pages, docsSk, spec.expiresAt);
    }
    try {
      await this.#client.send(
        new PutItemCommand({ TableName: this.#tableName, Item: toMetaItem(spec, now), ConditionExpression: `attribute_not_exists(${PK})` }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const existing = await this.get(spec.id);
      if (existing && isSameJobCreation(existing, spec, now)) return; // our own write, retried by the SDK
      throw new JobExistsError(spec.id, error);
    }
  }

  async get(jobId: string, options: { readonly consistent?: boolean } = {}): Promise<JobState | undefined> {
    return (await this.#readMeta(jobId, options.consistent ?? true))?.record;
  }

  async getDocuments(jobId: string): Promise<RerankDocument[]> {
    return decodeDocuments(await this.#readPages(jobId, DOCS_SK_PREFIX));
  }

  async complete(jobId: string, result: StoredResult, now: number): Promise<boolean> {
    const before = await this.#readMeta(jobId);
    if (before === undefined || before.record.status !== 'running') return false;
    // Pages are written unconditionally before the flip; a losing concurrent merge rewrites identical bytes
    // (the merge is deterministic), and readers only look at pages once META says succeeded.
    const pages = splitIntoPages(encodeRanked(result.ranked), this.#pageBytes);
    await this.#putPages(jobId, pages, resultSk, before.record.expiresAt);
    // What the model cut rides on META: bounded (MAX_STORED_CUTS documents listed, 16 KB at most).
    const cuts = result.cuts ? ', tokenCuts = :cuts' : '';
    return this.#updateIfRunning(
      jobId,
      now,
      `SET #status = :succeeded, updatedAt = :now, resultPages = :pages, totalTokens = :tokens${cuts}`,
      {
        ':succeeded': { S: 'succeeded' },
        ':pages': { N: String(pages.length) },
        ':tokens': { N: String(result.totalTokens) },
        ...(result.cuts ? { ':cuts': { B: encodeCuts(result.cuts) } } : {}),
      },
    );
  }

  async fail(jobId: string, reason: string, now: number): Promise<boolean> {
    return this.#updateIfRunning(jobId, now, 'SET #status = :failed, updatedAt = :now, #error = :reason', {
      ':failed': { S: 'failed' },
      ':reason': { S: reason },
    });
  }

  async getResult(jobId: string): Promise<StoredResult | undefined> {
    const meta = await this.#readMeta(jobId);
    if (meta === undefined || meta.record.status !== 'succeeded') return undefined;
    const pages = await this.#queryPrefix(jobId, RESULT_SK_PREFIX);
    const expected = meta.bookkeeping.resultPages ?? 0;
    if (pages.length !== expected) throw new Error(`job ${jobId}: expected ${expected} result pages, found ${pages.length}`);
    const { totalTokens, cuts } = meta.bookkeeping;
    return { ranked: decodeRanked(joinPages(pages.map(pageBytes))), totalTokens: totalTokens ?? 0, ...(cuts ? { cuts } : {}) };
  }

  async #updateIfRunning(jobId: string, now: number, update: string, values: Item): Promise<boolean> {
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#tableName,
          Key: { [PK]: { S: jobPk(jobId) }, [SK]: { S: META_SK } },
          UpdateExpression: update,
          // Expired counts as absent, as in readMeta, even before TTL has deleted the item.
          ConditionExpression: '#status = :running AND #ttl >= :clock',
          ExpressionAttributeNames: { ...NAMES, ...(update.includes('#error') ? { '#error': 'error' } : {}) },
          ExpressionAttributeValues: {
            ...values,
            ':now': { N: String(now) },
            ':running': { S: 'running' },
            ':clock': { N: String(this.#clock()) },
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** META with expiry applied: DynamoDB TTL deletes lazily (up to days in AWS), so expired means absent here. */
  async #readMeta(jobId: string, consistent = true): Promise<{ record: JobState; bookkeeping: MetaBookkeeping } | undefined> {
    const { Item } = await this.#client.send(
      new GetItemCommand({
        TableName: this.#tableName,
        Key: { [PK]: { S: jobPk(jobId) }, [SK]: { S: META_SK } },
        ConsistentRead: consistent,
      }),
    );
    if (Item === undefined) return undefined;
    const meta = fromMetaItem(Item);
    return meta.record.expiresAt < this.#clock() ? undefined : meta;
  }

  async #readPages(jobId: string, prefix: string): Promise<Uint8Array> {
    return joinPages((await this.#queryPrefix(jobId, prefix)).map(pageBytes));
  }

  /** Every item of the job under a sort-key prefix, in sort-key order, across Query pages (1 MB each). */
  async #queryPrefix(jobId: string, prefix: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          KeyConditionExpression: `${PK} = :pk AND begins_with(${SK}, :prefix)`,
          ExpressionAttributeValues: { ':pk': { S: jobPk(jobId) }, ':prefix': { S: prefix } },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  async #putPages(jobId: string, pages: readonly Uint8Array[], skOf: (page: number) => string, expiresAt: number): Promise<void> {
    await forEachBounded(pages, this.#writeConcurrency, async (data, page) => {
      await this.#client.send(
        new PutItemCommand({
          TableName: this.#tableName,
          Item: {
            [PK]: { S: jobPk(jobId) },
            [SK]: { S: skOf(page) },
            data: { B: data },
            [TTL]: { N: String(expiresAt) },
          },
        }),
      );
    });
  }
}

const pageBytes = (item: Item): Uint8Array => item['data']?.B ?? new Uint8Array();
