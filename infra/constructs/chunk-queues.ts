import { Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** SQS's largest message; set explicitly because chunks carry their documents inline. */
const CHUNK_MAX_MESSAGE_BYTES = 1_048_576;

export interface ChunkQueuesProps {
  /** The worker's timeout: the visibility timeout is six times it, as AWS advises for SQS event sources. */
  readonly workerTimeout: Duration;
  /** The dead-letter consumer's timeout: the DLQ's visibility timeout is six times it. */
  readonly deadLetterConsumerTimeout: Duration;
  readonly maxReceiveCount: number;
  /** A chunk older than its job is useless; the queue keeps messages this long (capped at SQS's 14 days). */
  readonly jobTtlSeconds: number;
}

/** The chunk queue with its dead-letter queue and redrive; TLS-only, SQS-managed encryption. */
export class ChunkQueues extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ChunkQueuesProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      maxMessageSizeBytes: CHUNK_MAX_MESSAGE_BYTES,
      visibilityTimeout: Duration.seconds(props.deadLetterConsumerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      maxMessageSizeBytes: CHUNK_MAX_MESSAGE_BYTES,
      visibilityTimeout: Duration.seconds(props.workerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.seconds(Math.min(Math.max(props.jobTtlSeconds, 60), 14 * 86_400)),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
  }

  /** Every function's config names the queue (RERANK_JOBS_BACKEND=aws requires it), whether or not it sends. */
  get environment(): Record<string, string> {
    return { RERANK_CHUNK_QUEUE_URL: this.queue.queueUrl, RERANK_MAX_MESSAGE_BYTES: String(CHUNK_MAX_MESSAGE_BYTES) };
  }

  /** The API submits jobs: it may only send (SendMessageBatch is authorised as sqs:SendMessage). */
  grantSendChunks(grantee: iam.IGrantable): void {
    this.queue.grant(grantee, 'sqs:SendMessage');
  }
}
