/**
 * The jobs table's key schema, shared with the CDK stack so the deployed table and the adapter cannot drift.
 * One partition per job: META, DOCS#p, RESULT#p items sit under `JOB#<id>`; its chunks are recorded in the ChunkLedger
 * (batch-table-keys.ts, owner `job:<id>`), spread over partitions.
 */
export const JOB_TABLE_PARTITION_KEY = 'pk';
export const JOB_TABLE_SORT_KEY = 'sk';
/** Epoch seconds; DynamoDB TTL deletes items (lazily, hours late in AWS) once this is past. */
export const JOB_TABLE_TTL_ATTRIBUTE = 'ttl';

export const META_SK = 'META';
export const DOCS_SK_PREFIX = 'DOCS#';
export const RESULT_SK_PREFIX = 'RESULT#';

// Zero-padded so sort keys order numerically in a Query; readers still sort by the parsed number.
const pad = (n: number): string => String(n).padStart(6, '0');

export const jobPk = (jobId: string): string => `JOB#${jobId}`;
export const docsSk = (page: number): string => `${DOCS_SK_PREFIX}${pad(page)}`;
export const resultSk = (page: number): string => `${RESULT_SK_PREFIX}${pad(page)}`;
