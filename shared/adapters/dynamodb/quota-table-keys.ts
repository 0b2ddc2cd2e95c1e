/**
 * Keys of the quota ledger's items on the jobs table; infra builds the grants from these. One partition per API key:
 * its counters (`USAGE`) and one item per hold (`HOLD#<id>`), so a key's whole ledger is one Query.
 */
export const quotaPk = (ownerKeyId: string): string => `QUOTA#${ownerKeyId}`;
export const QUOTA_USAGE_SK = 'USAGE';
export const QUOTA_HOLD_SK_PREFIX = 'HOLD#';
export const quotaHoldSk = (holdId: string): string => `${QUOTA_HOLD_SK_PREFIX}${holdId}`;
