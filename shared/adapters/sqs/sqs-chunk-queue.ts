import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ChunkTask } from '../../jobs/job-model.js';
import { encodeChunkTask, type ChunkQueue } from '../../jobs/chunk-queue.js';
import { SqsMessageSender, type SqsMessageSenderOptions } from './sqs-message-sender.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from './sqs-message-sender.js';

export type SqsChunkQueueOptions = SqsMessageSenderOptions;

/**
 * SendMessageBatch calls in flight while a submit fans a job out: a 6,400-document job with batch_size 1 is 640 calls,
 * which at 4 in flight took seconds of the API's 29 s.
 */
export const SUBMIT_SENDS_IN_FLIGHT = 16;

/** ChunkQueue over SQS: one message per chunk, sent in batches that retry only what failed (SqsMessageSender). */
export class SqsChunkQueue implements ChunkQueue {
  private readonly sender: SqsMessageSender;

  constructor(client: SQSClient, queueUrl: string, options: SqsChunkQueueOptions = {}) {
    this.sender = new SqsMessageSender(client, queueUrl, { concurrency: SUBMIT_SENDS_IN_FLIGHT, ...options });
  }

  async send(tasks: readonly ChunkTask[]): Promise<void> {
    await this.sender.send(tasks.map(encodeChunkTask), 'chunk', 'use a smaller batch size');
  }
}
