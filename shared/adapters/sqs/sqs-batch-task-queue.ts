import type { SQSClient } from '@aws-sdk/client-sqs';
import type { BatchTask } from '../../batches/batch-model.js';
import { encodeBatchTask } from '../../batches/batch-task-codec.js';
import type { BatchTaskQueue } from '../../batches/batch-task-queue.js';
import { SqsMessageSender, type SqsMessageSenderOptions } from './sqs-message-sender.js';

/** SendMessageBatch calls in flight while the planner sends tasks. */
export const PLANNER_SENDS_IN_FLIGHT = 16;

/**
 * The batch engine's tasks over SQS: plan, chunk and finalize tasks carry references (file id, version, byte range),
 * never documents, so a message is a few hundred bytes whatever the corpus; the batch worker function consumes them.
 */
export class SqsBatchTaskQueue implements BatchTaskQueue {
  private readonly sender: SqsMessageSender;

  constructor(client: SQSClient, queueUrl: string, options: SqsMessageSenderOptions = {}) {
    // The one planner invocation sends every chunk task of a batch (15,625 for a 1M-document corpus): 16 sends of 10 in
    // flight instead of the sender's 4 keep it ahead of the workers (bench/scale-model.md, "Batches").
    this.sender = new SqsMessageSender(client, queueUrl, { concurrency: PLANNER_SENDS_IN_FLIGHT, ...options });
  }

  async send(tasks: readonly BatchTask[]): Promise<void> {
    await this.sender.send(tasks.map(encodeBatchTask), 'batch task', 'a task carries references only, so this is a bug');
  }
}
