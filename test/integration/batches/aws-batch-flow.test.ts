import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../../../shared/adapters/s3/s3-file-store.js';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { FIXTURE_MODEL_ID, FIXTURE_MODEL_SPEC } from '../../../shared/config/service-config.js';
import { localLambdaContext } from '../../../shared/http/node-http-adapter.js';
import type { LocalAwsStack } from '../../../scripts/emulators/local-aws-stack.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { HANG_CEILING_MS } from '../../../scripts/support/wait-for-progress.js';
import { startAwsFlow, type AwsFlow } from '../../support/aws-flow.js';
import { asLambda } from '../../support/iam/aws-call-recorder.js';

/**
 * Batches on the AWS adapters end to end: the API Lambda handler takes the batch, the batch worker Lambda handler
 * runs its plan, chunk and finalize tasks from SQS (moto), the batch store is DynamoDB Local and the files are on
 * moto's S3. Output lines must equal what the route answers for the same body.
 */
const KEY_A = 'batch-flow-key-a';
const KEY_B = 'batch-flow-key-b';
let flow: AwsFlow;
let stack: LocalAwsStack;
let api: (event: APIGatewayProxyEventV2, context: ReturnType<typeof localLambdaContext>) => Promise<APIGatewayProxyStructuredResultV2>;
let files: S3FileStore;

const words = ['neural', 'ranking', 'search', 'panda', 'bamboo', 'python', 'queue', 'lambda', 'gradient', 'library'];
const docs = (n: number, seed: number) =>
  Array.from(
    { length: n },
    (_, i) => `${i}: ${Array.from({ length: 3 + ((i + seed) % 7) }, (_, j) => words[(i * 3 + j * seed) % words.length]).join(' ')}`,
  );

async function call(method: string, path: string, key: string, json?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const result = await api(apiGatewayEvent({ method, path, json, headers: { authorization: `Bearer ${key}` } }), localLambdaContext());
  return { status: result.statusCode ?? 0, body: JSON.parse(result.body ?? 'null') as Record<string, unknown> };
}

async function writeInput(lines: readonly unknown[], owner: string): Promise<string> {
  const writer = await files.openWriter({ ownerKeyId: keyIdOf(owner), filename: 'requests.jsonl', purpose: 'batch', maxBytes: 1 << 24 });
  await writer.write(Buffer.from(lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n'));
  return (await writer.close()).id;
}

async function readLines(fileId: string): Promise<Record<string, unknown>[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of files.read(fileId)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Polls the batch until it ends; gives up only when its status and counts stop moving for twice the visibility timeout. */
async function settle(batchId: string): Promise<Record<string, unknown>> {
  return flow.drain(`batch ${batchId}`, 60_000, async () => {
    const { body } = await call('GET', `/v1/batches/${batchId}`, KEY_A);
    const done = ['completed', 'failed', 'expired', 'cancelled'].includes(String(body['status']));
    return { done, progress: JSON.stringify([body['status'], body['request_counts']]), value: body };
  });
}

beforeAll(async () => {
  // Every AWS call the API and batch worker handlers make is checked against their deployed roles at the end.
  // bm25 beside the fixture: a model with a stored corpus analysis (derived objects on S3, under the IAM check too).
  flow = await startAwsFlow({
    maxReceiveCount: 2,
    visibilityTimeoutSeconds: 30,
    env: { RERANK_MODELS: `${FIXTURE_MODEL_SPEC},bm25=lexical`, RERANK_API_KEYS: `${KEY_A},${KEY_B}` },
  });
  stack = flow.stack;
  // Imported after the environment points at the emulators: the runtime reads its configuration once.
  const { handler: apiHandler } = await import('../../../functions/api/handler.js');
  api = asLambda('api', apiHandler);
  const { handler: taskWorker } = await import('../../../functions/workers/task-worker.js');
  const { handler: deadLetter } = await import('../../../functions/workers/dead-letter.js');
  files = new S3FileStore(stack.s3, stack.filesBucket);
  // The consumers stand for the event source mappings, which poll with their function's role.
  const worker = async (event: SQSEvent) => (await taskWorker(event, localLambdaContext())) as SQSBatchResponse;
  flow.consume('batchWorker', stack.batchQueueUrl, worker, { batchSize: 10, concurrency: 3 });
  flow.consume('batchDeadLetter', stack.batchDlqUrl, (event) => deadLetter(event, localLambdaContext()), { batchSize: 10, concurrency: 3 });
});

afterAll(async () => {
  await flow?.stop();
});

// settle() fails first, with the batch's status, whenever it stops moving; the ceiling only catches a hang.
describe('batches over S3 (moto), SQS (moto) and DynamoDB Local', { timeout: HANG_CEILING_MS }, () => {
  it('answers every good line as the route would and names every bad line in the error file', async () => {
    const good = Array.from({ length: 6 }, (_, i) => ({
      custom_id: `good-${i}`,
      method: 'POST',
      url: '/v1/rerank',
      body: {
        model: FIXTURE_MODEL_ID,
        query: `neural ranking ${i}`,
        documents: docs(30 + i * 7, i + 1),
        top_n: 5,
        return_documents: i % 2 === 0,
      },
    }));
    const lines = [
      good[0],
      good[1],
      { custom_id: 'wrong-url', method: 'POST', url: '/v2/rerank', body: good[2]!.body },
      good[2],
      { custom_id: 'no-documents', method: 'POST', url: '/v1/rerank', body: { query: 'q' } },
      '{"custom_id": "not json',
      good[3],
      good[4],
      good[5],
    ];
    const inputFileId = await writeInput(lines, KEY_A);
    const created = await call('POST', '/v1/batches', KEY_A, {
      input_file_id: inputFileId,
      endpoint: '/v1/rerank',
      completion_window: '24h',
      metadata: { run: 'aws-flow' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      object: 'batch',
      status: 'validating',
      input_file_id: inputFileId,
      metadata: { run: 'aws-flow' },
    });
    const batchId = String(created.body['id']);
    expect((await call('GET', `/v1/batches/${batchId}`, KEY_B)).status).toBe(404);

    const done = await settle(batchId);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 9, completed: 6, failed: 3 } });

    const output = await readLines(String(done['output_file_id']));
    expect(output.map((l) => l['custom_id']).sort()).toEqual(good.map((g) => g.custom_id).sort());
    for (const line of output) {
      const sent = good.find((g) => g.custom_id === line['custom_id'])!;
      const sync = await call('POST', '/v1/rerank', KEY_A, sent.body);
      const response = line['response'] as {
        status_code: number;
        body: { results: { index: number; relevance_score: number; document?: unknown }[] };
      };
      expect(response.status_code).toBe(200);
      const syncResults = sync.body['results'] as { index: number; relevance_score: number; document?: unknown }[];
      expect(response.body.results.map((r) => r.index)).toEqual(syncResults.map((r) => r.index));
      response.body.results.forEach((r, i) => {
        expect(Math.abs(r.relevance_score - syncResults[i]!.relevance_score)).toBeLessThan(1e-6);
        expect(r.document).toEqual(syncResults[i]!.document);
      });
    }

    const errors = await readLines(String(done['error_file_id']));
    expect(errors.map((l) => l['custom_id'] ?? null).sort()).toEqual(['no-documents', 'wrong-url', null].sort());
    for (const line of errors) expect((line['error'] as { message: string }).message.length).toBeGreaterThan(0);
  });

  it('takes an input file through /v1/uploads (parts on S3, the upload on DynamoDB Local), serves it by a presigned redirect and runs it', async () => {
    const body = { model: FIXTURE_MODEL_ID, query: 'neural ranking', documents: docs(12, 3), top_n: 3 };
    const jsonl = Buffer.from(
      ['a', 'b', 'c'].map((id) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/rerank', body })).join('\n') + '\n',
    );
    const upload = await call('POST', '/v1/uploads', KEY_A, {
      filename: 'in.jsonl',
      purpose: 'batch',
      bytes: jsonl.length,
      mime_type: 'application/jsonl',
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const uploadId = String(upload.body['id']);
    const half = Math.floor(jsonl.length / 2);
    const partIds: string[] = [];
    for (const slice of [jsonl.subarray(0, half), jsonl.subarray(half)]) {
      const boundary = 'p4rt';
      const form = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="data"; filename="part"\r\ncontent-type: application/octet-stream\r\n\r\n`,
        ),
        slice,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const event = apiGatewayEvent({
        method: 'POST',
        path: `/v1/uploads/${uploadId}/parts`,
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      const result = await api({ ...event, body: form.toString('base64'), isBase64Encoded: true }, localLambdaContext());
      expect(result.statusCode, result.body).toBe(200);
      partIds.push(String((JSON.parse(result.body ?? '{}') as { id: string }).id));
    }
    // Another key cannot complete it; the owner can, once.
    expect((await call('POST', `/v1/uploads/${uploadId}/complete`, KEY_B, { part_ids: partIds })).status).toBe(404);
    const completed = await call('POST', `/v1/uploads/${uploadId}/complete`, KEY_A, { part_ids: partIds });
    expect(completed.body).toMatchObject({ status: 'completed', file: { bytes: jsonl.length, purpose: 'batch' } });
    expect((await call('POST', `/v1/uploads/${uploadId}/cancel`, KEY_A)).status).toBe(409);
    const fileId = String((completed.body['file'] as { id: string }).id);

    const content = await api(
      apiGatewayEvent({ method: 'GET', path: `/v1/files/${fileId}/content`, headers: { authorization: `Bearer ${KEY_A}` } }),
      localLambdaContext(),
    );
    expect(content.statusCode).toBe(302);
    const downloaded = Buffer.from(await (await fetch(String(content.headers?.['location']))).arrayBuffer());
    expect(downloaded.equals(jsonl)).toBe(true);

    const created = await call('POST', '/v1/batches', KEY_A, { input_file_id: fileId, endpoint: '/v1/rerank', completion_window: '24h' });
    expect(await settle(String(created.body['id']))).toMatchObject({
      status: 'completed',
      request_counts: { total: 3, completed: 3, failed: 0 },
    });
  });

  it('analyses a corpus once on S3 (shards under derived/<file id>/), reuses it for the next batch, and deletes it with the file', async () => {
    const corpusDocs = docs(300, 5);
    const writer = await files.openWriter({
      ownerKeyId: keyIdOf(KEY_A),
      filename: 'corpus.jsonl',
      purpose: 'user_data',
      maxBytes: 1 << 24,
    });
    await writer.write(Buffer.from(corpusDocs.map((d) => JSON.stringify(d)).join('\n') + '\n'));
    const corpus = await writer.close();
    const derived = async () =>
      ((await stack.s3.send(new ListObjectsV2Command({ Bucket: stack.filesBucket, Prefix: `derived/${corpus.id}/` }))).Contents ?? []).map(
        (o) => o.Key,
      );
    // The first batch analyses the corpus for one line; the second's three lines are one group (one task per shard
    // names all three), and the line they share answers exactly as it did alone.
    const alone = new Map<string, unknown>();
    for (const queries of [['neural ranking'], ['neural ranking', 'python queue', 'stream parser']]) {
      const lines = queries.map((query) => ({
        custom_id: query,
        method: 'POST',
        url: '/v1/rerank',
        body: { model: 'bm25', query, documents_file_id: corpus.id, top_n: 5 },
      }));
      const inputFileId = await writeInput(lines, KEY_A);
      const created = await call('POST', '/v1/batches', KEY_A, {
        input_file_id: inputFileId,
        endpoint: '/v1/rerank',
        completion_window: '24h',
      });
      const done = await settle(String(created.body['id']));
      expect(done).toMatchObject({ status: 'completed', request_counts: { total: queries.length, completed: queries.length, failed: 0 } });
      for (const line of await readLines(String(done['output_file_id']))) {
        const query = String(line['custom_id']);
        const results = (line['response'] as { body: { results: { index: number; relevance_score: number }[] } }).body.results;
        expect(results).toHaveLength(5);
        // Stored BM25 statistics score exactly as the route scores the same documents (a document's score is its own).
        const sync = await call('POST', '/v1/rerank', KEY_A, { model: 'bm25', query, documents: results.map((r) => corpusDocs[r.index]) });
        const syncScores = (sync.body['results'] as { index: number; relevance_score: number }[])
          .sort((a, b) => a.index - b.index)
          .map((r) => r.relevance_score);
        expect(
          results.map((r) => r.relevance_score),
          query,
        ).toEqual(syncScores);
        if (alone.has(query)) expect(results, `${query}: grouped vs alone`).toEqual(alone.get(query));
        else alone.set(query, results);
      }
    }
    const stored = await derived();
    expect(stored.filter((k) => k?.endsWith('.shard')).length).toBeGreaterThan(0);
    expect(stored.some((k) => k?.includes('corpus-plan.'))).toBe(true);
    expect((await call('DELETE', `/v1/files/${corpus.id}`, KEY_A)).status).toBe(200);
    expect(await derived()).toEqual([]);
  });
});
