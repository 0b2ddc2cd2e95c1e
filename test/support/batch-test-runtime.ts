import { keyIdOf } from '../../shared/auth/api-key.js';
import { apiGatewayEvent } from './event-factory.js';
import type { BatchLimits } from '../../shared/batches/batch-limits.js';
import type { Scorer } from '../../shared/core/scorer.js';
import type { ApiApp } from '../../shared/http/api-app.js';
import type { QuotaLedger } from '../../shared/quota/quota-ledger.js';
import { testRuntime, type BatchLane, type BatchLaneOptions } from './test-runtime.js';

export { ManualBatchQueue } from './test-runtime.js';

export interface BatchTestRuntime extends BatchLane {
  readonly app: ApiApp;
  /** The keys' quota ledger the Files API and the engines share. */
  readonly quota: QuotaLedger;
}

/**
 * The batch tests' preset of THE test runtime (testRuntime): `/v1/batches` and `/v1/files` over in-memory ports,
 * operator keys `key-a` and `key-b`, the small request limits these tests assume, a hand-driven task queue and a clock
 * the test moves.
 */
export function batchTestRuntime(
  scorers: readonly Scorer[],
  limits: Partial<BatchLimits> = {},
  options: Pick<BatchLaneOptions, 'files' | 'maxStoredBytesPerKey' | 'analysis'> = {},
): BatchTestRuntime {
  const runtime = testRuntime({
    scorers,
    apiKeys: ['key-a', 'key-b'],
    limits: { maxQueryChars: 1000, maxDocumentChars: 1000 },
    batches: { limits, ...options },
  });
  return { app: runtime.app, quota: runtime.quota, ...(runtime.batches as BatchLane) };
}

/** Creates a batch of key-a's input file `fileId` through POST /v1/batches (endpoint /v1/rerank, 24h); its id. */
export async function createBatchFromFile(rt: Pick<BatchTestRuntime, 'app'>, fileId: string): Promise<string> {
  const created = await rt.app.handle(
    apiGatewayEvent({
      method: 'POST',
      path: '/v1/batches',
      json: { input_file_id: fileId, endpoint: '/v1/rerank', completion_window: '24h' },
      headers: { authorization: 'Bearer key-a' },
    }),
  );
  return (JSON.parse(created.body as string) as { id: string }).id;
}

/** Puts `jsonl` as key-a's input file `in.jsonl` and creates a batch of it (createBatchFromFile); its id. */
export async function createBatchOf(rt: Pick<BatchTestRuntime, 'app' | 'files'>, jsonl: string): Promise<string> {
  const file = await rt.files.put(keyIdOf('key-a'), 'in.jsonl', 'batch', jsonl);
  return createBatchFromFile(rt, file.id);
}
