import { describe, expect, it } from 'vitest';
import type { BatchRequestPlan, BatchTask } from '../../../shared/batches/batch-model.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { batchTestRuntime, createBatchOf } from '../../support/batch-test-runtime.js';

const LINES = 300;
const FAIL_AT_LINE = 200;

async function createBatch(rt: ReturnType<typeof batchTestRuntime>, lines: number): Promise<string> {
  // One document per line: one chunk task per line, so with rounds of 64 tasks the planner checkpoints every 64 lines.
  const body = Array.from({ length: lines }, (_, i) =>
    JSON.stringify({
      custom_id: `req-${i + 1}`,
      method: 'POST',
      url: '/v1/rerank',
      body: { query: 'python http', documents: [`document ${i} about python http`] },
    }),
  );
  return createBatchOf(rt, `${body.join('\n')}\n`);
}

describe('batch planning in slices of time', () => {
  it('hands over to a fresh plan task at a checkpoint once its slice is used, and every line ends exactly once', async () => {
    // A slice of 0 s: every run plans up to its first checkpoint (64 lines) and queues the next plan task.
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planSliceSeconds: 0, planFlushTasks: 64 });
    const batchId = await createBatch(rt, LINES);
    const planned: number[] = [];
    const putRequest = rt.store.putRequest.bind(rt.store);
    rt.store.putRequest = async (id: string, request: BatchRequestPlan) => {
      planned.push(request.line);
      return putRequest(id, request);
    };
    const planRuns = await rt.queue.run((t) => t.kind === 'plan');
    // 300 lines at 64 per checkpoint: four runs hand over, the fifth reads to the end.
    expect(planRuns).toBe(Math.ceil(LINES / 64));
    expect(await rt.store.get(batchId)).toMatchObject({ status: 'in_progress', total: LINES, planned: true });
    // Each run resumed where the last stopped: every line was planned once.
    expect([...planned].sort((a, b) => a - b)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    await rt.queue.run();
    const batch = await rt.store.get(batchId);
    expect(batch).toMatchObject({ status: 'completed', finalCounts: { total: LINES, completed: LINES, failed: 0 } });
    const output = rt.files
      .text(batch!.outputFileId!)
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    expect(new Set(output).size).toBe(LINES);
  });

  it('a cancel between two slices stops planning: the next plan task hands the batch to the finalizer', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planSliceSeconds: 0, planFlushTasks: 64 });
    const batchId = await createBatch(rt, LINES);
    // Run exactly one slice, then cancel before the next plan task runs.
    const [first] = rt.queue.tasks.splice(
      rt.queue.tasks.findIndex((t) => t.kind === 'plan'),
      1,
    );
    await rt.engine.handle(first as BatchTask);
    expect(rt.queue.tasks.filter((t) => t.kind === 'plan')).toHaveLength(1);
    const cancel = await rt.app.handle(
      apiGatewayEvent({ method: 'POST', path: `/v1/batches/${batchId}/cancel`, headers: { authorization: 'Bearer key-a' } }),
    );
    expect(cancel.statusCode).toBe(200);
    await rt.queue.run();
    const batch = await rt.store.get(batchId);
    expect(batch?.status).toBe('cancelled');
    expect(batch?.finalCounts?.total).toBeLessThan(LINES);
  });
});

describe('custom ids across plan slices', () => {
  it('a refused line before a checkpoint still owns its custom_id after it: the reuse is a duplicate', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planSliceSeconds: 0, planFlushTasks: 64 });
    const lines = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({
        custom_id: `req-${i + 1}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: 'python http', documents: [`document ${i} about python http`] },
      }),
    );
    // Line 10 is refused (blank query); line 250, planned by a later plan task, reuses its id.
    lines[9] = JSON.stringify({ custom_id: 'taken', method: 'POST', url: '/v1/rerank', body: { query: ' ', documents: ['a'] } });
    lines[249] = JSON.stringify({
      custom_id: 'taken',
      method: 'POST',
      url: '/v1/rerank',
      body: { query: 'python http', documents: ['a'] },
    });
    const batchId = await createBatchOf(rt, `${lines.join('\n')}\n`);
    expect(await rt.queue.run((t) => t.kind === 'plan')).toBeGreaterThan(1);
    await rt.queue.run();
    const batch = await rt.store.get(batchId);
    expect(batch).toMatchObject({ status: 'completed', finalCounts: { total: LINES, completed: LINES - 2, failed: 2 } });
    const errors = rt.files
      .text(batch!.errorFileId!)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string; error: { code: string; message: string } });
    expect(errors.map((e) => [e.custom_id, e.error.code, e.error.message.split(':')[0]])).toEqual([
      ['taken', 'invalid_request', 'line 10'],
      ['taken', 'duplicate_custom_id', 'line 250'],
    ]);
    // Planned by a later task, the duplicate still names the line an earlier task recorded.
    expect(errors[1]?.error.message).toMatch(/custom_id "taken" is already used by line 10;/);
    const output = rt.files
      .text(batch!.outputFileId!)
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    expect(output).not.toContain('taken');
  });
});

describe('batch planning after a failure', () => {
  it('resumes after the last checkpoint instead of line 1, and every line still ends exactly once', async () => {
    // Rounds of 64 tasks: one document per line is one chunk task per line, so the planner checkpoints every 64 lines.
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planFlushTasks: 64 });
    const lines = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({
        custom_id: `req-${i + 1}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: 'python http', documents: [`document ${i} about python http`] },
      }),
    );
    const batchId = await createBatchOf(rt, `${lines.join('\n')}\n`);

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
    const output = rt.files
      .text(batch!.outputFileId!)
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    expect(new Set(output).size).toBe(LINES);
  });
});

describe('blank lines count like any line (100 MiB of them once planned for 132 s, past every check)', () => {
  const request = JSON.stringify({
    custom_id: 'only',
    method: 'POST',
    url: '/v1/rerank',
    body: { query: 'python', documents: ['python http'] },
  });
  const createFrom = (rt: ReturnType<typeof batchTestRuntime>, text: string) => createBatchOf(rt, text);

  it('a file of more blank lines than the line limit ends too_many_lines', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { maxLinesPerBatch: 100 });
    const batchId = await createFrom(rt, `${'\n'.repeat(150)}${request}\n`);
    await rt.queue.run();
    expect(await rt.store.get(batchId)).toMatchObject({ status: 'failed', errors: [{ code: 'too_many_lines', line: 101 }] });
  });

  it('blank lines reach the slice end: planning hands over at checkpoints, and a cancel there stops it', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planSliceSeconds: 0 });
    const batchId = await createFrom(rt, `${'  \n'.repeat(1_000)}${request}\n`);
    // The first slice ends at the first status check (line 256) though no line there is a request.
    const [first] = rt.queue.tasks.splice(
      rt.queue.tasks.findIndex((t) => t.kind === 'plan'),
      1,
    );
    await rt.engine.handle(first as BatchTask);
    expect(rt.queue.tasks.filter((t) => t.kind === 'plan')).toHaveLength(1);
    expect((await rt.store.get(batchId))?.planCheckpoint).toMatchObject({ nextLine: 257, total: 0 });
    const cancel = await rt.app.handle(
      apiGatewayEvent({ method: 'POST', path: `/v1/batches/${batchId}/cancel`, headers: { authorization: 'Bearer key-a' } }),
    );
    expect(cancel.statusCode).toBe(200);
    await rt.queue.run();
    expect((await rt.store.get(batchId))?.status).toBe('cancelled');
  });

  it('a file of blank lines and one request, planned in slices, answers that request once', async () => {
    const rt = batchTestRuntime([createBm25Scorer({ id: 'bm25' })], { planSliceSeconds: 0 });
    const batchId = await createFrom(rt, `${'\n'.repeat(1_000)}${request}\n`);
    expect(await rt.queue.run((t) => t.kind === 'plan')).toBe(4);
    await rt.queue.run();
    expect(await rt.store.get(batchId)).toMatchObject({ status: 'completed', finalCounts: { total: 1, completed: 1, failed: 0 } });
  });
});
