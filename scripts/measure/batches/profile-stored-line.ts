/**
 * A one-line and a many-line batch over a large stored corpus (the million documents), and where the time goes.
 * Keeps its corpus and analysis in PROFILE_DIR across runs (a local-folder file store), so only the first run
 * analyses (its time is kept in the state file). Writes a .cpuprofile of the timed batches when PROFILE_CPU=1, and
 * with PROFILE_WRITE=1 bench/stored-corpus-measurements.json, which `npm run scale-model` turns into docs/cost.md's
 * corpus rows.
 *   PROFILE_DIR=/tmp/x PROFILE_DOCUMENTS=1000000 [PROFILE_RUNS=5] [PROFILE_LINES=1000] [PROFILE_CPU=1] [PROFILE_WRITE=1] \
 *     POWERTOOLS_METRICS_DISABLED=true npx tsx scripts/measure/batches/profile-stored-line.ts
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { LocalFolderFileStore } from '../../../shared/adapters/local/local-folder-file-store.js';
import { DEFAULT_MODEL_ID, FIXTURE_MODEL_ID, loadServiceConfig } from '../../../shared/config/service-config.js';
import { loadScorers } from '../../../shared/runtime/load-scorers.js';
import { documentText, queryText, runBatch } from './batch-bench-scenarios.js';
import { engineOverStore } from './engine-over-store.js';

const dir = process.env['PROFILE_DIR'] ?? '/tmp/stored-line-profile';
const documents = Number(process.env['PROFILE_DOCUMENTS'] ?? 10_000);
const files = new LocalFolderFileStore(join(dir, 'files'));
const statePath = join(dir, `corpus-${documents}.json`);
const config = loadServiceConfig({ RERANK_MODELS: '' });
const scorers = await loadScorers(
  config.models.filter((m) => m.id !== FIXTURE_MODEL_ID),
  2,
);
const engine = engineOverStore(scorers, files);

// Writes `count` lines 10,000 at a time, so a million-document corpus is never whole in this process (its peak RSS
// is part of what the profile reports).
async function put(purpose: 'user_data' | 'batch', count: number, lineAt: (i: number) => string): Promise<string> {
  const writer = await files.openWriter({ ownerKeyId: 'bench', filename: `${purpose}.jsonl`, purpose, maxBytes: 1 << 30 });
  for (let start = 0; start < count; start += 10_000) {
    const end = Math.min(count, start + 10_000);
    await writer.write(Buffer.from(Array.from({ length: end - start }, (_, k) => lineAt(start + k)).join('\n') + '\n'));
  }
  const file = await writer.close();
  if (purpose === 'user_data') console.log(`${new Date().toISOString()} corpus of ${count} documents: ${(file.bytes / 1e6).toFixed(1)} MB`);
  return file.id;
}
const line = (corpusId: string, q: number) =>
  JSON.stringify({
    custom_id: `q${q}`,
    method: 'POST',
    url: '/v1/rerank',
    body: { model: DEFAULT_MODEL_ID, query: queryText(q), documents_file_id: corpusId, top_n: 10 },
  });

interface State {
  readonly corpusId: string;
  /** The first run's analysis (absent in a state file written before it was kept). */
  readonly analysis?: { readonly ms: number; readonly load: readonly [number, number]; readonly at: string };
}
let state: State;
const loadAtStart = loadavg()[0]!;
if (existsSync(statePath)) state = JSON.parse(readFileSync(statePath, 'utf8')) as State;
else {
  const corpusId = await put('user_data', documents, (i) => JSON.stringify(`${documentText(i)} item ${i}`));
  const analysis = await runBatch(engine, await put('batch', 1, () => line(corpusId, 0)), documents, 'analysis');
  console.log(
    `analysis of ${documents}: ${(analysis.totalMs / 1000).toFixed(1)} s (${(documents / (analysis.totalMs / 1000)).toFixed(0)} docs/s)`,
  );
  state = { corpusId, analysis: { ms: analysis.totalMs, load: [loadAtStart, loadavg()[0]!], at: new Date().toISOString() } };
  writeFileSync(statePath, JSON.stringify(state));
}
const { corpusId } = state;
const runsLoad = loadavg()[0]!;
const session = new Session();
if (process.env['PROFILE_CPU'] === '1') {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const times: number[] = [];
for (let q = 1; q <= Number(process.env['PROFILE_RUNS'] ?? 5); q++) {
  const one = await runBatch(engine, await put('batch', 1, () => line(corpusId, q)), documents, 'one');
  times.push(one.totalMs);
}
const lines = Number(process.env['PROFILE_LINES'] ?? 0);
let manyLinesMs = 0;
if (lines > 0) {
  const many = await runBatch(engine, await put('batch', lines, (q) => line(corpusId, 100 + q)), documents * lines, 'many');
  manyLinesMs = many.totalMs;
  console.log(`${lines} lines: ${(many.totalMs / 1000).toFixed(2)} s (${many.status})`);
}
if (process.env['PROFILE_CPU'] === '1') {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(dir, 'one-line.cpuprofile'), JSON.stringify(profile));
}
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(
  `one-line batches over ${documents} stored documents: ${times.map((t) => t.toFixed(0)).join(', ')} ms; peak RSS ${peakRssMb} MB`,
);
if (process.env['PROFILE_WRITE'] === '1') {
  if (!state.analysis || lines === 0) throw new Error('PROFILE_WRITE needs a state file with its analysis time and PROFILE_LINES > 0');
  const derived = join(dir, 'files', 'derived', corpusId);
  // The stored shards' sizes (the corpus plan beside them is a few KB), read off the disk without opening them.
  const shardSizes = readdirSync(derived)
    .filter((name) => name.endsWith('.shard'))
    .map((name) => statSync(join(derived, name)).size);
  const measurements = {
    date: new Date().toISOString(),
    machine: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
    cpus: cpus().length,
    load: [Math.min(state.analysis.load[0], runsLoad), Math.max(state.analysis.load[1], loadavg()[0]!)],
    documents,
    corpusBytes: (await files.get(corpusId))?.bytes ?? 0,
    shards: shardSizes.length,
    storedBytes: shardSizes.reduce((sum, size) => sum + size, 0),
    analysisMs: state.analysis.ms,
    oneLineMs: times,
    lines,
    manyLinesMs,
    peakRssMb,
  };
  writeFileSync(new URL('../../../bench/stored-corpus-measurements.json', import.meta.url), JSON.stringify(measurements, null, 2) + '\n');
  console.log('wrote bench/stored-corpus-measurements.json');
}
await Promise.all(scorers.map((s) => s.close?.()));
