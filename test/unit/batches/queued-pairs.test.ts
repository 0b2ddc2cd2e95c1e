import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import {
  call,
  createBody,
  expectBoundUnderParallelCreates,
  fivePairLine,
  inputFile,
  pairsRuntime,
} from '../../support/queued-pairs-scenario.js';

describe("a key's queued pairs (documents x query lines) across its batches", () => {
  it('holds the bound under 10 parallel creates planned at once: 3 batches of 20 pairs fit in 70, the others fail naming the line', async () => {
    await expectBoundUnderParallelCreates(pairsRuntime(70));
  });

  it('fails a batch at the round that passes the bound, as a cancel ends it: that round is never sent', async () => {
    // One task a line, a round every 2 tasks: lines 1-2 (10 pairs) go, lines 3-4 would make 20 of 15.
    const rt = pairsRuntime(15, { planFlushTasks: 2, chunkCost: 32_768 });
    const fileId = await inputFile(
      rt,
      'key-a',
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => fivePairLine(id)),
    );
    const created = await call(rt, 'POST', '/v1/batches', 'key-a', createBody(fileId));
    await rt.lane.queue.run((task) => task.kind === 'plan');
    const sent = rt.lane.queue.tasks.flatMap((task) => (task.kind === 'chunk' ? [task.line] : []));
    expect(sent).toEqual([1, 2]);
    expect((await rt.quota.usage(keyIdOf('key-a'))).queued_pairs).toBe(10);
    await rt.lane.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`, 'key-a');
    expect(done.body).toMatchObject({
      status: 'failed',
      errors: { data: [{ code: 'token_limit_exceeded', line: 4 }] },
      request_counts: { total: 4, failed: 4 },
    });
    expect(await rt.quota.usage(keyIdOf('key-a'))).toMatchObject({ queued_pairs: 0, running_batches: 0 });
  });

  it('charges a line once however often its planning runs: a plan task retried after its round was reserved sets a total, never adds', async () => {
    const rt = pairsRuntime(1_000, { planFlushTasks: 2, chunkCost: 32_768 });
    const fileId = await inputFile(
      rt,
      'key-a',
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => fivePairLine(id)),
    );
    const created = await call(rt, 'POST', '/v1/batches', 'key-a', createBody(fileId));
    // The second checkpoint's write fails once (a crash after lines 3-4 were reserved and sent): the task is retried
    // from the first checkpoint and plans lines 3-4 again.
    const { store } = rt.lane;
    const update = store.update.bind(store);
    let checkpoints = 0;
    store.update = async (...args: Parameters<typeof update>) => {
      if (args[2].planCheckpoint && ++checkpoints === 2) throw new Error('lost write');
      return update(...args);
    };
    const [plan] = rt.lane.queue.tasks.splice(0);
    await expect(rt.lane.engine.handle(plan!)).rejects.toThrow('lost write');
    expect((await rt.quota.usage(keyIdOf('key-a'))).queued_pairs).toBe(20);
    await rt.lane.engine.handle(plan!);
    expect((await rt.quota.usage(keyIdOf('key-a'))).queued_pairs).toBe(30);
    await rt.lane.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`, 'key-a');
    expect(done.body).toMatchObject({ status: 'completed', request_counts: { total: 6, completed: 6, failed: 0 } });
    expect((await rt.quota.usage(keyIdOf('key-a'))).queued_pairs).toBe(0);
  });

  it("takes the key's own bound (npm run keys -- create --max-queued-pairs) over the service's", async () => {
    const rt = pairsRuntime(1_000_000);
    const { key } = await rt.keys.create('small', { maxQueuedPairs: 4 });
    const fileId = await inputFile(rt, key, [fivePairLine('a')]);
    const created = await call(rt, 'POST', '/v1/batches', key, createBody(fileId));
    expect(created.status).toBe(200);
    await rt.lane.queue.run();
    const done = await call(rt, 'GET', `/v1/batches/${created.body['id']}`, key);
    expect(done.body).toMatchObject({ status: 'failed', errors: { data: [{ code: 'token_limit_exceeded', line: 1 }] } });
    expect(done.body['errors']['data'][0]['message']).toMatch(/to 5 pairs .* bound of 4/);
  });
});
