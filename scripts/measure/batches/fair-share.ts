/**
 * `npm run bench:fair-share [-- --lines N]`: issue 33 item 5 measured on `npm start` (the fixture cross-encoder): key A
 * creates an N-line batch (default 50,000); once it runs, key B creates a one-line batch. Prints how long B's batch took
 * from create to completed and how far A's had got by then, and writes bench/fair-share.md. Two operator keys, so the
 * two batches belong to two tenants. (On AWS the same mechanism is SQS fair queues' MessageGroupId; moto accepts the
 * group but delivers in arrival order, so the emulators cannot show it.)
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { startDevServer } from '../../../test/support/start-dev-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const argLines = process.argv.indexOf('--lines');
const LINES = argLines > 0 ? Number(process.argv[argLines + 1]) : 50_000;
if (process.argv.includes('--help') || !Number.isSafeInteger(LINES) || LINES < 1) {
  console.log('usage: npm run bench:fair-share [-- --lines N]   writes bench/fair-share.md');
  process.exit(process.argv.includes('--help') ? 0 : 2);
}

// Short lines: 50,000 of them stay under /v1/files' 6 MiB form.
const line = (i: number) =>
  JSON.stringify({
    custom_id: `r${i}`,
    method: 'POST',
    url: '/v1/rerank',
    body: { query: `http ${i % 97}`, documents: ['python http', 'lemon cake'] },
  });

const server = await startDevServer({
  RERANK_API_KEYS: 'bench-key-a,bench-key-b',
  RERANK_BATCH_MAX_LINES: String(Math.max(LINES, 50_000)),
});
try {
  const call = async (key: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
    const body = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const upload = async (key: string, lines: number, first = 0) => {
    const form = new FormData();
    form.append('purpose', 'batch');
    const text = Array.from({ length: lines }, (_, i) => line(first + i)).join('\n') + '\n';
    form.append('file', new Blob([text], { type: 'application/jsonl' }), 'in.jsonl');
    return (await call(key, '/v1/files', { method: 'POST', body: form }))['id'] as string;
  };
  const create = (key: string, fileId: string) =>
    call(key, '/v1/batches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input_file_id: fileId, endpoint: '/v1/rerank', completion_window: '24h' }),
    });
  const get = (key: string, id: string) => call(key, `/v1/batches/${id}`);
  type Counts = { total: number; completed: number; failed: number };

  const bigFile = await upload('bench-key-a', LINES);
  const smallFile = await upload('bench-key-b', 1, LINES);
  const big = await create('bench-key-a', bigFile);
  const bigId = big['id'] as string;
  // B arrives once A's lines are queued and being scored.
  for (;;) {
    const a = await get('bench-key-a', bigId);
    if (a['status'] === 'in_progress' && (a['request_counts'] as Counts).completed > 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const started = performance.now();
  const small = await create('bench-key-b', smallFile);
  let b = small;
  while (b['status'] !== 'completed' && b['status'] !== 'failed') {
    await new Promise((r) => setTimeout(r, 50));
    b = await get('bench-key-b', small['id'] as string);
  }
  const bSeconds = (performance.now() - started) / 1000;
  const a = await get('bench-key-a', bigId);
  const aCounts = a['request_counts'] as Counts;
  await call('bench-key-a', `/v1/batches/${bigId}/cancel`, { method: 'POST' });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const row = `| ${LINES.toLocaleString('en')} lines (key A) | ${String(b['status'])} in ${bSeconds.toFixed(2)} s | ${a['status']}: ${aCounts.completed.toLocaleString('en')} of ${aCounts.total.toLocaleString('en')} lines done |`;
  console.log(
    `key B's one-line batch: ${String(b['status'])} ${bSeconds.toFixed(2)} s after create, while key A's batch was ${String(a['status'])} (${aCounts.completed} of ${aCounts.total} done)`,
  );
  writeFileSync(
    resolve(ROOT, 'bench/fair-share.md'),
    [
      '# Fair shares across keys on `npm start` (`npm run bench:fair-share`)',
      '',
      `CPU: ${cpu}, ${cpus().length} vCPUs; fixture cross-encoder; ${new Date().toISOString().slice(0, 10)}. One run: a shared machine, so the seconds are indicative.`,
      '',
      "| key A's batch | key B's one-line batch, from create | key A's batch then |",
      '| --- | --- | --- |',
      row,
      '',
      "The in-process queue serves each key's chunk tasks in turn (SQS fair queues' MessageGroupId on AWS), so B waits for",
      "one of A's chunks per runner, not for A's queue. moto delivers in arrival order whatever the group, so this is",
      'measured on `npm start` only; on the emulators the test checks that the group reaches the message.',
      '',
    ].join('\n'),
  );
} finally {
  await server.stop();
}
