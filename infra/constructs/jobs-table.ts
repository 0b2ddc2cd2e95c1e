import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  JOB_TABLE_PARTITION_KEY,
  JOB_TABLE_SORT_KEY,
  JOB_TABLE_TTL_ATTRIBUTE,
  jobPk,
} from '../../shared/adapters/dynamodb/job-table-keys.js';
import { keyPk, ratePk } from '../../shared/adapters/dynamodb/keys/key-table-keys.js';
import { ACTIVE_BATCHES_PK, batchPk, ownerBatchesPk } from '../../shared/adapters/dynamodb/batch-table-keys.js';
import { pendingUploadsPk, uploadPk } from '../../shared/adapters/dynamodb/upload-table-keys.js';
import { quotaPk } from '../../shared/adapters/dynamodb/quota-table-keys.js';

export interface JobsTableProps {
  /** Point-in-time recovery (default false). */
  readonly pointInTimeRecovery?: boolean;
  /** Refuse DeleteTable from anyone until turned off (default false). */
  readonly deletionProtection?: boolean;
  /** Default RETAIN: the table holds the API keys as well as the (transient) jobs. */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * Partition key patterns of the items sharing the table, built with the adapters' own key functions so a
 * renamed prefix breaks the grants' tests instead of production: `JOB#<id>` (job store), `KEY#<digest>`
 * (key records), `RATE#<keyId>` (rate counters). The key list
 * partition (`KEYS`) matches none of them: only the operator's `npm run keys` reads or writes it.
 */
const TABLE_PARTITIONS = {
  jobs: jobPk('*'),
  keys: keyPk('*'),
  rates: ratePk('*'),
  /** A batch's META and its line shards (`BATCH#<id>`, `BATCH#<id>#S<nn>`). */
  batches: batchPk('*'),
  /**
   * A job's chunk scores and counters in the ChunkLedger (`BATCH#job:<id>#S<nn>`): the batch protocol's items under
   * jobLedgerOwner's key (shared/jobs is not infra's to import; the stack test holds the two together).
   */
  jobChunks: batchPk('job:*'),
  /** Each key's batches, newest first (`BATCHES#<keyId>`). */
  batchOwners: ownerBatchesPk('*'),
  /** Batches not yet ended (expiry sweep, running-batch quota). */
  activeBatches: ACTIVE_BATCHES_PK,
  /** `/v1/uploads` on AWS: each upload (`UPLOAD#<id>`) and each key's pending uploads (`UPLOADS_PENDING#<keyId>`). */
  uploads: uploadPk('*'),
  pendingUploads: pendingUploadsPk('*'),
  /** Each key's quota ledger: its counters and one item per hold (`QUOTA#<keyId>`). */
  quotas: quotaPk('*'),
} as const;

export type TablePartition = keyof typeof TABLE_PARTITIONS;

/**
 * Item actions only: no Scan, BatchWriteItem or table-level actions (DeleteItem and BatchGetItem - a batch's progress shards in one read - only on batch partitions). TransactWriteItems is
 * authorised per item as PutItem/UpdateItem (the adapters use no ConditionCheck items).
 */
export type TableItemAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

/** Which actions a function may take on which partitions of the table. */
export type TableAccess = readonly { readonly partitions: readonly TablePartition[]; readonly actions: readonly TableItemAction[] }[];

/** The job store (create, poll, complete, fail) works only on `JOB#` items. */
const JOB_STORE: TableItemAction[] = ['GetItem', 'Query', 'PutItem', 'UpdateItem'];

/**
 * A job's chunks in the ChunkLedger: put the scores, count them on a counter (reading the finished flag of a large
 * job), sum the counters, read them back to merge and delete them after.
 */
const JOB_CHUNKS: TableItemAction[] = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'];

/**
 * The batch store: versioned META transitions, per-line plans, chunk scores and results (deleted once the output
 * files hold them), progress counters; an ended batch leaves the active index (a Delete in the same transaction).
 */
const BATCH_STORE: TableItemAction[] = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'];

/** Giving a hold back on a key's quota ledger: read the hold, then delete it and subtract it in one transaction. */
const QUOTA_RELEASE: TableItemAction[] = ['GetItem', 'UpdateItem', 'DeleteItem'];

/** Each function's access, checked item by item by the tests (and nothing else touches the table at run time). */
export const TABLE_ACCESS = {
  /** Jobs; key lookup by digest; rate counter; running jobs, batches and files on the key's quota ledger. */
  api: [
    { partitions: ['jobs'], actions: JOB_STORE },
    { partitions: ['keys'], actions: ['GetItem'] },
    { partitions: ['rates'], actions: ['GetItem', 'UpdateItem'] },
    // Create (META, owner index, active index), get, list, cancel.
    { partitions: ['batches', 'activeBatches'], actions: BATCH_STORE },
    { partitions: ['batchOwners'], actions: ['Query', 'PutItem'] },
    // Uploads: create (the upload and its pending entry in one transaction), get, add a part, complete or cancel
    // (the pending entry deleted in the same transaction), count a key's pending uploads.
    { partitions: ['uploads'], actions: ['GetItem', 'PutItem', 'UpdateItem'] },
    { partitions: ['pendingUploads'], actions: ['Query', 'PutItem', 'DeleteItem'] },
    // The per-key quota ledger: reserve (put a hold, add to the counters in one transaction), replace, release
    // (delete the hold, subtract), read the counters, list a key's expired holds.
    { partitions: ['quotas'], actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  ],
  /** Jobs; records and counts chunks, merges the job whose count it completes; gives the job's hold back then. */
  worker: [
    { partitions: ['jobs'], actions: JOB_STORE },
    { partitions: ['jobChunks'], actions: JOB_CHUNKS },
    { partitions: ['quotas'], actions: QUOTA_RELEASE },
  ],
  /**
   * Fails the job of a dead-lettered chunk (read and conditional update of its META item) and gives its running-job hold back; a
   * chunk recorded after all lets it merge the job instead (its chunks read, its result written, its scores dropped).
   */
  deadLetter: [
    { partitions: ['jobs'], actions: JOB_STORE },
    { partitions: ['jobChunks'], actions: ['BatchGetItem', 'Query', 'DeleteItem'] },
    { partitions: ['quotas'], actions: QUOTA_RELEASE },
  ],
  /**
   * The batch worker runs plan, chunk and finalize tasks and the expiry sweep; on the key's quota ledger it charges each
   * result line's bytes as it is kept, moves them to the output files' holds (the batch's line holds found by their id
   * prefix: a Query of the key's hold items), grows the batch's queued-pairs hold as it plans (read, then one transaction) and
   * gives the running batch and its queued pairs back.
   */
  batchWorker: [
    { partitions: ['batches', 'activeBatches'], actions: BATCH_STORE },
    { partitions: ['quotas'], actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  ],
  /** The edge authorizer only looks keys up by digest. */
  authorizer: [{ partitions: ['keys'], actions: ['GetItem'] }],
} as const satisfies Record<string, TableAccess>;

/** The jobs table: on-demand, string pk/sk and TTL named by the adapter's own constants, so the two cannot drift. */
export class JobsTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: JobsTableProps = {}) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: JOB_TABLE_PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      sortKey: { name: JOB_TABLE_SORT_KEY, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: JOB_TABLE_TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: props.pointInTimeRecovery ?? false },
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      deletionProtection: props.deletionProtection ?? false,
    });
  }

  /**
   * One statement per access entry on this table's ARN, limited by `dynamodb:LeadingKeys` to the entry's
   * partition prefixes, and the table's name in the function's env. Every granted action names a partition key
   * value, so the condition always has a value to test.
   */
  grantAccess(fn: iam.IGrantable & { addEnvironment(key: string, value: string): unknown }, access: TableAccess): void {
    for (const { partitions, actions } of access) {
      fn.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [this.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions.map((p) => TABLE_PARTITIONS[p]) } },
        }),
      );
    }
    fn.addEnvironment('RERANK_JOBS_TABLE', this.table.tableName);
  }
}
