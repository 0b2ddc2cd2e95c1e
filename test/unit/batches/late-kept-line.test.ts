import { describe, expect, it } from 'vitest';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import type { BatchEngineDeps } from '../../../shared/batches/batch-engine-deps.js';
import type { BatchRecord } from '../../../shared/batches/batch-model.js';
import { keepResult } from '../../../shared/batches/keep-result.js';
import { chargeResultLine } from '../../../shared/batches/batch-quota.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';

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
  const deps = {
    store,
    quota: { ledger, limits: {} },
    queue: { send: async () => {} },
    nowMs: () => NOW * 1000,
  } as unknown as BatchEngineDeps;
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

describe('the finalizer gives back every line hold of its batch', () => {
  it('also the charge of a line the store never kept (its put failed, then the batch was cancelled; before: held until expiry)', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const owner = keyIdOf('key-a');
    const lines = [0, 1].map((i) =>
      JSON.stringify({
        custom_id: `r${i}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { model: 'bm25', query: 'python http', documents: ['python http client', 'a recipe'] },
      }),
    );
    const input = await rt.files.put(owner, 'in.jsonl', 'batch', lines.join('\n') + '\n');
    const created = await rt.engine.create(owner, { inputFileId: input.id, endpoint: '/v1/rerank', completionWindow: '24h' });
    await rt.queue.run((t) => t.kind === 'plan');
    // The chunk tasks charged their lines, then lost their store writes; their redeliveries are still to come.
    const pending = rt.queue.tasks.splice(0);
    expect(pending.length).toBeGreaterThan(0);
    const record = await rt.store.get(created.batch.id);
    for (const line of [0, 1, 2])
      expect(
        await chargeResultLine({ ledger: rt.quota, limits: {} }, record!, { line, outcome: 'completed', jsonl: 'x'.repeat(500) }),
      ).toBe(true);
    await rt.engine.cancel(created.batch.id, owner);
    await rt.queue.run();
    rt.queue.tasks.push(...pending);
    await rt.queue.run();
    const done = await rt.engine.find(created.batch.id, owner);
    expect(done?.batch.status).toBe('cancelled');
    const files = await Promise.all([done!.batch.outputFileId, done!.batch.errorFileId].map((id) => (id ? rt.files.get(id) : undefined)));
    // The batch's files hold what the key stores for it, nothing more (the input was put beside the Files API).
    expect((await rt.quota.usage(owner)).stored_bytes).toBe(files.reduce((sum, f) => sum + (f?.bytes ?? 0), 0));
  });
});
