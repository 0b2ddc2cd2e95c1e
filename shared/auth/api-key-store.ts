import type { ApiKeyLimits, ApiKeyRecord, CreatedApiKey } from './api-key-record.js';

/**
 * Where API keys live, as SHA-256 digests only. Adapters: DynamoDB (the jobs table, KEY#/KEYS items) and
 * in-memory (optionally persisted to a JSON file for local development). Every adapter passes
 * test/contract/key-store.contract.ts.
 */
export interface ApiKeyStore {
  /** Mints a key; the plaintext is in the answer and nowhere else. Throws InvalidApiKeyOptionsError on a bad name or limit. */
  create(name: string, options?: ApiKeyLimits): Promise<CreatedApiKey>;
  /** The record of a live key, looked up by digest; unknown and revoked keys give undefined. */
  findByKey(key: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes a live key; false when the id is unknown or already revoked. */
  revoke(keyId: string): Promise<boolean>;
}
