import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../shared/auth/api-key.js';
import type { BatchRequestPlan, BatchTask } from '../../../shared/batches/batch-model.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime } from '../../support/batch-test-runtime.js';

const A = keyIdOf('key-a');
const LINES = 300;
const FAIL_AT_LINE = 200;

describe('batch planning after a failure', () => {
  it('resumes after the last checkpoint instead of line 1, and every line still ends exactly once', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })]);
    // One document per line: one chunk task per line, so the planner checkpoints every 64 lines.
    const lines = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({ custom_id: `req-${i + 1}`, method: 'POST', url: '/v1/rerank', body: { query: 'python http', documents: [`document ${i} about python http`] } }),
    );
    const file = await rt.files.put(A, 'in.jsonl', 'batch', `${lines.join('\n')}\n`);
    const created = await rt.app.handle(
      apiGatewayEvent({ method: 'POST', path: '/v1/batches', json: { input_file_id: file.id, endpoint: '/v1/rerank', completion_window: '24h' }, headers: { authorization: 'Bearer key-a' } }),
    );
    const batchId = (JSON.parse(created.body as string) as { id: string }).id;

    // The store fails once, at line 200, as DynamoDB may: the plan task throws and SQS would deliver it again.
    const planned: number[] = [];
    const putRequest = rt.store.putRequest.bind(rt.store);
    let failed = false;
    rt.store.putRequest = async (id: string, request: BatchRequestPlan) => {
      planned.push(request.line);
      if (request.line === FAIL_AT_LINE && !failed) {
        failed = true;
        throw new Error('store unavailable');
      }
      return putRequest(id, request);
    };
    const planTask = rt.queue.tasks.find((t) => t.kind === 'plan') as BatchTask;
    await expect(rt.queue.run((t) => t.kind === 'plan')).rejects.toThrow('store unavailable');
    rt.queue.tasks.push(planTask); // the redelivery
    await rt.queue.run();

    const batch = await rt.store.get(batchId);
    expect(batch).toMatchObject({ status: 'completed', finalCounts: { total: LINES, completed: LINES, failed: 0 } });
    // Resumed at the checkpoint before line 200 (line 193, after 3 x 64 lines), not at line 1: the lines before it were
    // written once, the ones from it on again (plans are written 16 at a time, so the first run may have reached past 200).
    const writes = new Map<number, number>();
    for (const line of planned) writes.set(line, (writes.get(line) ?? 0) + 1);
    for (let line = 1; line < 193; line++) expect(writes.get(line)).toBe(1);
    expect(writes.get(193)).toBe(2);
    expect(writes.get(FAIL_AT_LINE)).toBe(2);
    for (let line = 193; line <= LINES; line++) expect(writes.get(line)).toBeGreaterThanOrEqual(1);
    expect(planned.length).toBeLessThan(LINES + 64 + 1);
    const output = rt.files.text(batch!.outputFileId!).trim().split('\n').map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    expect(new Set(output).size).toBe(LINES);
  });
});
