import { describe, expect, it } from 'vitest';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { BatchEngineDeps } from '../../../shared/batches/batch-engine-deps.js';
import type { BatchRecord } from '../../../shared/batches/batch-model.js';
import { keepResult } from '../../../shared/batches/keep-result.js';

const NOW = 1_800_000_000;
const batch: BatchRecord = {
  id: 'batch_late',
  ownerKeyId: 'key-a',
  inputFileId: 'file-0123456789abcdef01234567',
  inputFileVersion: 'v1',
  endpoint: '/v1/rerank',
  completionWindow: '24h',
  createdAt: NOW,
  expiresAt: NOW + 86_400,
  status: 'in_progress',
  total: 1,
  planned: true,
};
const line = { line: 1, outcome: 'completed' as const, jsonl: '{"id":"batch_req_1","custom_id":"r1","response":{"status_code":200}}' };

function setup() {
  const store = new InMemoryBatchStore();
  const ledger = new InMemoryQuotaLedger();
  const deps = { store, quota: { ledger, limits: {} }, queue: { send: async () => {} }, nowMs: () => NOW * 1000 } as unknown as BatchEngineDeps;
  return { store, ledger, deps };
}

describe('a result line kept by a task that ran on after its batch ended', () => {
  it('gives back the bytes it charged: the finalizer had already handed the line to the files (before: held until expiry)', async () => {
    const { store, ledger, deps } = setup();
    await store.create(batch);
    expect(await keepResult(deps, batch, line)).toBe(true);
    expect((await ledger.usage('key-a')).stored_bytes).toBe(line.jsonl.length + 1);
    // The finalizer: the batch ends and its files take over (here: the line holds simply go, as after the transfer).
    await store.update(batch.id, ['in_progress'], { status: 'completed', completedAt: NOW + 1 });
    await ledger.release('key-a', `batch-line:${batch.id}:1`);
    // A redelivered task that passed its status check before the end keeps the line again.
    expect(await keepResult(deps, batch, line)).toBe(false);
    expect((await ledger.usage('key-a')).stored_bytes).toBe(0);
  });

  it('keeps the charge of a line kept while its batch runs, also when a redelivery keeps it again', async () => {
    const { store, ledger, deps } = setup();
    await store.create(batch);
    expect(await keepResult(deps, batch, line)).toBe(true);
    expect(await keepResult(deps, batch, line)).toBe(false);
    expect((await ledger.usage('key-a')).stored_bytes).toBe(line.jsonl.length + 1);
  });
});
