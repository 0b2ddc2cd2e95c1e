import type { SQSClient } from '@aws-sdk/client-sqs';
import type { EngineTask } from '../../engine/engine-task.js';
import { encodeTask } from '../../engine/task-codec.js';
import type { SendOptions, TaskQueue } from '../../engine/task-queue.js';
import { SqsMessageSender, type SqsMessageSenderOptions } from './sqs-message-sender.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from './sqs-message-sender.js';

export type SqsTaskQueueOptions = SqsMessageSenderOptions;

/**
 * SendMessageBatch calls in flight while one call fans work out: a 6,400-document job with batch_size 1 is 640 calls
 * (at 4 in flight they took seconds of the API's 29 s), and the one planner invocation of a 1M-document corpus sends
 * 15,625 chunk tasks (16 sends of 10 keep it ahead of the workers; bench/scale-model.md, "Batches").
 */
export const SENDS_IN_FLIGHT = 16;

/** How each lane's message is named in an error, and what to do about one that is too big. */
const LANES = {
  chunk: { what: 'chunk', remedy: 'use a smaller batch size' },
  batch: { what: 'batch task', remedy: 'a task carries references only, so this is a bug' },
} as const;

/**
 * The async engine's task queue over SQS, one class for both lanes (the chunk queue of jobs, the batch task queue):
 * one message per task in the engine's one wire form (task-codec.ts), sent in batches that retry only what failed (SqsMessageSender).
 */
export class SqsTaskQueue<T extends EngineTask> implements TaskQueue<T> {
  readonly #sender: SqsMessageSender;
  readonly #lane: (typeof LANES)[keyof typeof LANES];

  constructor(client: SQSClient, queueUrl: string, lane: keyof typeof LANES, options: SqsTaskQueueOptions = {}) {
    this.#sender = new SqsMessageSender(client, queueUrl, { concurrency: SENDS_IN_FLIGHT, ...options });
    this.#lane = LANES[lane];
  }

  /** A tenant becomes the messages' MessageGroupId: on a standard queue that is SQS fair queues' tenant (no FIFO ordering). */
  async send(tasks: readonly T[], options: SendOptions = {}): Promise<void> {
    await this.#sender.send(tasks.map(encodeTask), this.#lane.what, this.#lane.remedy, options.tenant);
  }
}
