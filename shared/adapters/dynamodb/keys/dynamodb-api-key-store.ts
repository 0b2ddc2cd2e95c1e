import { DynamoDBClient, GetItemCommand, QueryCommand, TransactWriteItemsCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from '../condition-failed.js';
import { apiKeyDigest } from '../../../auth/api-key.js';
import { byCreation, type ApiKeyLimits, type ApiKeyRecord, type CreatedApiKey } from '../../../auth/api-key-record.js';
import type { ApiKeyStore } from '../../../auth/api-key-store.js';
import { mintApiKey } from '../../../auth/mint-api-key.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK } from '../job-table-keys.js';
import { sendTransactionWithRetry } from '../transact-with-retry.js';
import { fromKeyItem, toKeyAttributes } from './api-key-item.js';
import { KEY_LIST_PK, KEY_META_SK, keyPk } from './key-table-keys.js';

type Item = Record<string, AttributeValue>;

export interface DynamoDbApiKeyStoreOptions {
  /** Epoch seconds. */
  readonly clock?: () => number;
}

/**
 * ApiKeyStore in the jobs table (see key-table-keys.ts). `findByKey` is one GetItem on KEY#<digest>; the KEYS
 * partition is only touched by create/list/revoke (the CLI), so request traffic never lands on it.
 * Create and revoke write both items in one transaction, so the listing and the lookup cannot disagree.
 */
export class DynamoDbApiKeyStore implements ApiKeyStore {
  readonly #clock: () => number;
  readonly #tableName: string;
  readonly #client: DynamoDBClient;

  constructor(tableName: string, client: DynamoDBClient = new DynamoDBClient({}), options: DynamoDbApiKeyStoreOptions = {}) {
    this.#tableName = tableName;
    this.#client = client;
    this.#clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  async create(name: string, options: ApiKeyLimits = {}): Promise<CreatedApiKey> {
    const { key, digest, record } = mintApiKey(name, options, this.#clock());
    const attributes = toKeyAttributes(record);
    const put = (pk: string, sk: string, extra: Item = {}) => ({
      Put: {
        TableName: this.#tableName,
        Item: { [PK]: { S: pk }, [SK]: { S: sk }, ...attributes, ...extra },
        ConditionExpression: `attribute_not_exists(${PK})`,
      },
    });
    try {
      await sendTransactionWithRetry(
        this.#client,
        new TransactWriteItemsCommand({
          TransactItems: [put(keyPk(digest), KEY_META_SK), put(KEY_LIST_PK, record.keyId, { digest: { S: digest } })],
        }),
      );
    } catch (error) {
      // Only a 64-bit id collision (or a repeated 238-bit key) can fail the conditions.
      if (isConditionFailure(error)) throw new Error('key id collision; create again', { cause: error });
      throw error;
    }
    return { key, record };
  }

  async findByKey(key: string): Promise<ApiKeyRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetItemCommand({
        TableName: this.#tableName,
        Key: { [PK]: { S: keyPk(apiKeyDigest(key)) }, [SK]: { S: KEY_META_SK } },
        // A revocation must bite on the next uncached lookup, not a replica later.
        ConsistentRead: true,
      }),
    );
    if (Item === undefined) return undefined;
    const record = fromKeyItem(Item);
    return record.revokedAt === undefined ? record : undefined;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          KeyConditionExpression: `${PK} = :pk`,
          ExpressionAttributeValues: { ':pk': { S: KEY_LIST_PK } },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      records.push(...(page.Items ?? []).map(fromKeyItem));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return records.sort(byCreation);
  }

  async revoke(keyId: string): Promise<boolean> {
    const { Item } = await this.#client.send(
      new GetItemCommand({ TableName: this.#tableName, Key: { [PK]: { S: KEY_LIST_PK }, [SK]: { S: keyId } }, ConsistentRead: true }),
    );
    const digest = Item?.['digest']?.S;
    if (Item === undefined || digest === undefined || Item['revokedAt'] !== undefined) return false;
    const update = (pk: string, sk: string) => ({
      Update: {
        TableName: this.#tableName,
        Key: { [PK]: { S: pk }, [SK]: { S: sk } },
        UpdateExpression: 'SET revokedAt = :now',
        ConditionExpression: `attribute_exists(${PK}) AND attribute_not_exists(revokedAt)`,
        ExpressionAttributeValues: { ':now': { N: String(this.#clock()) } },
      },
    });
    try {
      await sendTransactionWithRetry(
        this.#client,
        new TransactWriteItemsCommand({ TransactItems: [update(keyPk(digest), KEY_META_SK), update(KEY_LIST_PK, keyId)] }),
      );
      return true;
    } catch (error) {
      // A concurrent revoke won: the key is revoked either way, but not by this call.
      if (isConditionFailure(error)) {
        return false;
      }
      throw error;
    }
  }
}
