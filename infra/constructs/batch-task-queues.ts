import type * as iam from 'aws-cdk-lib/aws-iam';
import { ChunkQueues } from './chunk-queues.js';

/**
 * The batch engine's task queue and its DLQ: the same queue pair as the chunk queues (TLS only, SQS-managed
 * encryption, redrive after maxReceiveCount), carrying plan, chunk and finalize tasks by reference.
 */
export class BatchTaskQueues extends ChunkQueues {
  /** Every function's config names the queue: the API sends plan tasks, the batch worker the rest. */
  override get environment(): Record<string, string> {
    return { RERANK_BATCH_QUEUE_URL: this.queue.queueUrl };
  }

  /** Sending only (SendMessageBatch is authorised as sqs:SendMessage); the event source grants the consumer. */
  grantSendTasks(grantee: iam.IGrantable): void {
    this.queue.grant(grantee, 'sqs:SendMessage');
  }
}
