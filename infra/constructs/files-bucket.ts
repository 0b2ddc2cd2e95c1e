import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { S3_FILE_KEY_PREFIXES } from '../../shared/adapters/s3/s3-file-keys.js';
import { acknowledge, NAG_ACKNOWLEDGEMENTS } from '../nag/acknowledge-nag-findings.js';

export interface FilesBucketProps {
  /** Uploaded files, batch inputs, outputs and error files are deleted this many days after creation (default 30). */
  readonly retentionDays?: number;
  /** Default RETAIN: a stack update that replaces the bucket must not take callers' files with it. */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * Object key prefixes the S3 FileStore writes, read from the store's own list (bytes, owner indexes, usage): a
 * prefix added there is granted here without an edit, so the grant cannot fall behind the store.
 */
const FILE_PREFIXES = S3_FILE_KEY_PREFIXES.map((prefix) => `${prefix}*`);

/**
 * The bucket behind the Files, Uploads and Batches APIs: private (all public access blocked), S3-managed
 * encryption, TLS only, versioned so chunk tasks can pin the bytes they read, access-logged, and every object
 * (and every abandoned multipart upload) expired by a lifecycle rule matching the documented retention.
 */
export class FilesBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  readonly retentionDays: number;

  constructor(scope: Construct, id: string, props: FilesBucketProps = {}) {
    super(scope, id);
    this.retentionDays = props.retentionDays ?? 30;
    if (!Number.isInteger(this.retentionDays) || this.retentionDays < 1) {
      throw new Error(`FilesBucket: retentionDays must be a whole number of days >= 1, got ${props.retentionDays}`);
    }
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy,
    });
    acknowledge(this.accessLogs, NAG_ACKNOWLEDGEMENTS.accessLogBucketNotLogged);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'files-bucket/',
      lifecycleRules: [
        {
          expiration: Duration.days(this.retentionDays),
          // Versioning keeps a deleted file's bytes as a noncurrent version: they go a day later.
          noncurrentVersionExpiration: Duration.days(1),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy,
    });
  }

  /** Every function that reads or writes files is told where, in the same step as its grant. */
  get environment(): Record<string, string> {
    return { RERANK_FILES_BUCKET: this.bucket.bucketName, RERANK_FILE_RETENTION_DAYS: String(this.retentionDays) };
  }

  /**
   * Object actions named one by one (no `s3:*` family wildcards) on the FileStore's prefixes only. ListBucket is on
   * the bucket without a prefix condition: S3 answers a HeadObject of a missing key 404 only to a principal that may
   * list, and the store's "no such file" depends on that 404 (403 otherwise).
   */
  grantFiles(grantee: iam.IGrantable, access: 'read' | 'readWrite'): void {
    const objects = FILE_PREFIXES.map((prefix) => this.bucket.arnForObjects(prefix));
    const write = access === 'readWrite' ? ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'] : [];
    iam.Grant.addToPrincipal({ grantee, actions: ['s3:GetObject', 's3:GetObjectVersion', ...write], resourceArns: objects });
    iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [this.bucket.bucketArn] });
    const stack = Stack.of(this);
    const bucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket)) as string;
    // The finding is reported on the principal's policy: acknowledged there, not stack-wide.
    const principal = grantee.grantPrincipal;
    if (!Construct.isConstruct(principal)) return;
    for (const prefix of FILE_PREFIXES) {
      acknowledge(principal, {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}]`,
        reason: NAG_ACKNOWLEDGEMENTS.fileObjectPrefixes.reason,
      });
    }
  }
}
