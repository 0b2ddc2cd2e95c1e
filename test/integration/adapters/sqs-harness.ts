import { DeleteQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { EngineTask } from '../../../shared/engine/engine-task.js';
import { randomUUID } from 'node:crypto';
import { createChunkQueues } from '../../../scripts/emulators/create-chunk-queues.js';
import { SqsTaskQueue } from '../../../shared/adapters/sqs/sqs-task-queue.js';
import type { BatchTask } from '../../../shared/engine/batch-task.js';
import type { JobTask } from '../../../shared/engine/job-task.js';
import { startSqsPoller } from '../../../scripts/emulators/sqs-poller.js';
import type { TaskQueueHarness } from '../../contract/task-queue.contract.js';
import type { QueueLane } from '../../contract/task-queue-lanes.js';
import { queueCounts } from '../../../scripts/emulators/queue-counts.js';
import { waitForProgress } from '../../../scripts/support/wait-for-progress.js';

/** A fresh queue + DLQ on moto per contract test, sent to by the lane's SqsTaskQueue; failed items are retried at once. */
export async function makeSqsHarness<T extends EngineTask>(
  client: SQSClient,
  lane: QueueLane<T>,
  maxReceiveCount = 2,
): Promise<TaskQueueHarness<T>> {
  const queues = await createChunkQueues(client, `${lane.name}-tasks-${randomUUID().slice(0, 8)}`, {
    maxReceiveCount,
    visibilityTimeoutSeconds: 30,
  });
  const poll = (queueUrl: string, handler: Parameters<TaskQueueHarness<T>['consume']>[0]) =>
    startSqsPoller({ client, queueUrl, handler, batchSize: 10, waitTimeSeconds: 1, retryDelaySeconds: 0 });
  return {
    // The lane's own queue class; the contract's tasks are the lane's, whichever type parameter names them here.
    queue: new SqsTaskQueue<JobTask | BatchTask>(client, queues.queueUrl, lane.sqsLane) as unknown as TaskQueueHarness<T>['queue'],
    maxReceiveCount,
    consume: (handler) => poll(queues.queueUrl, handler),
    consumeDeadLetters: (handler) => poll(queues.dlqUrl, handler),
    // Polls SQS's own counts until no message is visible, in flight or delayed in either queue; stuck only when the
    // counts stop moving for 30 s (a loaded machine is slow, not lossy).
    settled: async () => {
      await waitForProgress(
        async () => {
          const left = (await messagesLeft(client, queues.queueUrl)) + ' + ' + (await messagesLeft(client, queues.dlqUrl));
          return { done: left === '0 + 0', progress: left, value: undefined };
        },
        { stallMs: 30_000, what: 'the queues' },
      );
    },
    dispose: async () => {
      await client.send(new DeleteQueueCommand({ QueueUrl: queues.queueUrl }));
      await client.send(new DeleteQueueCommand({ QueueUrl: queues.dlqUrl }));
    },
  };
}

/** Messages visible, in flight or delayed in the queue. */
async function messagesLeft(client: SQSClient, queueUrl: string): Promise<number> {
  const { visible, inFlight, delayed } = await queueCounts(client, queueUrl);
  return visible + inFlight + delayed;
}
