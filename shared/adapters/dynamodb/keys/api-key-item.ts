import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ApiKeyRecord } from '../../../auth/api-key-record.js';

type Item = Record<string, AttributeValue>;

/** The record's attributes (no pk/sk); both the KEY# and the KEYS item carry them. */
export function toKeyAttributes(record: ApiKeyRecord): Item {
  return {
    keyId: { S: record.keyId },
    name: { S: record.name },
    prefix: { S: record.prefix },
    createdAt: { N: String(record.createdAt) },
    ...(record.revokedAt === undefined ? {} : { revokedAt: { N: String(record.revokedAt) } }),
    ...(record.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: { N: String(record.rateLimitPerMinute) } }),
    ...(record.maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs: { N: String(record.maxConcurrentJobs) } }),
    ...(record.maxQueuedPairs === undefined ? {} : { maxQueuedPairs: { N: String(record.maxQueuedPairs) } }),
  };
}

export function fromKeyItem(item: Item): ApiKeyRecord {
  const number = (name: string): number | undefined => (item[name]?.N === undefined ? undefined : Number(item[name]?.N));
  const revokedAt = number('revokedAt');
  const rateLimitPerMinute = number('rateLimitPerMinute');
  const maxConcurrentJobs = number('maxConcurrentJobs');
  const maxQueuedPairs = number('maxQueuedPairs');
  return {
    keyId: item['keyId']?.S ?? '',
    name: item['name']?.S ?? '',
    prefix: item['prefix']?.S ?? '',
    createdAt: number('createdAt') ?? 0,
    ...(revokedAt === undefined ? {} : { revokedAt }),
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
    ...(maxConcurrentJobs === undefined ? {} : { maxConcurrentJobs }),
    ...(maxQueuedPairs === undefined ? {} : { maxQueuedPairs }),
  };
}
