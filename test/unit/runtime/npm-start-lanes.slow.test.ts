import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { localLambdaHandlers } from '../../../scripts/serve/local-lambda-handlers.js';
import { loadServiceConfig } from '../../../shared/config/service-config.js';
import { isJobTask } from '../../../shared/engine/engine-task.js';
import { decodeTask } from '../../../shared/engine/task-codec.js';
import { createApiApp } from '../../../shared/http/create-api-app.js';
import { startLocalWorkers } from '../../../shared/runtime/local-workers.js';
import { configureProcessRuntime, serviceRuntime } from '../../../shared/runtime/process-runtime.js';
import { apiGatewayEvent } from '../../support/event-factory.js';

/**
 * `npm start`'s wiring (scripts/serve/dev-server.ts) over the process's one runtime: both in-process lanes deliver to
 * the Lambda worker handler itself. Slow project: it configures the process runtime, a module's state.
 */
const scratch = mkdtempSync(join(tmpdir(), 'npm-start-lanes-'));
configureProcessRuntime(
  loadServiceConfig({
    RERANK_MODELS: 'bm25=lexical',
    RERANK_API_KEYS: 'key-a',
    RERANK_KEYS_FILE: join(scratch, 'keys.json'),
    RERANK_FILES_DIR: join(scratch, 'files'),
  }),
);
const runtime = await serviceRuntime();
const lambda = localLambdaHandlers();
/** The lane of each task the worker handler was given. */
const delivered: string[] = [];
const workers = startLocalWorkers(runtime, {
  ...lambda,
  worker: async (event: SQSEvent) => {
    for (const record of event.Records) delivered.push(isJobTask(decodeTask(record.body)) ? 'job' : 'batch');
    return lambda.worker(event);
  },
});
const app = createApiApp(runtime);
afterAll(async () => {
  await workers.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const call = async (method: string, path: string, json?: unknown): Promise<Record<string, unknown>> => {
  const answer = await app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: 'Bearer key-a' } }),
  );
  return JSON.parse(answer.body as string) as Record<string, unknown>;
};

/** A batch input file, uploaded as a client uploads it (POST /v1/files); its id. */
async function upload(jsonl: string): Promise<string> {
  const boundary = 'b0undary';
  const form = [
    `--${boundary}`,
    'content-disposition: form-data; name="purpose"',
    '',
    'batch',
    `--${boundary}`,
    'content-disposition: form-data; name="file"; filename="in.jsonl"',
    'content-type: application/octet-stream',
    '',
    jsonl,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const answer = await app.handle(
    apiGatewayEvent({
      method: 'POST',
      path: '/v1/files',
      body: form,
      headers: { authorization: 'Bearer key-a', 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
  );
  return (JSON.parse(answer.body as string) as { id: string }).id;
}

/** Polls until `status` is one of `ended` (the in-process lanes run the work meanwhile). */
async function ended(path: string, ends: readonly string[]): Promise<Record<string, unknown>> {
  for (;;) {
    const polled = await call('GET', path);
    if (ends.includes(polled['status'] as string)) return polled;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('npm start runs what Lambda runs', () => {
  it("runs a batch's tasks through the worker handler", async () => {
    const line = { custom_id: 'r0', method: 'POST', url: '/v1/rerank', body: { query: 'python', documents: ['python http', 'cake'] } };
    const input = await upload(JSON.stringify(line));
    const created = await call('POST', '/v1/batches', { input_file_id: input, endpoint: '/v1/rerank', completion_window: '24h' });
    const batch = await ended(`/v1/batches/${created['id'] as string}`, ['completed', 'failed', 'expired', 'cancelled']);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 1, completed: 1 } });
    expect(delivered).toContain('batch');
  });

  it("runs a job's tasks through the worker handler", async () => {
    const created = await call('POST', '/v1/rerank/jobs', { query: 'python', documents: ['python http', 'cake'] });
    const job = await ended(`/v1/rerank/jobs/${created['id'] as string}`, ['succeeded', 'failed']);
    expect(job['status']).toBe('succeeded');
    expect(delivered).toContain('job');
  });

  it("sweeps through the worker's scheduled run", async () => {
    expect(await lambda.sweep()).toEqual({ expired: 0, filesSwept: 0 });
  });
});
