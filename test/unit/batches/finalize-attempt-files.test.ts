import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { batchTestRuntime, createBatchOf, type BatchTestRuntime } from '../../support/batch-test-runtime.js';

/**
 * A finalize attempt that fails after closing its files and then cannot delete them (the delete faults too, or the
 * worker dies) must not leave a file its batch never names: listed to the key and counted on its stored bytes. The
 * chaos run's fault mode above the SDK retry found this (an orphan error file, the ledger 25,560 bytes against 19,506 in
 * the files). The attempt records each file's id on the batch before any byte is visible; whoever runs next deletes
 * what the batch does not name.
 */
const A = keyIdOf('key-a');

async function finalizingBatch(rt: BatchTestRuntime): Promise<string> {
  const lines = ['a', 'b'].map((id) =>
    JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/rerank', body: { query: 'q', documents: ['a b', 'c'] } }),
  );
  // One line the model refuses (an empty query), so the batch has an error file as well as an output.
  lines.push(JSON.stringify({ custom_id: 'bad', method: 'POST', url: '/v1/rerank', body: { query: '', documents: ['x'] } }));
  const id = await createBatchOf(rt, `${lines.join('\n')}\n`);
  await rt.queue.run((t) => t.kind !== 'finalize');
  expect((await rt.store.get(id))?.status).toBe('finalizing');
  return id;
}

/**
 * Every finalize try loses its end transition (until `heal`), and every file delete fails meanwhile: the try that
 * wrote the files cannot discard them, and the later tries cannot remove them either.
 */
function failFinalizeAndItsCleanUp(rt: BatchTestRuntime): { heal: () => void } {
  const update = rt.store.update.bind(rt.store);
  const remove = rt.files.delete.bind(rt.files);
  let failing = true;
  rt.store.update = async (batchId, from, patch, owner) => {
    if (failing && patch.finalCounts !== undefined) throw new Error('injected: the end transition was lost');
    return update(batchId, from, patch, owner);
  };
  rt.files.delete = async (id) => {
    if (failing) throw new Error('injected: delete throttled');
    return remove(id);
  };
  return { heal: () => void (failing = false) };
}

const outputs = async (rt: BatchTestRuntime) =>
  (await rt.files.list(A, { limit: 100 })).files.filter((f) => f.purpose === 'batch_output').map((f) => f.id);

describe('files of a failed finalize attempt', () => {
  it('are deleted by the next delivery: the batch names every batch_output file listed, and the ledger holds exactly them', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const id = await finalizingBatch(rt);
    const faults = failFinalizeAndItsCleanUp(rt);
    await expect(rt.queue.run()).rejects.toThrow('injected');
    // The first try wrote an output and an error file and could not delete them; the later tries could not remove them
    // either, so they stopped before writing more. The batch names neither, but has their ids.
    const orphans = await outputs(rt);
    expect(orphans).toHaveLength(2);
    expect([...((await rt.store.get(id))?.attemptFileIds ?? [])].sort()).toEqual([...orphans].sort());

    faults.heal();
    await rt.engine.handle({ kind: 'finalize', batchId: id });
    const done = await rt.store.get(id);
    expect(done?.status).toBe('completed');
    expect((await outputs(rt)).sort()).toEqual([done?.outputFileId, done?.errorFileId].sort());
    expect(done?.attemptFileIds).toEqual([]);
    // The input file was put straight into the store (no hold): the ledger holds the two outputs, once each.
    const bytes = (await rt.files.list(A, { limit: 100 })).files
      .filter((f) => f.purpose === 'batch_output')
      .reduce((sum, f) => sum + f.bytes, 0);
    expect(await rt.quota.usage(A)).toMatchObject({ files: 2, stored_bytes: bytes, running_batches: 0 });
  });

  it('are deleted by the batch worker when the finalize is dead-lettered: the batch fails, and a finalize task settles it', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    const id = await finalizingBatch(rt);
    const faults = failFinalizeAndItsCleanUp(rt);
    const [finalize] = rt.queue.tasks.splice(0);
    await expect(rt.engine.handle(finalize!)).rejects.toThrow('injected');
    expect(await outputs(rt)).toHaveLength(2);
    faults.heal();

    // The dead-letter function only reads files: it ends the batch and leaves the delete to a finalize task.
    await rt.engine.taskDeadLettered(finalize!, 'the task failed on every delivery');
    expect((await rt.store.get(id))?.status).toBe('failed');
    expect(rt.queue.tasks).toEqual([{ kind: 'finalize', batchId: id }]);
    await rt.queue.run();
    expect(await outputs(rt)).toEqual([]);
    expect((await rt.store.get(id))?.attemptFileIds).toEqual([]);
    expect(await rt.quota.usage(A)).toMatchObject({ files: 0, stored_bytes: 0, running_batches: 0 });
  });
});
