import { describe, expect, it } from 'vitest';
import { InMemoryQuotaLedger } from '../../../shared/adapters/memory/in-memory-quota-ledger.js';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { BatchTask } from '../../../shared/batches/batch-model.js';
import { call, createBody, fivePairLine, inputFile, pairsRuntime } from '../../support/queued-pairs-scenario.js';

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
  it('is given back even when the release after the end failed: the finalize task fails, and its redelivery releases it', async () => {
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
    // The delivery whose release failed must not count as done: the queue redelivers it, and the retry releases.
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
    expect(redeliveries).toBe(1);
    expect((await ledger.usage(keyIdOf('key-a'))).running_batches).toBe(0);
  });
});
