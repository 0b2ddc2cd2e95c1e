import {
  GetItemCommand,
  TransactWriteItemsCommand,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { checkAmounts, difference, emptyUsage, overLimit } from '../../quota/quota-amounts.js';
import {
  QUOTA_COUNTERS,
  QuotaExceededError,
  type QuotaAmounts,
  type QuotaCounter,
  type QuotaHold,
  type QuotaLedger,
} from '../../quota/quota-ledger.js';
import { isConditionFailure } from './condition-failed.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK } from './job-table-keys.js';
import { queryItems } from './query-items.js';
import { QUOTA_HOLD_SK_PREFIX, QUOTA_USAGE_SK, quotaHoldSk, quotaPk } from './quota-table-keys.js';
import { sendTransactionWithRetry } from './transact-with-retry.js';

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: number): AttributeValue => ({ N: String(value) });
/** A refused condition on the counters races only a release; past this many re-reads the refusal stands. */
const MAX_RECHECKS = 5;
/** Every request of a key moves the one USAGE item, so concurrent transactions conflict; they are retried this often. */
const MAX_TRANSACTION_ATTEMPTS = 16;

const amountsItem = (amounts: QuotaAmounts): AttributeValue => ({
  M: Object.fromEntries(
    Object.entries(amounts)
      .filter(([, v]) => v !== 0)
      .map(([c, v]) => [c, n(v)]),
  ),
});

function holdOf(id: string, item: Record<string, AttributeValue>): QuotaHold {
  const amounts: Partial<Record<QuotaCounter, number>> = {};
  for (const [counter, value] of Object.entries(item['amounts']?.M ?? {})) {
    if ((QUOTA_COUNTERS as readonly string[]).includes(counter)) amounts[counter as QuotaCounter] = Number(value.N);
  }
  const expiresAt = item['expiresAt']?.N;
  return { id, amounts, ...(expiresAt === undefined ? {} : { expiresAt: Number(expiresAt) }) };
}

/**
 * QuotaLedger on the jobs table. A change is one transaction: the hold item (put only if absent, deleted only if
 * present) and `ADD` on the key's USAGE item under a condition per growing counter (`attribute_not_exists(c) OR
 * c <= limit - amount`). DynamoDB evaluates the conditions and applies the adds atomically, so parallel requests
 * on any number of API containers cannot both take the last unit, and a retried hold never counts twice.
 */
export class DynamoDbQuotaLedger implements QuotaLedger {
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(client: DynamoDBClient, table: string) {
    this.#client = client;
    this.#table = table;
  }

  async reserve(ownerKeyId: string, hold: QuotaHold, limits: QuotaAmounts): Promise<boolean> {
    checkAmounts(hold.amounts);
    return this.#change(ownerKeyId, undefined, hold, limits);
  }

  async replace(ownerKeyId: string, fromId: string, to: QuotaHold, limits: QuotaAmounts): Promise<boolean> {
    checkAmounts(to.amounts);
    const from = await this.#hold(ownerKeyId, fromId);
    if (from === undefined) return false;
    return this.#change(ownerKeyId, from, to, limits);
  }

  async release(ownerKeyId: string, holdId: string): Promise<boolean> {
    const hold = await this.#hold(ownerKeyId, holdId);
    if (hold === undefined) return false;
    return this.#change(ownerKeyId, hold, undefined, {});
  }

  async releaseWhere(ownerKeyId: string, idPrefix: string): Promise<number> {
    return this.#releaseMatching(ownerKeyId, idPrefix);
  }

  async releaseExpired(ownerKeyId: string, now: number): Promise<number> {
    return this.#releaseMatching(ownerKeyId, '', now);
  }

  /** Releases the key's holds whose id starts with `idPrefix` (and, given `expiredBy`, that expired by then), one by one. */
  async #releaseMatching(ownerKeyId: string, idPrefix: string, expiredBy?: number): Promise<number> {
    const matching = queryItems(this.#client, {
      TableName: this.#table,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :hold)',
      ...(expiredBy === undefined ? {} : { FilterExpression: 'expiresAt <= :now' }),
      ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
      ExpressionAttributeValues: {
        ':pk': s(quotaPk(ownerKeyId)),
        ':hold': s(QUOTA_HOLD_SK_PREFIX + idPrefix),
        ...(expiredBy === undefined ? {} : { ':now': n(expiredBy) }),
      },
      ConsistentRead: true,
    });
    let released = 0;
    for await (const item of matching) {
      const id = (item[SK]?.S ?? '').slice(QUOTA_HOLD_SK_PREFIX.length);
      if (await this.#change(ownerKeyId, holdOf(id, item), undefined, {})) released += 1;
    }
    return released;
  }

  async usage(ownerKeyId: string): Promise<Record<QuotaCounter, number>> {
    const { Item } = await this.#client.send(
      new GetItemCommand({ TableName: this.#table, Key: { [PK]: s(quotaPk(ownerKeyId)), [SK]: s(QUOTA_USAGE_SK) }, ConsistentRead: true }),
    );
    const usage = emptyUsage();
    for (const counter of QUOTA_COUNTERS) usage[counter] = Number(Item?.[counter]?.N ?? 0);
    return usage;
  }

  async #hold(ownerKeyId: string, holdId: string): Promise<QuotaHold | undefined> {
    const { Item } = await this.#client.send(
      new GetItemCommand({
        TableName: this.#table,
        Key: { [PK]: s(quotaPk(ownerKeyId)), [SK]: s(quotaHoldSk(holdId)) },
        ConsistentRead: true,
      }),
    );
    return Item === undefined ? undefined : holdOf(holdId, Item);
  }

  /** Swaps `from` for `to` (either absent) and moves the counters by the difference, in one transaction. */
  async #change(ownerKeyId: string, from: QuotaHold | undefined, to: QuotaHold | undefined, limits: QuotaAmounts): Promise<boolean> {
    const pk = s(quotaPk(ownerKeyId));
    const delta = difference(to?.amounts ?? {}, from?.amounts ?? {});
    const items: TransactWriteItem[] = [];
    const names = { '#pk': PK };
    const holdKey = (id: string) => ({ [PK]: pk, [SK]: s(quotaHoldSk(id)) });
    const holdItem = (hold: QuotaHold) => ({
      ...holdKey(hold.id),
      amounts: amountsItem(hold.amounts),
      ...(hold.expiresAt === undefined ? {} : { expiresAt: n(hold.expiresAt) }),
    });
    if (from !== undefined && to !== undefined && from.id === to.id) {
      items.push({
        Put: { TableName: this.#table, Item: holdItem(to), ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: names },
      });
    } else {
      if (from !== undefined)
        items.push({
          Delete: {
            TableName: this.#table,
            Key: holdKey(from.id),
            ConditionExpression: 'attribute_exists(#pk)',
            ExpressionAttributeNames: names,
          },
        });
      if (to !== undefined)
        items.push({
          Put: {
            TableName: this.#table,
            Item: holdItem(to),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: names,
          },
        });
    }
    const counters = Object.entries(delta) as [QuotaCounter, number][];
    const holdItems = items.length;
    if (counters.length > 0) {
      const attributeNames: Record<string, string> = {};
      const values: Record<string, AttributeValue> = {};
      const conditions: string[] = [];
      counters.forEach(([counter, d], i) => {
        attributeNames[`#c${i}`] = counter;
        values[`:d${i}`] = n(d);
        const limit = limits[counter];
        if (d > 0 && limit !== undefined) {
          // A single amount over the whole limit can never fit: refuse without a write.
          if (d > limit) throw new QuotaExceededError(counter, limit, 0, d);
          values[`:max${i}`] = n(limit - d);
          conditions.push(`(attribute_not_exists(#c${i}) OR #c${i} <= :max${i})`);
        }
      });
      items.push({
        Update: {
          TableName: this.#table,
          Key: { [PK]: pk, [SK]: s(QUOTA_USAGE_SK) },
          UpdateExpression: `ADD ${counters.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
          ...(conditions.length === 0 ? {} : { ConditionExpression: conditions.join(' AND ') }),
          ExpressionAttributeNames: attributeNames,
          ExpressionAttributeValues: values,
        },
      });
    }
    for (let check = 0; ; check += 1) {
      try {
        await sendTransactionWithRetry(this.#client, new TransactWriteItemsCommand({ TransactItems: items }), MAX_TRANSACTION_ATTEMPTS);
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // A hold that is not as expected (taken already, released already): nothing changed.
        for (let i = 0; i < holdItems; i += 1) if (isConditionFailure(error, i)) return false;
        const refused = overLimit(await this.usage(ownerKeyId), delta, limits);
        if (refused) throw refused;
        // The counters moved back under the limit between the refusal and the read (a release): try again.
        if (check >= MAX_RECHECKS) throw new QuotaExceededError(counters[0]![0], limits[counters[0]![0]] ?? 0, 0, counters[0]![1]);
      }
    }
  }
}
