import type { SQSClient } from '@aws-sdk/client-sqs';
import type { BatchTask } from '../../batches/batch-model.js';
import { encodeBatchTask } from '../../batches/batch-task-codec.js';
import type { BatchTaskQueue } from '../../batches/batch-task-queue.js';
import { SqsMessageSender, type SqsMessageSenderOptions } from './sqs-message-sender.js';

/**
 * The batch engine's tasks over SQS: plan, chunk and finalize tasks carry references (file id, version, byte range),
 * never documents, so a message is a few hundred bytes whatever the corpus; the batch worker function consumes them.
 */
export class SqsBatchTaskQueue implements BatchTaskQueue {
  private readonly sender: SqsMessageSender;

  constructor(client: SQSClient, queueUrl: string, options: SqsMessageSenderOptions = {}) {
    this.sender = new SqsMessageSender(client, queueUrl, options);
  }

  async send(tasks: readonly BatchTask[]): Promise<void> {
    await this.sender.send(tasks.map(encodeBatchTask), 'batch task', 'a task carries references only, so this is a bug');
  }
}
