import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startLocalAwsStack, type LocalAwsStack } from '../../scripts/emulators/local-aws-stack.js';
import { startSqsPoller, type SqsPoller } from '../../scripts/emulators/sqs-poller.js';
import { waitForProgress } from '../../scripts/support/wait-for-progress.js';
import { installAwsCallRecorder, runAsLambda, type LambdaName } from './iam/aws-call-recorder.js';
import { expectRecordedCallsAllowed } from './iam/check-recorded-calls.js';

/** How a flow test's queue consumer runs: as which function, and how many records per call and calls at once. */
export interface ConsumerOptions {
  readonly batchSize: number;
  readonly concurrency?: number;
  /** Failed records visible again at once (the default), or after the queue's visibility timeout (undefined). */
  readonly retryDelaySeconds?: number | undefined;
}

/**
 * An end-to-end flow on the emulators: DynamoDB Local and moto started by their own PIDs with the stack's table, task
 * queues, dead-letter queues and files bucket, the environment pointing at them, every AWS call recorded for the IAM
 * check; Lambda handlers consume the queues as their event source mappings would.
 */
export interface AwsFlow {
  readonly stack: LocalAwsStack;
  /** Polls `queueUrl` with `handler`, running as `lambda` (its calls are checked against that function's role). */
  consume(
    lambda: LambdaName,
    queueUrl: string,
    handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>,
    options: ConsumerOptions,
  ): void;
  /** Polls `read` until it says done; gives up only when its progress stops moving for `stallMs` (slow is not lost). */
  drain<T>(what: string, stallMs: number, read: () => Promise<{ done: boolean; progress: string; value: T }>): Promise<T>;
  /** Stops the consumers, checks every recorded call against the deployed roles, and stops the emulators. */
  stop(): Promise<void>;
}

export async function startAwsFlow(options: {
  readonly maxReceiveCount: number;
  readonly visibilityTimeoutSeconds: number;
  /** Set beside the stack's endpoints before the handlers are imported (the runtime reads its configuration once). */
  readonly env: Readonly<Record<string, string>>;
}): Promise<AwsFlow> {
  installAwsCallRecorder();
  const stack = await startLocalAwsStack({
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
  });
  Object.assign(process.env, stack.env, options.env);
  const pollers: SqsPoller[] = [];
  return {
    stack,
    consume: (lambda, queueUrl, handler, consumer) => {
      const retryDelaySeconds = 'retryDelaySeconds' in consumer ? consumer.retryDelaySeconds : 0;
      pollers.push(
        runAsLambda(lambda, () =>
          startSqsPoller({
            client: stack.sqs,
            queueUrl,
            handler,
            batchSize: consumer.batchSize,
            waitTimeSeconds: 1,
            concurrency: consumer.concurrency ?? 1,
            ...(retryDelaySeconds === undefined ? {} : { retryDelaySeconds }),
          }),
        ),
      );
    },
    drain: (what, stallMs, read) => waitForProgress(read, { stallMs, pollMs: 200, what }),
    stop: async () => {
      await Promise.all(pollers.map((p) => p.stop()));
      try {
        expectRecordedCallsAllowed(stack.env);
      } finally {
        await stack.stop();
      }
    },
  };
}
