import { SendMessageBatchCommand, type SQSClient, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { forEachBounded } from '../../core/for-each-bounded.js';
import { groupIntoBatches } from './group-into-batches.js';

/** The queue's MaximumMessageSize, which the CDK stack sets explicitly; AWS caps one message and one batch at 1 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

export interface SqsMessageSenderOptions {
  /** Cap for one message body and for the sum of bodies in one SendMessageBatch. */
  readonly maxMessageBytes?: number;
  /** Attempts for entries SQS reports in `Failed` (or whole batches whose call threw). */
  readonly maxAttempts?: number;
  readonly baseDelayMs?: number;
  /** Batches in flight at once. */
  readonly concurrency?: number;
}

/**
 * Sends message bodies to one SQS queue: SendMessageBatch in groups of at most 10 entries and maxMessageBytes in
 * total, retrying only what failed. The SDK already retries throttling of whole calls; partial failures are ours.
 */
export class SqsMessageSender {
  readonly #client: SQSClient;
  readonly #queueUrl: string;
  readonly #maxMessageBytes: number;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #concurrency: number;

  constructor(client: SQSClient, queueUrl: string, options: SqsMessageSenderOptions = {}) {
    this.#client = client;
    this.#queueUrl = queueUrl;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxAttempts = options.maxAttempts ?? 4;
    this.#baseDelayMs = options.baseDelayMs ?? 100;
    this.#concurrency = options.concurrency ?? 4;
  }

  /** `what` names a message in errors (`chunk`); `remedy` tells the caller what to do about one that is too big. */
  async send(bodies: readonly string[], what: string, remedy: string, messageGroupId?: string): Promise<void> {
    // Ids are positions in `bodies`, so a Failed entry maps straight back to its message across retries.
    let pending: SendMessageBatchRequestEntry[] = bodies.map((body, i) => ({
      Id: `t${i}`,
      MessageBody: body,
      ...(messageGroupId === undefined ? {} : { MessageGroupId: messageGroupId }),
    }));
    const tooBig = pending.filter((e) => Buffer.byteLength(e.MessageBody ?? '', 'utf8') > this.#maxMessageBytes);
    if (tooBig.length > 0) {
      throw new RangeError(`${tooBig.length} ${what} message(s) exceed ${this.#maxMessageBytes} bytes; ${remedy}`);
    }
    const reasons = new Set<string>();
    for (let attempt = 1; pending.length > 0 && attempt <= this.#maxAttempts; attempt += 1) {
      if (attempt > 1) await sleep(this.#baseDelayMs * 2 ** (attempt - 2) * (0.5 + Math.random()));
      const { retry, permanent } = await this.#sendOnce(pending, reasons);
      if (permanent.length > 0) {
        throw new Error(
          `${permanent.length + retry.length} of ${bodies.length} ${what} messages could not be sent: ${[...reasons].join('; ')}`,
        );
      }
      pending = retry;
    }
    if (pending.length > 0) {
      throw new Error(
        `${pending.length} of ${bodies.length} ${what} messages could not be sent after ${this.#maxAttempts} attempts: ${[...reasons].join('; ')}`,
      );
    }
  }

  /** One pass over the entries; returns those worth retrying and those SQS blamed on the sender. */
  async #sendOnce(entries: readonly SendMessageBatchRequestEntry[], reasons: Set<string>) {
    const batches = groupIntoBatches(entries, 10, this.#maxMessageBytes, (e) => Buffer.byteLength(e.MessageBody ?? '', 'utf8'));
    const retry: SendMessageBatchRequestEntry[] = [];
    const permanent: SendMessageBatchRequestEntry[] = [];
    await forEachBounded(batches, this.#concurrency, async (batch) => {
      try {
        const out = await this.#client.send(new SendMessageBatchCommand({ QueueUrl: this.#queueUrl, Entries: batch }));
        for (const failed of out.Failed ?? []) {
          const entry = batch.find((e) => e.Id === failed.Id);
          if (entry === undefined) continue;
          reasons.add(`${failed.Code ?? 'error'}: ${failed.Message ?? ''}`.trim());
          (failed.SenderFault === true ? permanent : retry).push(entry);
        }
      } catch (error) {
        reasons.add(error instanceof Error ? error.message : String(error));
        retry.push(...batch);
      }
    });
    return { retry, permanent };
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
