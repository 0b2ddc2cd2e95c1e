import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { loadServiceConfig } from '../../../shared/config/service-config.js';
import { createApiApp } from '../../../shared/http/create-api-app.js';
import { apiLimitsOf } from '../../../shared/runtime/api-limits.js';
import { engineTaskHandlers } from '../../../shared/runtime/engine-task-handlers.js';
import { startLocalWorkers, type LocalWorkers } from '../../../shared/runtime/local-workers.js';
import { runtimeBatchEngine } from '../../../shared/runtime/runtime-batch-engine.js';
import { createServiceRuntime, type ServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'batches-runtime-'));
const started: LocalWorkers[] = [];
afterAll(async () => {
  await Promise.all(started.map((workers) => workers.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * The engine's routine over this runtime, in the handler shape the process starter passes (npm start passes the Lambda
 * handlers, over the process's one runtime: npm-start-lanes.slow.test.ts); this file's runtimes are its own.
 */
function handlersOver(runtime: ServiceRuntime) {
  const { limits, plan } = apiLimitsOf(runtime.config);
  const engine = runtimeBatchEngine(runtime, limits, plan)!;
  return { ...engineTaskHandlers({ jobs: async () => runtime, batches: async () => engine }), sweep: () => engine.expireDue() };
}

/**
 * The runtime `npm start` builds (memory backend), with bm25 only: the batch store, queue and engine as wired for real,
 * and its workers attached as the process starter attaches them.
 */
async function runtimeWith(files: InMemoryFileStore | undefined) {
  const config = loadServiceConfig({
    RERANK_MODELS: 'bm25=lexical',
    RERANK_API_KEYS: 'key-a',
    RERANK_KEYS_FILE: join(scratch, 'keys.json'),
    RERANK_FILES_DIR: join(scratch, 'files'),
    RERANK_BATCH_MAX_LINES: '5',
  });
  const built = await createServiceRuntime(config);
  const runtime = files ? { ...built, files } : built;
  started.push(startLocalWorkers(runtime, handlersOver(runtime)));
  return createApiApp(runtime);
}

/** Polls the batch until it has ended (the in-process queue runs it meanwhile). */
async function ended(app: Awaited<ReturnType<typeof runtimeWith>>, id: string): Promise<Record<string, unknown>> {
  for (;;) {
    const batch = JSON.parse((await call(app, 'GET', `/v1/batches/${id}`)).body as string) as Record<string, unknown>;
    if (['completed', 'failed', 'expired', 'cancelled'].includes(batch['status'] as string)) return batch;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const call = (app: Awaited<ReturnType<typeof runtimeWith>>, method: string, path: string, json?: unknown) =>
  app.handle(apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: 'Bearer key-a' } }));

describe('batches in the service runtime (memory backend)', () => {
  it('runs a batch through the in-process queue the runtime wires, with the RERANK_BATCH_* quotas', async () => {
    const files = new InMemoryFileStore();
    const app = await runtimeWith(files);
    const lines = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        custom_id: `r${i}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: 'python', documents: ['python http', 'cake'] },
      }),
    );
    const input = await files.put(keyIdOf('key-a'), 'in.jsonl', 'batch', lines.join('\n'));
    const created = JSON.parse(
      (await call(app, 'POST', '/v1/batches', { input_file_id: input.id, endpoint: '/v1/rerank', completion_window: '24h' }))
        .body as string,
    ) as { id: string };
    expect(await ended(app, created.id)).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });

    // RERANK_BATCH_MAX_LINES=5 reached the engine through config.
    const tooMany = await files.put(keyIdOf('key-a'), 'big.jsonl', 'batch', [...lines, ...lines].join('\n'));
    const over = JSON.parse(
      (await call(app, 'POST', '/v1/batches', { input_file_id: tooMany.id, endpoint: '/v1/rerank', completion_window: '24h' }))
        .body as string,
    ) as { id: string };
    expect(await ended(app, over.id)).toMatchObject({ status: 'failed', errors: { data: [{ code: 'too_many_lines', line: 6 }] } });
  });

  it('keeps files in RERANK_FILES_DIR: what POST /v1/files stores, the runtime reads back from that folder', async () => {
    const app = await runtimeWith(undefined);
    const boundary = 'b0undary';
    const form = [
      `--${boundary}`,
      'content-disposition: form-data; name="purpose"',
      '',
      'user_data',
      `--${boundary}`,
      'content-disposition: form-data; name="file"; filename="c.jsonl"',
      'content-type: application/octet-stream',
      '',
      '"doc one"',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const created = await app.handle(
      apiGatewayEvent({
        method: 'POST',
        path: '/v1/files',
        body: form,
        headers: { authorization: 'Bearer key-a', 'content-type': `multipart/form-data; boundary=${boundary}` },
      }),
    );
    expect(created.statusCode).toBe(200);
    const id = (JSON.parse(created.body as string) as { id: string }).id;
    expect(readdirSync(join(scratch, 'files', 'content'))).toContain(id);
  });
});
