/**
 * `npm run start:aws-local`: the whole service against real-protocol local AWS servers. Starts DynamoDB
 * Local and moto (SQS), creates the table and queues, points the SDK at them, and delivers SQS batches
 * to the same worker and dead-letter handlers Lambda runs (pollers stand in for event source mappings).
 * Needs java and python3 with moto; `npm start` needs neither.
 */
import type { SQSBatchResponse } from 'aws-lambda';
import { startSqsPoller } from '../emulators/sqs-poller.js';
import { localLambdaContext } from '../../shared/http/node-http-adapter.js';
import { startLocalAwsStack } from '../emulators/local-aws-stack.js';

const stack = await startLocalAwsStack({ visibilityTimeoutSeconds: 30 });
Object.assign(process.env, stack.env);
console.log(
  `jobs table ${stack.tableName}, chunk queue ${stack.queueUrl}, batch task queue ${stack.batchQueueUrl}, files bucket ${stack.filesBucket}`,
);

// Imported after the environment is set: the runtime reads its configuration once, on first use.
const { handler: scoreChunk } = await import('../../functions/workers/score-chunk.js');
const { handler: deadLetter } = await import('../../functions/workers/chunk-dead-letter.js');
const { handler: batchWorker } = await import('../../functions/workers/batch-worker.js');
const workers = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
const pollers = [
  startSqsPoller({
    client: stack.sqs,
    queueUrl: stack.queueUrl,
    batchSize: 10,
    waitTimeSeconds: 1,
    concurrency: workers,
    retryDelaySeconds: 1,
    handler: (event) => scoreChunk(event, localLambdaContext('rerank-score-chunk-local')),
  }),
  startSqsPoller({
    client: stack.sqs,
    queueUrl: stack.dlqUrl,
    batchSize: 10,
    waitTimeSeconds: 1,
    handler: (event) => deadLetter(event, localLambdaContext('rerank-chunk-dead-letter-local')),
  }),
  // The batch worker function takes its task queue and its DLQ (told apart by the record's queue ARN).
  ...[stack.batchQueueUrl, stack.batchDlqUrl].map((queueUrl) =>
    startSqsPoller({
      client: stack.sqs,
      queueUrl,
      batchSize: 10,
      waitTimeSeconds: 1,
      concurrency: workers,
      retryDelaySeconds: 1,
      handler: async (event) => (await batchWorker(event, localLambdaContext('rerank-batch-worker-local'))) as SQSBatchResponse,
    }),
  ),
];
// The schedule that expires batches past their completion window (EventBridge on AWS).
const expirySweep = setInterval(() => {
  void batchWorker({ source: 'aws.events', 'detail-type': 'Scheduled Event' } as never, localLambdaContext('rerank-batch-worker-local'));
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
