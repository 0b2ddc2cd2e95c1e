import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryBatchStore } from '../../../shared/adapters/memory/in-memory-batch-store.js';
import type { BatchRecord } from '../../../shared/batches/batch-model.js';

const dir = mkdtempSync(join(tmpdir(), 'rerank-spill-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const batch: BatchRecord = {
  id: 'batch_spill',
  ownerKeyId: 'k',
  inputFileId: 'file-1',
  inputFileVersion: 'v1',
  endpoint: '/v1/rerank',
  completionWindow: '24h',
  createdAt: 0,
  expiresAt: 86_400,
  status: 'in_progress',
  total: 3,
  planned: true,
};

describe("the embedded batch store's result lines on disk (issue 33 item 1: a batch's output is not held in the process)", () => {
  it('keeps large lines in files until the batch ends, small ones in memory, and reads them back in line order', async () => {
    const store = new InMemoryBatchStore({ spill: { dir, aboveBytes: 1024 } });
    await store.create(batch);
    const big = (line: number) => ({
      line,
      outcome: 'completed' as const,
      jsonl: JSON.stringify({ custom_id: `r${line}`, documents: 'x'.repeat(4096) }),
    });
    const small = { line: 2, outcome: 'failed' as const, jsonl: '{"custom_id":"r2","error":{}}' };
    expect(await store.putResult(batch.id, big(3))).toBe(true);
    expect(await store.putResult(batch.id, small)).toBe(true);
    expect(await store.putResult(batch.id, big(1))).toBe(true);
    expect(await store.putResult(batch.id, big(1))).toBe(false);
    expect(readdirSync(join(dir, batch.id)).sort()).toEqual(['1.jsonl', '3.jsonl']);
    const read = [];
    for await (const result of store.readResults(batch.id)) read.push(result);
    expect(read).toEqual([big(1), small, big(3)]);
    expect(await store.getResult(batch.id, 3)).toEqual(big(3));
    expect(await store.countResults(batch.id)).toEqual({ completed: 2, failed: 1 });
    await store.dropWork(batch.id);
    expect(existsSync(join(dir, batch.id))).toBe(false);
  });
});
