import { InMemoryChunkLedger } from '../../../shared/adapters/memory/in-memory-chunk-ledger.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsTable } from '../../../scripts/emulators/create-jobs-table.js';
import { DynamoDbJobStore } from '../../../shared/adapters/dynamodb/dynamodb-job-store.js';
import { InMemoryJobStore } from '../../../shared/adapters/memory/in-memory-job-store.js';
import { RerankError } from '../../../shared/core/rerank-error.js';
import { rerankRequest } from '../../../shared/core/rerank-request.js';
import type { ChunkQueue } from '../../../shared/jobs/chunk-queue.js';
import { idempotentJobId, parseIdempotencyKey } from '../../../shared/engine/idempotency-key.js';
import { JobCoordinator, type JobSubmission } from '../../../shared/jobs/job-coordinator.js';
import type { ChunkTask } from '../../../shared/jobs/job-model.js';
import type { JobStore } from '../../../shared/jobs/job-store.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startDynamoDbLocal } from '../../../scripts/emulators/start-dynamodb-local.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { testRuntime } from '../../support/test-runtime.js';

/**
 * Idempotency-Key on job submission over both job stores: DynamoDB Local (the conditional create is what
 * settles racing retries) and the in-memory store of `npm start`. The queue records what was sent and is never
 * consumed: a retry must not enqueue a job's chunks a second time.
 */
const TABLE = 'rerank-idempotency-test';
let dynamo: EmulatorHandle | undefined;
let dynamoClient: DynamoDBClient;

beforeAll(async () => {
  dynamo = await startDynamoDbLocal();
  dynamoClient = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
  await createJobsTable(dynamoClient, TABLE);
}, 120_000);

afterAll(async () => {
  dynamoClient?.destroy();
  await dynamo?.stop();
});

class RecordingQueue implements ChunkQueue {
  readonly sent: ChunkTask[] = [];
  async send(tasks: readonly ChunkTask[]): Promise<void> {
    this.sent.push(...tasks);
  }
}

const documents = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const submission = (ownerKeyId: string, docs = documents): JobSubmission => ({
  request: rerankRequest(
    'q',
    docs.map((text) => ({ text })),
  ),
  dialect: 'openai',
  ownerKeyId,
  model: 'length',
  activation: 'none',
  batchSize: 2,
});

const stores: [string, () => JobStore][] = [
  ['DynamoDB Local', () => new DynamoDbJobStore(TABLE, dynamoClient)],
  ['in-memory', () => new InMemoryJobStore()],
];

describe.each(stores)('Idempotency-Key on job submission (%s)', (_name, makeStore) => {
  const setup = () => {
    const queue = new RecordingQueue();
    return {
      queue,
      jobs: new JobCoordinator({
        store: makeStore(),
        chunks: new InMemoryChunkLedger(),
        queue,
        jobTtlSeconds: 600,
        maxMessageBytes: 1 << 20,
      }),
    };
  };
  const unique = () => `key-${Math.random().toString(36).slice(2)}`;

  it('returns the first job on a retry and enqueues its chunks once', async () => {
    const { queue, jobs } = setup();
    const key = unique();
    const first = await jobs.submitIdempotent(submission('owner-a'), key);
    const retry = await jobs.submitIdempotent(submission('owner-a'), key);
    expect(first.replayed).toBe(false);
    expect(retry).toEqual({ job: expect.objectContaining({ id: first.job.id, status: 'running' }), replayed: true });
    expect(queue.sent).toHaveLength(3);
    expect(new Set(queue.sent.map((t) => t.jobId))).toEqual(new Set([first.job.id]));
  });

  it('settles concurrent retries on one job', async () => {
    const { queue, jobs } = setup();
    const key = unique();
    const results = await Promise.all(Array.from({ length: 6 }, () => jobs.submitIdempotent(submission('owner-a'), key)));
    expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed).length).toBeGreaterThanOrEqual(1);
    expect(new Set(queue.sent.map((t) => t.jobId)).size).toBe(1);
    expect(await jobs.find(results[0]!.job.id, 'owner-a')).toMatchObject({ documentCount: 5, chunkCount: 3 });
  });

  it('keeps keys per owner: the same key from another key owner is another job', async () => {
    const { jobs } = setup();
    const key = unique();
    const a = await jobs.submitIdempotent(submission('owner-a'), key);
    const b = await jobs.submitIdempotent(submission('owner-b'), key);
    expect(b.replayed).toBe(false);
    expect(b.job.id).not.toBe(a.job.id);
    expect(await jobs.find(a.job.id, 'owner-b')).toBeUndefined();
  });

  it('refuses a key reused for a different request with a 422, also when only the query or a document differs', async () => {
    const { jobs } = setup();
    const key = unique();
    await jobs.submitIdempotent(submission('owner-a'), key);
    const error = await jobs.submitIdempotent(submission('owner-a', ['only', 'two']), key).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RerankError);
    expect(error).toMatchObject({ kind: 'unprocessable', status: 422, param: 'Idempotency-Key' });
    // Same dialect, model, document count and top_n: the old shape check replayed the first job here (issue 21, item 4).
    const sameShape = { ...submission('owner-a'), request: { ...submission('owner-a').request, query: 'another query' } };
    await expect(jobs.submitIdempotent(sameShape, key)).rejects.toMatchObject({ kind: 'unprocessable' });
    const otherDocs = submission('owner-a', ['alpha', 'beta', 'gamma', 'delta', 'EPSILON']);
    await expect(jobs.submitIdempotent(otherDocs, key)).rejects.toMatchObject({ kind: 'unprocessable' });
    // The identical request is still a replay.
    expect((await jobs.submitIdempotent(submission('owner-a'), key)).replayed).toBe(true);
  });

  it('leaves submissions without a key as they were: a new job each time', async () => {
    const { jobs } = setup();
    const [a, b] = [await jobs.submit(submission('owner-a')), await jobs.submit(submission('owner-a'))];
    expect(a.id).not.toBe(b.id);
  });
});

describe('Idempotency-Key over HTTP (POST /v1/rerank/jobs)', () => {
  const lengthScorer: Scorer = {
    id: 'length',
    scoreKind: 'similarity',
    score: async (_q, docs) => ({ scores: docs.map((d) => d.length), tokens: 1 }),
  };
  // Operator key configured: a key is required, and client keys carry their job-slot limits.
  const { app: api, keys } = testRuntime({ scorers: [lengthScorer], apiKeys: ['operator-key'], open: false });
  const post = (headers: Record<string, string>): Promise<{ statusCode?: number; body?: string }> =>
    api.handle(apiGatewayEvent({ path: '/v1/rerank/jobs', headers, json: { query: 'q', documents } }));

  it('answers a retry with the first job (202, same id), without a second job slot', async () => {
    const { key } = await keys.create('client', { maxConcurrentJobs: 1 });
    const headers = { authorization: `Bearer ${key}`, 'Idempotency-Key': '0b6a3c1e-5d2f-4a8b-9c7d-1e2f3a4b5c6d' };
    const first = await post(headers);
    const retry = await post(headers);
    expect([first.statusCode, retry.statusCode]).toEqual([202, 202]);
    const id = (JSON.parse(first.body!) as { id: string }).id;
    expect((JSON.parse(retry.body!) as { id: string }).id).toBe(id);
    // With one job slot a second job would be refused (429): the retry did not take one.
    const other = await post({ authorization: `Bearer ${key}`, 'Idempotency-Key': 'another-key' });
    expect(other.statusCode).toBe(429);
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const response = await post({ authorization: 'Bearer operator-key', 'Idempotency-Key': 'has space' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Idempotency-Key');
    expect(() => parseIdempotencyKey('x'.repeat(256))).toThrow(RerankError);
    expect(idempotentJobId('a', 'k')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotentJobId('a', 'k')).not.toBe(idempotentJobId('b', 'k'));
  });
});
