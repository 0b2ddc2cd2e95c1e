import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { RequestControl, TokenCuts } from '../../core/request-controls.js';
import type { JobSpec, JobState, JobStatus } from '../../jobs/job-model.js';
import { decodeCuts } from './token-cuts-codec.js';
import { JOB_TABLE_PARTITION_KEY, JOB_TABLE_SORT_KEY, JOB_TABLE_TTL_ATTRIBUTE, META_SK, jobPk } from './job-table-keys.js';

type Item = Record<string, AttributeValue>;

/** What META holds beyond the JobRecord: bookkeeping the adapter needs and callers never see. */
export interface MetaBookkeeping {
  readonly ttl: number;
  readonly resultPages: number | undefined;
  readonly totalTokens: number | undefined;
  /** What the model cut (StoredResult.cuts), written with the result. */
  readonly cuts: TokenCuts | undefined;
}

const n = (value: number): AttributeValue => ({ N: String(value) });

export function toMetaItem(spec: JobSpec, now: number): Item {
  const item: Item = {
    [JOB_TABLE_PARTITION_KEY]: { S: jobPk(spec.id) },
    [JOB_TABLE_SORT_KEY]: { S: META_SK },
    id: { S: spec.id },
    dialect: { S: spec.dialect },
    ownerKeyId: { S: spec.ownerKeyId },
    model: { S: spec.model },
    documentCount: n(spec.documentCount),
    chunkCount: n(spec.chunkCount),
    returnDocuments: { BOOL: spec.returnDocuments },
    activation: { S: spec.activation },
    expiresAt: n(spec.expiresAt),
    status: { S: 'running' satisfies JobStatus },
    createdAt: n(now),
    updatedAt: n(now),
    [JOB_TABLE_TTL_ATTRIBUTE]: n(spec.expiresAt),
  };
  // Absent attributes stand for `undefined`; DynamoDB has no undefined and NULL would read back as a value.
  if (spec.topN !== undefined) item['topN'] = n(spec.topN);
  if (spec.threshold !== undefined) item['threshold'] = n(spec.threshold);
  if (spec.requestHash !== undefined) item['requestHash'] = { S: spec.requestHash };
  if (spec.unusedControls?.length) item['unusedControls'] = { L: spec.unusedControls.map((control) => ({ S: control })) };
  if (spec.fusion !== undefined) item['fusion'] = { M: { query: { S: spec.fusion.query }, chunkModel: { S: spec.fusion.chunkModel } } };
  return item;
}

const str = (item: Item, name: string): string => {
  const value = item[name]?.S;
  if (value === undefined) throw new TypeError(`job META item lacks string attribute ${name}`);
  return value;
};
const optNum = (item: Item, name: string): number | undefined => {
  const value = item[name]?.N;
  return value === undefined ? undefined : Number(value);
};
const num = (item: Item, name: string): number => {
  const value = optNum(item, name);
  if (value === undefined) throw new TypeError(`job META item lacks number attribute ${name}`);
  return value;
};

export function fromMetaItem(item: Item): { record: JobState; bookkeeping: MetaBookkeeping } {
  const error = item['error']?.S;
  const fusion = item['fusion']?.M;
  const requestHash = item['requestHash']?.S;
  const unused = item['unusedControls']?.L?.map((control) => control.S as RequestControl);
  const record: JobState = {
    id: str(item, 'id'),
    dialect: str(item, 'dialect') as JobState['dialect'],
    ownerKeyId: str(item, 'ownerKeyId'),
    model: str(item, 'model'),
    documentCount: num(item, 'documentCount'),
    chunkCount: num(item, 'chunkCount'),
    topN: optNum(item, 'topN'),
    threshold: optNum(item, 'threshold'),
    returnDocuments: item['returnDocuments']?.BOOL === true,
    activation: str(item, 'activation') as JobState['activation'],
    expiresAt: num(item, 'expiresAt'),
    status: str(item, 'status') as JobStatus,
    createdAt: num(item, 'createdAt'),
    updatedAt: num(item, 'updatedAt'),
    ...(error === undefined ? {} : { error }),
    ...(requestHash === undefined ? {} : { requestHash }),
    ...(unused?.length ? { unusedControls: unused } : {}),
    ...(fusion === undefined ? {} : { fusion: { query: fusion['query']?.S ?? '', chunkModel: fusion['chunkModel']?.S ?? '' } }),
  };
  return {
    record,
    bookkeeping: {
      ttl: num(item, JOB_TABLE_TTL_ATTRIBUTE),
      resultPages: optNum(item, 'resultPages'),
      totalTokens: optNum(item, 'totalTokens'),
      cuts: item['tokenCuts']?.B ? decodeCuts(item['tokenCuts'].B) : undefined,
    },
  };
}
