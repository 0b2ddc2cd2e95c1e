import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { JOB_TABLE_PARTITION_KEY, JOB_TABLE_SORT_KEY, JOB_TABLE_TTL_ATTRIBUTE, jobPk } from '../../shared/adapters/dynamodb/job-table-keys.js';
import { keyPk, ratePk, slotsPk } from '../../shared/adapters/dynamodb/keys/key-table-keys.js';

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
 * (key records), `RATE#<keyId>` (rate counters), `SLOTS#<keyId>` (running-job counters). The key list
 * partition (`KEYS`) matches none of them: only the operator's `npm run keys` reads or writes it.
 */
export const TABLE_PARTITIONS = {
  jobs: jobPk('*'),
  keys: keyPk('*'),
  rates: ratePk('*'),
  slots: slotsPk('*'),
} as const;

export type TablePartition = keyof typeof TABLE_PARTITIONS;

/**
 * Item actions only: no Scan, DeleteItem, BatchWriteItem or table-level actions. TransactWriteItems is
 * authorised per item as PutItem/UpdateItem (the adapters use no ConditionCheck items).
 */
export type TableItemAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem';

/** Which actions a function may take on which partitions of the table. */
export type TableAccess = readonly { readonly partitions: readonly TablePartition[]; readonly actions: readonly TableItemAction[] }[];

/** The job store (create, poll, record chunks, complete, fail) works only on `JOB#` items. */
const JOB_STORE: TableItemAction[] = ['GetItem', 'Query', 'PutItem', 'UpdateItem'];

/** Each function's access, checked item by item by the tests (and nothing else touches the table at run time). */
export const TABLE_ACCESS = {
  /** Jobs; key lookup by digest; rate counter; job slots (acquire on submit, release when a submit fails). */
  api: [
    { partitions: ['jobs'], actions: JOB_STORE },
    { partitions: ['keys'], actions: ['GetItem'] },
    { partitions: ['rates', 'slots'], actions: ['GetItem', 'UpdateItem'] },
  ],
  /** Jobs; releases the owner's job slot when a job completes. */
  worker: [
    { partitions: ['jobs'], actions: JOB_STORE },
    { partitions: ['slots'], actions: ['UpdateItem'] },
  ],
  /** Fails the job of a dead-lettered chunk (read and conditional update of its META item) and releases its slot. */
  deadLetter: [
    { partitions: ['jobs'], actions: ['GetItem', 'UpdateItem'] },
    { partitions: ['slots'], actions: ['GetItem', 'UpdateItem'] },
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
