import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { JOB_TABLE_PARTITION_KEY, JOB_TABLE_SORT_KEY, JOB_TABLE_TTL_ATTRIBUTE } from '../../shared/adapters/dynamodb/job-table-keys.js';

export interface JobsTableProps {
  /** Point-in-time recovery (default false: job records live for a day and can be resubmitted). */
  readonly pointInTimeRecovery?: boolean;
  /** Default DESTROY: jobs are transient, and `cdk destroy` should leave nothing billable behind. */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The only DynamoDB calls DynamoDbJobStore makes (TransactWriteItems is authorised per item as PutItem/UpdateItem).
 * No Scan, DeleteItem, BatchWriteItem or table-level actions.
 */
export const JOB_STORE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;

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
      removalPolicy: props.removalPolicy ?? RemovalPolicy.DESTROY,
    });
  }

  /** Grants the job store's item actions on this table and tells the function its name, in one step. */
  grantJobStore(fn: iam.IGrantable & { addEnvironment(key: string, value: string): unknown }): void {
    this.table.grant(fn, ...JOB_STORE_ACTIONS);
    fn.addEnvironment('RERANK_JOBS_TABLE', this.table.tableName);
  }
}
