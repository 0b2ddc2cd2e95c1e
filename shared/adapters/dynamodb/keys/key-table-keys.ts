/**
 * Auth items in the jobs table (same pk/sk/ttl schema as job-table-keys.ts; no new index):
 *   KEY#<sha256 hex of the key> / META      the key's record, found by digest on every authenticated request
 *   KEYS / <keyId>                          listing copy (plus the digest), written in the same transaction
 *   RATE#<keyId> / <window start, epoch s>  request counter of one fixed minute, TTL 2 minutes
 * Partition prefixes never collide with JOB#<id>, so the job store and these adapters share the table.
 */
export const KEY_LIST_PK = 'KEYS';
export const KEY_META_SK = 'META';

export const keyPk = (digestHex: string): string => `KEY#${digestHex}`;
export const ratePk = (keyId: string): string => `RATE#${keyId}`;
export const rateSk = (windowStart: number): string => String(windowStart);
