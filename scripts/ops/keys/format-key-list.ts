import type { ApiKeyRecord } from '../../../shared/auth/api-key-record.js';

const iso = (seconds: number | undefined): string =>
  seconds === undefined ? '-' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** A plain-text table of key records: ids, names, prefixes, times and limits; there is no key to print. */
export function formatKeyList(records: readonly ApiKeyRecord[]): string {
  const header = ['KEY ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED', 'RATE/MIN', 'MAX JOBS', 'MAX QUEUED PAIRS'];
  const rows = records.map((r) => [
    r.keyId,
    r.name,
    r.prefix,
    iso(r.createdAt),
    iso(r.revokedAt),
    r.rateLimitPerMinute === undefined ? 'default' : String(r.rateLimitPerMinute),
    r.maxConcurrentJobs === undefined ? 'default' : String(r.maxConcurrentJobs),
    r.maxQueuedPairs === undefined ? 'default' : String(r.maxQueuedPairs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
