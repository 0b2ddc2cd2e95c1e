import { expect } from 'vitest';
import { keyIdOf } from '../../shared/auth/api-key.js';
import type { BatchLimits } from '../../shared/batches/batch-limits.js';
import type { BatchTask } from '../../shared/batches/batch-model.js';
import type { QuotaLedger } from '../../shared/quota/quota-ledger.js';
import { createBm25Scorer } from '../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from './event-factory.js';
import { testRuntime, type BatchLane, type TestRuntime } from './test-runtime.js';

// Batch objects and lines are JSON read loosely here; their shapes are checked elsewhere (openai-batch-schemas).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

export type PairsRuntime = TestRuntime & { readonly lane: BatchLane };

const DOCS = ['python http library', 'the weather today', 'urllib for http', 'httpx async client', 'lemon cake'];

/** A `/v1/rerank` batch line over five documents: five pairs. */
export const fivePairLine = (customId: string): string =>
  JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/rerank', body: { query: 'python http', documents: DOCS } });

export async function call(
  rt: TestRuntime,
  method: string,
  path: string,
  key: string,
  json?: unknown,
): Promise<{ status: number; body: Loose }> {
  const response = await rt.app.handle(
    apiGatewayEvent({ method, path, ...(json === undefined ? {} : { json }), headers: { authorization: `Bearer ${key}` } }),
  );
  return { status: response.statusCode ?? 0, body: JSON.parse(response.body as string) as Loose };
}

/** npm start's wiring with the batch lane, key `key-a`, and the ledger given (in memory when absent). */
export function pairsRuntime(maxQueuedPairs: number, limits: Partial<BatchLimits> = {}, quota?: QuotaLedger): PairsRuntime {
  const rt = testRuntime({
    scorers: [createBm25Scorer({ id: 'bm25' })],
    apiKeys: ['key-a'],
    limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
    batches: { limits: { maxQueuedPairs, ...limits } },
    ...(quota === undefined ? {} : { quota }),
  });
  return { ...rt, lane: rt.batches as BatchLane };
}

export async function inputFile(rt: PairsRuntime, key: string, lines: readonly string[]): Promise<string> {
  return (await rt.lane.files.put(keyIdOf(key), 'in.jsonl', 'batch', `${lines.join('\n')}\n`)).id;
}

export const createBody = (fileId: string) => ({ input_file_id: fileId, endpoint: '/v1/rerank', completion_window: '24h' });

/**
 * 10 creates of a 4-line batch (20 pairs) at once from `key-a`, then their 10 plan tasks at once, under a bound of 70:
 * exactly 3 fit, the 7 others end failed naming line 3 (75 pairs), and every end gives its pairs back.
 */
export async function expectBoundUnderParallelCreates(rt: PairsRuntime): Promise<void> {
  const owner = keyIdOf('key-a');
  const fileId = await inputFile(
    rt,
    'key-a',
    ['a', 'b', 'c', 'd'].map((id) => fivePairLine(id)),
  );
  // Create checks nothing new: all 10 are taken.
  const created = await Promise.all(Array.from({ length: 10 }, () => call(rt, 'POST', '/v1/batches', 'key-a', createBody(fileId))));
  expect(created.map((c) => c.status)).toEqual(Array(10).fill(200));
  // Every plan task at once: the reservations race on the ledger.
  const plans = rt.lane.queue.tasks.splice(0).filter((t): t is BatchTask & { kind: 'plan' } => t.kind === 'plan');
  expect(plans).toHaveLength(10);
  await Promise.all(plans.map((task) => rt.lane.engine.handle(task)));
  expect((await rt.quota.usage(owner)).queued_pairs).toBe(60);
  await rt.lane.queue.run();
  const ended = await Promise.all(created.map((c) => call(rt, 'GET', `/v1/batches/${c.body['id']}`, 'key-a')));
  expect(ended.filter((e) => e.body['status'] === 'completed')).toHaveLength(3);
  const failed = ended.filter((e) => e.body['status'] === 'failed');
  expect(failed).toHaveLength(7);
  for (const { body } of failed) {
    // Lines 1-2 (10 pairs) would still fit beside the 60 held; line 3 makes 75.
    expect(body['errors']['data']).toEqual([
      expect.objectContaining({
        code: 'token_limit_exceeded',
        line: 3,
        message: expect.stringMatching(/line 3 would bring .* to 75 pairs .* bound of 70/) as unknown,
      }),
    ]);
    expect(body['request_counts']).toEqual({ total: 4, completed: 0, failed: 4 });
    const errors = rt.lane.files
      .text(body['error_file_id'] as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Loose);
    expect(errors.map((e) => e['error']['code'])).toEqual(Array(4).fill('batch_failed'));
  }
  // Every end gave its pairs back (and its running batch).
  expect(await rt.quota.usage(owner)).toMatchObject({ queued_pairs: 0, running_batches: 0 });
}
