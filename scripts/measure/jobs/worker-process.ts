/**
 * One stand-in for a worker Lambda during `npm run bench:jobs`: its own process (its own CPU share and
 * ONNX session), polling the chunk queue with concurrency 1 and invoking the real worker handler.
 * The environment (backend, table, queue, endpoints, threads) comes from the parent.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse } from 'aws-lambda';
import { startSqsPoller } from '../../emulators/sqs-poller.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import { serviceRuntime } from '../../../shared/runtime/process-runtime.js';

const { handler } = await import('../../../functions/workers/task-worker.js');
await serviceRuntime(); // cold start before polling, as a provisioned worker would be
const poller = startSqsPoller({
  client: new SQSClient({}),
  queueUrl: process.env['RERANK_CHUNK_QUEUE_URL'] as string,
  batchSize: 1,
  waitTimeSeconds: 1,
  concurrency: 1,
  retryDelaySeconds: 0,
  handler: async (event) => (await handler(event, localLambdaContext('bench-worker'))) as SQSBatchResponse,
});
process.send?.('ready');
process.on('SIGTERM', () => void poller.stop().then(() => process.exit(0)));
