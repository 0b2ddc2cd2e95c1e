/**
 * `npm run start:aws-local`: the whole service against real-protocol local AWS servers. Starts DynamoDB
 * Local and moto (SQS), creates the table and queues, points the SDK at them, and delivers SQS batches
 * to the same worker and dead-letter handlers Lambda runs (pollers stand in for event source mappings).
 * Needs java and python3 with moto; `npm start` needs neither.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startSqsPoller } from '../emulators/sqs-poller.js';
import { localLambdaContext } from '../../shared/http/node-http-adapter.js';
import { startLocalAwsStack } from '../emulators/local-aws-stack.js';

const stack = await startLocalAwsStack({ visibilityTimeoutSeconds: 30 });
Object.assign(process.env, stack.env);
console.log(
  `jobs table ${stack.tableName}, chunk queue ${stack.queueUrl}, batch task queue ${stack.batchQueueUrl}, files bucket ${stack.filesBucket}`,
);

// Imported after the environment is set: the runtime reads its configuration once, on first use.
const { handler: taskWorker } = await import('../../functions/workers/task-worker.js');
const { handler: deadLetter } = await import('../../functions/workers/dead-letter.js');
const workers = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
// Every task queue to the one worker handler, every dead-letter queue to the dead-letter handler, as on AWS.
const runTasks = async (event: SQSEvent) => (await taskWorker(event, localLambdaContext('rerank-task-worker-local'))) as SQSBatchResponse;
const endDeadLettered = (event: SQSEvent) => deadLetter(event, localLambdaContext('rerank-dead-letter-local'));
const pollers = [
  ...[stack.queueUrl, stack.batchQueueUrl].map((queueUrl) =>
    startSqsPoller({
      client: stack.sqs,
      queueUrl,
      batchSize: 10,
      waitTimeSeconds: 1,
      concurrency: workers,
      retryDelaySeconds: 1,
      handler: runTasks,
    }),
  ),
  ...[stack.dlqUrl, stack.batchDlqUrl].map((queueUrl) =>
    startSqsPoller({ client: stack.sqs, queueUrl, batchSize: 10, waitTimeSeconds: 1, handler: endDeadLettered }),
  ),
];
// The schedule that expires batches past their completion window (EventBridge on AWS).
const expirySweep = setInterval(() => {
  void taskWorker({ source: 'aws.events', 'detail-type': 'Scheduled Event' } as never, localLambdaContext('rerank-task-worker-local'));
}, 60_000);
expirySweep.unref();

const { startLocalServer } = await import('./local-server.js');
const server = await startLocalServer({
  port: Number(process.env['PORT'] ?? 3000),
  host: process.env['HOST'] ?? '127.0.0.1',
  // The pollers stop with the server; what the queues hold stays there for the next start, as on AWS.
  onShutdown: async () => {
    clearInterval(expirySweep);
    await Promise.all(pollers.map((p) => p.stop()));
    await stack.stop();
    return undefined;
  },
});
if (server.listening) {
  // Auth is on against the jobs table (as on AWS): say how to get a key, with the emulator's endpoint and dummy credentials.
  console.log(
    'create a key with:\n' +
      `  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local npm run keys -- create --name me --table ${stack.tableName} ` +
      `--endpoint ${stack.env['AWS_ENDPOINT_URL_DYNAMODB']} --region ${stack.env['AWS_REGION']}`,
  );
}
