import { describe, expect, it } from 'vitest';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { call, createBody, fivePairLine, inputFile, pairsRuntime, type PairsRuntime } from '../../support/queued-pairs-scenario.js';

/** The key's ledger, except that the first two releases of a running batch's hold fail (throttled calls, no SDK retry). */
function ledgerFailingFirstRunningRelease(): { ledger: InMemoryQuotaLedger; failures: () => number } {
  const ledger = new InMemoryQuotaLedger();
  const release = ledger.release.bind(ledger);
  let failures = 0;
  ledger.release = async (key, id) => {
    if (id.startsWith('batch:') && failures < 2) {
      failures++;
      throw new Error('injected: release throttled');
    }
    return release(key, id);
  };
  return { ledger, failures: () => failures };
}

describe("a batch's running hold at its end", () => {
  it('is given back even when the release after the end failed: the finalize run fails, and its own retry releases it', async () => {
    const { ledger, failures } = ledgerFailingFirstRunningRelease();
    const rt = pairsRuntime(1_000, {}, ledger);
    const fileId = await inputFile(
      rt,
      'key-a',
      ['a', 'b'].map((id) => fivePairLine(id)),
    );
    await call(rt, 'POST', '/v1/batches', 'key-a', createBody(fileId));
    await rt.lane.queue.run((task) => task.kind !== 'finalize');
    const [finalize] = rt.lane.queue.tasks as BatchTask[];
    expect(finalize?.kind).toBe('finalize');
    // The run whose release failed must not count as done: the finalizer's own retry (finalizeWithRetries) runs it again
    // and releases, so the task needs no redelivery.
    let redeliveries = 0;
    for (;;) {
      try {
        await rt.lane.queue.run();
        break;
      } catch {
        redeliveries++;
        await rt.lane.queue.send([finalize as BatchTask]);
      }
    }
    expect(failures()).toBe(2);
    expect(redeliveries).toBe(0);
    expect((await ledger.usage(keyIdOf('key-a'))).running_batches).toBe(0);
  });

  /** Dead-letters `task` as the DLQ consumer does until a delivery succeeds; how many deliveries failed. */
  async function deadLetterUntilDone(rt: PairsRuntime, task: BatchTask): Promise<number> {
    for (let failed = 0; ; failed++) {
      try {
        await rt.lane.engine.taskDeadLettered(task, 'failed on every delivery');
        return failed;
      } catch {
        // The DLQ delivers the message again.
      }
    }
  }

  it.each(['plan', 'finalize'] as const)(
    'is given back when the %s task is dead-lettered and the release failed: the dead-letter delivery fails, and its redelivery releases it',
    async (kind) => {
      const { ledger, failures } = ledgerFailingFirstRunningRelease();
      const rt = pairsRuntime(1_000, {}, ledger);
      const fileId = await inputFile(rt, 'key-a', [fivePairLine('a')]);
      const created = await call(rt, 'POST', '/v1/batches', 'key-a', createBody(fileId));
      if (kind === 'finalize') await rt.lane.queue.run((task) => task.kind !== 'finalize');
      const task = rt.lane.queue.tasks.splice(0).find((t) => t.kind === kind);
      expect(task?.kind).toBe(kind);
      expect(await deadLetterUntilDone(rt, task as BatchTask)).toBe(1);
      expect(failures()).toBe(2);
      expect((await call(rt, 'GET', `/v1/batches/${String(created.body['id'])}`, 'key-a')).body['status']).toBe('failed');
      expect((await ledger.usage(keyIdOf('key-a'))).running_batches).toBe(0);
    },
  );
});
