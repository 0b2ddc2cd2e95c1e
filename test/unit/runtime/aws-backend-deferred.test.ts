import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServiceConfig, type ServiceConfig } from '../../../shared/config/service-config.js';
import { createApiApp } from '../../../shared/http/create-api-app.js';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { awsBackend } from '../../../shared/runtime/aws-backend.js';
import type { Backend } from '../../../shared/runtime/backend.js';
import { localBackend } from '../../../shared/runtime/local-backend.js';
import { createServiceRuntime } from '../../../shared/runtime/service-runtime.js';
import { apiGatewayEvent } from '../../support/event-factory.js';

const scratch = mkdtempSync(join(tmpdir(), 'aws-backend-deferred-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const OPERATOR_KEY = 'deferred-backend-operator-key';

/** The API function's configuration as the stack sets it: the aws backend with batches, an operator key. */
const awsConfig: ServiceConfig = loadServiceConfig({
  RERANK_JOBS_BACKEND: 'aws',
  RERANK_JOBS_TABLE: 'jobs',
  RERANK_CHUNK_QUEUE_URL: 'http://127.0.0.1:9/000000000000/chunks',
  RERANK_BATCH_QUEUE_URL: 'http://127.0.0.1:9/000000000000/batches',
  RERANK_FILES_BUCKET: 'files',
  RERANK_API_KEYS: OPERATOR_KEY,
  RERANK_MODELS: 'bm25=lexical',
});

/** The memory backend stands in for DynamoDB, SQS and S3; `loads` counts how often the aws backend asked for its adapters. */
function countingLoader(fail = 0) {
  const memory = localBackend(
    loadServiceConfig({
      RERANK_KEYS_FILE: join(scratch, 'keys.json'),
      RERANK_FILES_DIR: join(scratch, 'files'),
      RERANK_MODELS: 'bm25=lexical',
    }),
  );
  const counter = {
    loads: 0,
    load: async (): Promise<Backend> => {
      counter.loads++;
      if (counter.loads <= fail) throw new Error('the adapters failed to load');
      return memory;
    },
  };
  return counter;
}

describe('the aws backend loads its adapters at their first call', () => {
  it('a synchronous rerank with an operator key loads none of them', async () => {
    const loader = countingLoader();
    const runtime = await createServiceRuntime(awsConfig, { adapters: awsBackend(awsConfig, loader.load) });
    const result = await createApiApp(runtime).handle(
      apiGatewayEvent({
        method: 'POST',
        path: '/v1/rerank',
        headers: { authorization: `Bearer ${OPERATOR_KEY}` },
        json: { model: 'bm25', query: 'capital of france', documents: ['Paris is the capital of France.', 'Berlin is in Germany.'] },
      }),
    );
    expect(result.statusCode).toBe(200);
    expect(loader.loads).toBe(0);
  });

  it('every port forwards to the adapters loaded once, streams included', async () => {
    const loader = countingLoader();
    const backend = awsBackend(awsConfig, loader.load);
    const created = await backend.keys.create('client');
    expect((await backend.keys.findByKey(created.key))?.name).toBe('client');
    await backend.chunks.putChunkScores('job:a', 1, { chunkIndex: 0, offset: 0, scores: [0.5, 0.25], tokens: 4 }, 1);
    const read = [];
    for await (const chunk of backend.chunks.readChunkScores('job:a', 1, 1)) read.push(chunk.scores);
    expect(read).toEqual([[0.5, 0.25]]);
    expect(await backend.batches?.store.get('batch_missing')).toBeUndefined();
    expect(await backend.batches?.files?.get('file-missing')).toBeUndefined();
    expect(loader.loads).toBe(1);
  });

  it('the files port forwards every method of the S3 file store, its optional ones included', () => {
    const methods = Object.getOwnPropertyNames(S3FileStore.prototype).filter(
      (name) => name !== 'constructor' && name !== 'presignedReadUrl' && typeof Reflect.get(S3FileStore.prototype, name) === 'function',
    );
    expect(Object.keys(awsBackend(awsConfig).batches?.files ?? {}).sort()).toEqual(methods.sort());
  });

  it('a failed load fails that call only: the next call loads again', async () => {
    const loader = countingLoader(1);
    const backend = awsBackend(awsConfig, loader.load);
    await expect(backend.store.get('job-1')).rejects.toThrow('the adapters failed to load');
    expect(await backend.store.get('job-1')).toBeUndefined();
    expect(loader.loads).toBe(2);
  });

  it('no batches where the stack names no batch queue', () => {
    const { RERANK_BATCH_QUEUE_URL: _queue, ...env } = {
      RERANK_JOBS_BACKEND: 'aws',
      RERANK_JOBS_TABLE: 'jobs',
      RERANK_CHUNK_QUEUE_URL: 'http://127.0.0.1:9/000000000000/chunks',
      RERANK_BATCH_QUEUE_URL: 'unused',
    };
    expect(awsBackend(loadServiceConfig(env)).batches).toBeUndefined();
  });
});
