import type { SQSBatchResponse, ScheduledEvent } from 'aws-lambda';
import { handler as deadLetterHandler } from '../../functions/workers/dead-letter.js';
import { handler as taskWorker } from '../../functions/workers/task-worker.js';
import { localLambdaContext } from '../../shared/http/node-http-adapter.js';
import type { EngineHandlers } from '../../shared/runtime/local-workers.js';

/** The event EventBridge's schedule delivers to the task worker on AWS (the handler reads only its source). */
const SCHEDULED = { source: 'aws.events', 'detail-type': 'Scheduled Event' } as ScheduledEvent;

/**
 * The Lambda handlers themselves, over this process's runtime (process-runtime.ts), for `npm start`'s in-process lanes
 * and sweep: a job's and a batch's tasks run through the code the worker function runs, their dead letters through the
 * dead-letter function's, and the sweep through the worker's scheduled run.
 */
export function localLambdaHandlers(): EngineHandlers {
  // A context per invocation, as Lambda gives each its own request id.
  const worker = () => localLambdaContext('rerank-task-worker-local');
  return {
    worker: async (event) => (await taskWorker(event, worker())) as SQSBatchResponse,
    deadLetter: async (event) => deadLetterHandler(event, localLambdaContext('rerank-dead-letter-local')),
    sweep: () => taskWorker(SCHEDULED, worker()),
  };
}
