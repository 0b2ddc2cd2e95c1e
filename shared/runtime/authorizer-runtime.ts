import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbApiKeyStore } from '../adapters/dynamodb/keys/dynamodb-api-key-store.js';
import type { ApiKeyStore } from '../auth/api-key-store.js';
import { CachedApiKeyStore } from '../auth/cached-api-key-store.js';
import { loadKeyTableName } from '../config/service-config.js';

/**
 * The edge authorizer's slice of the runtime: the key table's lookups, cached per container - no model, no ONNX
 * Runtime, no other store. Undefined when no key table is configured (the authorizer then fails closed).
 */
export function authorizerKeys(env: Readonly<Record<string, string | undefined>> = process.env): ApiKeyStore | undefined {
  const table = loadKeyTableName(env);
  return table === undefined ? undefined : new CachedApiKeyStore(new DynamoDbApiKeyStore(table, new DynamoDBClient({})));
}
