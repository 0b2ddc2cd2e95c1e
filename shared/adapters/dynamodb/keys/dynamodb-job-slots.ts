import { DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from '../condition-failed.js';
import type { JobSlots } from '../../../auth/job-slots.js';
import { checkPositiveLimit } from '../../../auth/rate-limiter.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK } from '../job-table-keys.js';
import { SLOTS_SK, slotsPk } from './key-table-keys.js';

/**
 * JobSlots on the jobs table: SLOTS#<keyId>/META holds `inUse`; acquire is `ADD inUse 1` if below max, release
 * is `ADD inUse -1` if above 0. Both are single-item conditional updates, which DynamoDB serialises.
 */
export class DynamoDbJobSlots implements JobSlots {
  constructor(
    private readonly tableName: string,
    private readonly client: DynamoDBClient = new DynamoDBClient({}),
  ) {}

  async acquire(keyId: string, max: number): Promise<boolean> {
    checkPositiveLimit('max', max);
    return this.#add(keyId, 1, 'attribute_not_exists(inUse) OR inUse < :bound', max);
  }

  async release(keyId: string): Promise<void> {
    await this.#add(keyId, -1, 'inUse > :bound', 0);
  }

  async inUse(keyId: string): Promise<number> {
    const { Item } = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: this.#key(keyId), ConsistentRead: true }),
    );
    return Number(Item?.['inUse']?.N ?? 0);
  }

  async #add(keyId: string, delta: number, condition: string, bound: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: this.#key(keyId),
          UpdateExpression: 'ADD inUse :delta',
          ConditionExpression: condition,
          ExpressionAttributeValues: { ':delta': { N: String(delta) }, ':bound': { N: String(bound) } },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  #key(keyId: string) {
    return { [PK]: { S: slotsPk(keyId) }, [SK]: { S: SLOTS_SK } };
  }
}
