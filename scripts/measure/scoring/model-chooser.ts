/**
 * `npm run bench:chooser` (also the last step of `npm run bench`): the model chooser's figures. For each model
 * shape the project serves and each vCPU count (1, 2), starts the real local server (`scripts/serve/dev-server.ts`,
 * what `npm start` runs, so the production execution plan and HTTP path) pinned with `taskset` to that many cores
 * and serving that one model, then times POST /v1/rerank requests of 10 / 50 / 100 documents of the bench's mix,
 * one at a time after one warm-up per size. Wall-clock p50 per size, and the server's CPU seconds per request
 * (from /proc, what a loaded machine does not inflate). Writes bench/model-chooser.json and bench/model-chooser.md
 * and the table in docs/models.md between the `model-chooser:table` markers.
 *
 *   tsx scripts/measure/scoring/model-chooser.ts [--quick] [--shapes default,minilm-l6-int8] [--threads 1,2]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchMachine } from '../cold-start/bench-machine.js';
import { benchRequest, readWords } from './bench-documents.js';
import { percentile } from './bench-stats.js';
import { availableShapes, modelsSpec, stageShapeFolder } from '../cold-start/cold-start-shapes.js';
import { CHOOSER_SHAPES, type ChooserRow, type ChooserRun, type ChooserShape } from './model-chooser-shapes.js';
import { writeChooserReport } from './model-chooser-report.js';
import { startDevServer, type RunningServer } from '../../../test/support/start-dev-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const quick = process.argv.includes('--quick');
const SIZES = [10, 50, 100] as const;

function listArg(name: string): string[] | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]!.split(',').map((s) => s.trim()) : undefined;
}

/** Repetitions per size: fewer for the slow shapes so a run stays within minutes. */
function repetitions(shape: ChooserShape, size: number): number {
  const base = quick ? 3 : size === 10 ? 9 : size === 50 ? 7 : 5;
  return shape.slow ? Math.max(3, Math.ceil(base / 2)) : base;
}

/** utime + stime of a process in seconds (Linux /proc; clock ticks are 100 Hz on every Linux Node runs on). */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The shape served alone (RERANK_MODELS '' = the shipped default list), on `threads` pinned cores. */
async function startServer(shape: ChooserShape, threads: number, stageRoot: string): Promise<RunningServer> {
  // A pulled variant holds one ONNX file: the folder is staged as the cold-start bench stages it.
  const models = modelsSpec(shape, stageShapeFolder(ROOT, shape, stageRoot)) ?? '';
  return startDevServer(
    {
      RERANK_MODELS: models,
      RERANK_THREADS: String(threads),
      // Every size is scored synchronously, however slow the shape: the figure is the scorer's, not the job path's.
      RERANK_SYNC_TIMEOUT_MS: '600000',
    },
    { cores: `0-${threads - 1}`, startTimeoutMs: 180_000 },
  );
}

async function rerank(url: string, model: string, query: string, documents: string[]): Promise<void> {
  const response = await fetch(`${url}/v1/rerank`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, query, documents }),
  });
  const body = (await response.json()) as { results?: unknown[] };
  if (response.status !== 200 || body.results?.length !== documents.length)
    throw new Error(`${model}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function measureCell(shape: ChooserShape, threads: number, words: string[]): Promise<ChooserRow[]> {
  const stageRoot = mkdtempSync(path.join(tmpdir(), 'model-chooser-'));
  const rows: ChooserRow[] = [];
  let server: RunningServer | undefined;
  try {
    server = await startServer(shape, threads, stageRoot);
    // The first request pays the pace measurement and lazy sessions: one warm-up of each size first.
    for (const size of SIZES) {
      const warm = benchRequest(words, size, 7);
      await rerank(server.url, shape.model, warm.query, warm.documents);
    }
    for (const size of SIZES) {
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < repetitions(shape, size); i++) {
        const request = benchRequest(words, size, 100 + i);
        const cpuBefore = processCpuSeconds(server.pid);
        const started = performance.now();
        await rerank(server.url, shape.model, request.query, request.documents);
        wall.push(performance.now() - started);
        cpu.push((processCpuSeconds(server.pid) - cpuBefore) * 1000);
      }
      const row = {
        shape: shape.id,
        threads,
        documents: size,
        samples: wall.length,
        wallP50Ms: percentile(wall, 50),
        cpuP50Ms: percentile(cpu, 50),
      };
      rows.push(row);
      console.log(
        `${shape.label}, ${threads} vCPU, ${size} docs: p50 ${row.wallP50Ms.toFixed(0)} ms wall, ${row.cpuP50Ms.toFixed(0)} ms CPU (${row.samples} requests)`,
      );
    }
  } finally {
    await server?.stop();
    rmSync(stageRoot, { recursive: true, force: true });
  }
  return rows;
}

async function main(): Promise<void> {
  const only = listArg('--shapes');
  const threadList = (listArg('--threads') ?? ['1', '2']).map(Number);
  const wanted = CHOOSER_SHAPES.filter((s) => only === undefined || only.includes(s.id));
  const shapes = availableShapes(ROOT, wanted) as ChooserShape[];
  const missing = wanted.filter((s) => !shapes.includes(s));
  for (const s of missing) console.log(`${s.label}: ${s.folder} missing, left out (build: ${s.build})`);
  const words = readWords(path.join(ROOT, 'models/tinybert-l2-fixture/vocab.txt'));
  const run: ChooserRun = { date: new Date().toISOString(), machine: benchMachine(), load: [], rows: [] };
  for (const threads of threadList) {
    const start = loadavg()[0]!;
    for (const shape of shapes) run.rows.push(...(await measureCell(shape, threads, words)));
    run.load.push({ threads, start, end: loadavg()[0]! });
  }
  writeFileSync(path.join(ROOT, 'bench/model-chooser.json'), `${JSON.stringify(run, null, 2)}\n`);
  writeChooserReport(ROOT, run);
  console.log('wrote bench/model-chooser.json, bench/model-chooser.md and the table in docs/models.md');
}

await main();
