import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { queueArn } from './create-chunk-queues.js';
import { toSqsRecord } from '../../shared/adapters/sqs/to-sqs-record.js';

export interface SqsPollerOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  /** Messages per handler call; SQS returns at most 10 per receive, which is also what we ask for. */
  readonly batchSize?: number;
  /** Long-poll wait; `stop()` can take this long, since an in-flight receive is never abandoned. */
  readonly waitTimeSeconds?: number;
  /** Parallel receive+handle loops, like the event source mapping's concurrent batches. */
  readonly concurrency?: number;
  /** Lambda-style handler; `void` means every record succeeded, a throw means every record failed. */
  readonly handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /**
   * When set, failed messages are made visible again after this many seconds (0 = at once) instead of after the
   * queue's visibility timeout, which keeps local retries fast. Unset = Lambda's behaviour.
   */
  readonly retryDelaySeconds?: number;
  /**
   * When set, a received batch keeps its messages invisible for this many seconds from each renewal (every quarter of
   * it) until it is acknowledged: on AWS the queue's visibility timeout is 6x the worker's timeout, so SQS never delivers
   * a message again while a delivery of it still runs. A test queue's short visibility timeout (which brings back a lost
   * receive or a dropped delete quickly) would otherwise also expire under a slow handler on a loaded machine, and each
   * such extra delivery spends one of the message's receives towards the dead-letter queue. Unset = no renewal.
   */
  readonly holdSeconds?: number;
  /** Receive/delete errors; the loop backs off and continues. Defaults to console.error. */
  readonly onError?: (error: unknown) => void;
}

export interface SqsPoller {
  /** Stops receiving and resolves once every in-flight batch has been handled and acknowledged. */
  stop(): Promise<void>;
}

/**
 * Stands in for the Lambda SQS event source mapping when running against moto: long-polls, invokes the handler
 * with a real SQSEvent, deletes what succeeded, and leaves batchItemFailures for redelivery (and, after
 * maxReceiveCount, the queue's DLQ). The same poller consumes the DLQ.
 */
export function startSqsPoller(options: SqsPollerOptions): SqsPoller {
  const { client, queueUrl, handler } = options;
  const onError = options.onError ?? ((error: unknown) => console.error(`sqs poller ${queueUrl}:`, error));
  let stopping = false;
  // Looked up once, but a failed lookup is forgotten so the next loop turn asks again instead of failing forever.
  let arn: Promise<string> | undefined;
  const eventSourceArn = (): Promise<string> => {
    arn ??= queueArn(client, queueUrl).catch((error: unknown) => {
      arn = undefined;
      throw error;
    });
    return arn;
  };

  const loop = async (): Promise<void> => {
    while (!stopping) {
      try {
        const eventSourceARN = await eventSourceArn();
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(options.batchSize ?? 10, 10),
            WaitTimeSeconds: options.waitTimeSeconds ?? 20,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        if (Messages.length === 0) continue;
        const records = Messages.map((m) => toSqsRecord(m, eventSourceARN));
        const release = options.holdSeconds === undefined ? () => {} : hold(client, queueUrl, records, options.holdSeconds);
        const failedIds = await invoke(handler, records, onError).finally(release);
        await acknowledge(client, queueUrl, records, failedIds, options.retryDelaySeconds);
      } catch (error) {
        if (stopping) break;
        onError(error);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };

  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, loop);
  const done = Promise.all(loops).then(() => undefined);
  return {
    stop: () => {
      stopping = true;
      return done;
    },
  };
}

/** Renews the records' visibility every quarter of `seconds` until released; a failed renewal waits for the next. */
function hold(client: SQSClient, queueUrl: string, records: SQSRecord[], seconds: number): () => void {
  const entries = records.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle, VisibilityTimeout: seconds }));
  const renew = () => void client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: entries })).catch(() => {});
  renew();
  const timer = setInterval(renew, (seconds * 1000) / 4);
  return () => clearInterval(timer);
}

/** The ids the handler failed; as in Lambda, a throw or an unknown/empty identifier fails the whole batch. */
async function invoke(handler: SqsPollerOptions['handler'], records: SQSRecord[], onError: (error: unknown) => void): Promise<Set<string>> {
  const all = new Set(records.map((r) => r.messageId));
  try {
    const response = await handler({ Records: records });
    const ids = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
    return ids.some((id) => !all.has(id)) ? all : new Set(ids);
  } catch (error) {
    onError(error);
    return all;
  }
}

async function acknowledge(
  client: SQSClient,
  queueUrl: string,
  records: SQSRecord[],
  failedIds: Set<string>,
  retryDelaySeconds: number | undefined,
): Promise<void> {
  const entries = (subset: SQSRecord[]) => subset.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle }));
  const succeeded = records.filter((r) => !failedIds.has(r.messageId));
  const failed = records.filter((r) => failedIds.has(r.messageId));
  if (succeeded.length > 0) {
    const out = await client.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries(succeeded) }));
    // An undeleted message comes back after its visibility timeout: a duplicate the consumer must tolerate anyway.
    if ((out.Failed ?? []).length > 0) throw new Error(`could not delete ${out.Failed?.length} handled message(s)`);
  }
  if (failed.length > 0 && retryDelaySeconds !== undefined) {
    await client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: entries(failed).map((e) => ({ ...e, VisibilityTimeout: retryDelaySeconds })),
      }),
    );
  }
}
