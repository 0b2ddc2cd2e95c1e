import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from '../condition-failed.js';
import {
  RATE_WINDOW_SECONDS,
  checkPositiveLimit,
  retryAfterOf,
  windowStartOf,
  type RateDecision,
  type RateLimiter,
} from '../../../auth/rate-limiter.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from '../job-table-keys.js';
import { ratePk, rateSk } from './key-table-keys.js';

/**
 * RateLimiter on the jobs table: one item per key and minute, `ADD count :one` guarded by `count < limit`, so
 * DynamoDB serialises concurrent requests and exactly `limit` of them pass. A refused request still costs one
 * write (a failed condition is billed). Items expire by TTL two minutes after their window starts.
 */
export class DynamoDbRateLimiter implements RateLimiter {
  readonly #tableName: string;
  readonly #client: DynamoDBClient;

  constructor(tableName: string, client: DynamoDBClient = new DynamoDBClient({})) {
    this.#tableName = tableName;
    this.#client = client;
  }

  async consume(keyId: string, limitPerMinute: number, now: number): Promise<RateDecision> {
    checkPositiveLimit('limitPerMinute', limitPerMinute);
    const start = windowStartOf(now);
    try {
      const { Attributes } = await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#tableName,
          Key: { [PK]: { S: ratePk(keyId) }, [SK]: { S: rateSk(start) } },
          UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL },
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':limit': { N: String(limitPerMinute) },
            ':ttl': { N: String(start + 2 * RATE_WINDOW_SECONDS) },
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const count = Number(Attributes?.['count']?.N ?? limitPerMinute);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, limitPerMinute - count) };
    } catch (error) {
      if (isConditionFailure(error)) return { allowed: false, retryAfterSeconds: retryAfterOf(now), remaining: 0 };
      throw error;
    }
  }
}
