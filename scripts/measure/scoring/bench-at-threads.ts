/**
 * One thread count of `npm run bench`: run by run-bench.ts as its own process (pinned with taskset to that
 * many cores where available), so every runtime in it - ours, Python onnxruntime, PyTorch - sees the same
 * CPUs. Writes one JSON file (ThreadRun) and exits.
 *
 *   tsx scripts/measure/scoring/bench-at-threads.ts --threads N --out FILE [--quick] [--extras]
 *
 * --extras adds the sections measured once per bench (session options, padding, quantization variants,
 * cold start, concurrent requests); run-bench passes it to the largest thread count.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { readModelFolder } from '../../../shared/scoring/model-folder.js';
import { createPairTokenizer } from '../../../shared/scoring/pair-tokenizer.js';
import { benchRequest, readWords } from './bench-documents.js';
import { median, percentile, fmt, timed } from './bench-stats.js';
import { measureExtras } from './bench-extras.js';
import { benchPython, PythonPeerClient } from './python-peer-client.js';
import { rankAgreement, spearman } from './rank-correlation.js';
import { spreadCopyAgreement } from './spread-copy-agreement.js';
import { BATCH, FORM_MODELS, FORM_VARIANTS, MODELS, MODELS_DIR, VARIANTS } from './bench-models.js';
import type { LatencyRow, ThreadRun, ThroughputRow } from './bench-results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const threads = Number(arg('--threads') ?? '1');
const out = arg('--out');
const quick = process.argv.includes('--quick');
const extras = process.argv.includes('--extras');
const log = (line: string): void => console.log(`[${threads} thread${threads === 1 ? '' : 's'}] ${line}`);

const SIZES = {
  'minilm-l6': { docs: quick ? 32 : 96, reps: quick ? 2 : 3 },
  'tinybert-l2': { docs: quick ? 128 : 256, reps: quick ? 2 : 3 },
  'minilm-l6-hub': { docs: quick ? 32 : 96, reps: quick ? 2 : 3 },
} as const;

interface Peers {
  readonly client: PythonPeerClient | undefined;
  readonly versions: Record<string, string | null>;
  readonly ort: boolean;
  readonly st: boolean;
  /** PyTorch bf16 is a peer only where the CPU multiplies bf16 in hardware (AMX / AVX-512 BF16); elsewhere it is emulated. */
  readonly stBf16: boolean;
}

async function startPeers(notes: string[]): Promise<Peers> {
  const python = benchPython();
  try {
    const client = PythonPeerClient.start(python, path.join(ROOT, 'scripts/measure/scoring/python-peers.py'));
    const { versions, bf16Hardware } = await client.ask<{ versions: Record<string, string | null>; bf16Hardware?: boolean }>({
      cmd: 'hello',
    });
    const ort = versions['onnxruntime'] != null;
    const st = versions['sentence_transformers'] != null && versions['torch'] != null;
    if (!ort) notes.push(`Python onnxruntime not importable with ${python}: ${String(versions['onnxruntime_error'])}`);
    if (!st) notes.push(`sentence-transformers not importable with ${python}: ${String(versions['sentence_transformers_error'])}`);
    if (st && bf16Hardware !== true)
      notes.push('no CrossEncoder bf16 row: this CPU has neither AMX nor AVX-512 BF16 (PyTorch would emulate bf16)');
    return { client, versions, ort, st, stBf16: st && bf16Hardware === true };
  } catch (error) {
    notes.push(`Python peers unavailable (${python}): ${(error as Error).message}`);
    return { client: undefined, versions: {}, ort: false, st: false, stBf16: false };
  }
}

async function throughput(peers: Peers, words: string[], rows: ThroughputRow[], spearmanRows: ThreadRun['spearman']): Promise<void> {
  for (const model of [...MODELS, ...FORM_MODELS]) {
    const folder = path.join(MODELS_DIR, model.name);
    if (!existsSync(path.join(folder, 'onnx', 'model.onnx'))) continue; // the Hub-form copy is optional (run-bench builds it)
    const size = SIZES[model.name];
    const request = benchRequest(words, size.docs, 1);
    const planScores: Record<string, number[]> = {};
    const forms = FORM_MODELS.some((m) => m.name === model.name) ? FORM_VARIANTS.filter((v) => existsSync(path.join(folder, v.file))) : [];
    for (const variant of [...VARIANTS, ...forms]) {
      // Ours with the plan the service runs (chooseExecutionPlan), and the pre-plan path: one in-thread session, N intra-op threads.
      const planned = await loadOnnxCrossEncoder({ id: model.name, folder, modelFile: variant.file, threads, ...BATCH });
      const oneSession = await loadOnnxCrossEncoder({
        id: model.name,
        folder,
        modelFile: variant.file,
        threads,
        inWorkerThread: false,
        ...BATCH,
      });
      const info = await readModelFolder(folder, { modelFile: variant.file });
      const tokenizer = createPairTokenizer({ ...info, padTokenId: info.config.padTokenId });
      const warm = request.documents.slice(0, 8);
      await planned.score(request.query, warm);
      await oneSession.score(request.query, warm);
      const useSt = peers.st && variant.name === 'fp32';
      if (peers.ort) {
        await peers.client!.ask({ cmd: 'load', runtime: 'ort', folder, onnx: variant.file, threads, ...BATCH });
        await peers.client!.ask({ cmd: 'load', runtime: 'ortpar', folder, onnx: variant.file, threads, ...BATCH });
      }
      const useBf16 = useSt && peers.stBf16;
      if (useSt) await peers.client!.ask({ cmd: 'load', runtime: 'st', folder, threads, ...BATCH });
      if (useBf16) await peers.client!.ask({ cmd: 'load', runtime: 'stbf16', folder, threads, ...BATCH });
      const samples: Record<string, number[]> = {
        plan: [],
        one: [],
        tokenize: [],
        ort: [],
        ortpar: [],
        pyTokenize: [],
        st: [],
        stbf16: [],
      };
      let tokens = 0;
      let planResult: number[] = [];
      let oneResult: number[] = [];
      const checksums: Record<string, number> = {};
      const score = async (scorer: OnnxCrossEncoder): Promise<{ seconds: number; scores: number[]; tokens: number }> => {
        const run = await timed(() => scorer.score(request.query, request.documents));
        return { seconds: run.seconds, scores: run.value.scores, tokens: run.value.tokens };
      };
      for (let rep = 0; rep < size.reps; rep++) {
        const a = await score(planned);
        samples['plan']!.push(a.seconds);
        planResult = a.scores;
        tokens = a.tokens;
        const b = await score(oneSession);
        samples['one']!.push(b.seconds);
        oneResult = b.scores;
        samples['tokenize']!.push(
          (
            await timed(async () => {
              const q = tokenizer.pieces(request.query);
              return request.documents.map((d) => tokenizer.assemble(q, tokenizer.pieces(d)));
            })
          ).seconds,
        );
        if (peers.ort) {
          for (const runtime of ['ortpar', 'ort'] as const) {
            const r = await peers.client!.ask<{ seconds: number; tokenizeSeconds: number; checksum: number }>({
              cmd: 'run',
              runtime,
              ...request,
            });
            samples[runtime]!.push(r.seconds);
            if (runtime === 'ortpar') samples['pyTokenize']!.push(r.tokenizeSeconds);
            checksums[runtime] = r.checksum;
          }
        }
        if (useSt) {
          const r = await peers.client!.ask<{ seconds: number; checksum: number }>({ cmd: 'run', runtime: 'st', ...request });
          samples['st']!.push(r.seconds);
          checksums['st'] = r.checksum;
        }
        if (useBf16)
          samples['stbf16']!.push((await peers.client!.ask<{ seconds: number }>({ cmd: 'run', runtime: 'stbf16', ...request })).seconds);
      }
      await planned.close();
      await oneSession.close();
      planScores[variant.name] = planResult;
      const pps = (key: string): number | undefined =>
        samples[key]!.length === 0 ? undefined : request.documents.length / median(samples[key]!);
      const n = request.documents.length;
      const row: ThroughputRow = {
        threads,
        model: model.label,
        variant: variant.name,
        plan: `${planned.plan.inWorkerThreads ? `${planned.plan.workers} worker session(s)` : 'in-thread session'} x ${planned.plan.intraOpThreads} intra-op`,
        documents: n,
        meanTokens: tokens / n,
        reps: size.reps,
        ours: pps('plan')!,
        oursOneSession: pps('one')!,
        pythonOrtSessions: pps('ortpar'),
        pythonOrtOneSession: pps('ort'),
        crossEncoder: pps('st'),
        ...(useBf16 ? { crossEncoderBf16: pps('stbf16') } : {}),
        tokenizeShare: median(samples['tokenize']!) / median(samples['plan']!),
        pythonTokenizeShare: samples['pyTokenize']!.length > 0 ? median(samples['pyTokenize']!) / median(samples['ortpar']!) : undefined,
        maxScoreDeviation: Math.max(...planResult.map((s, i) => Math.abs(s - oneResult[i]!))),
        meanScore: {
          ours: planResult.reduce((x, y) => x + y, 0) / n,
          ort: checksums['ortpar'] === undefined ? undefined : checksums['ortpar'] / n,
          st: checksums['st'] === undefined ? undefined : checksums['st'] / n,
        },
      };
      rows.push(row);
      log(
        `${model.label} ${variant.name}: ours ${fmt(row.ours)} pairs/s (${row.plan}), one ${threads}-thread session ${fmt(row.oursOneSession)}, ` +
          `python ort sessions ${fmt(row.pythonOrtSessions)} / one session ${fmt(row.pythonOrtOneSession)}, CrossEncoder ${fmt(row.crossEncoder)}${useBf16 ? ` (bf16 ${fmt(row.crossEncoderBf16)})` : ''}; ` +
          `tokenization ${fmt(row.tokenizeShare * 100)}%; max |plan - one session| ${row.maxScoreDeviation.toExponential(1)}`,
      );
    }
    const rho = spearman(planScores['fp32']!, planScores['int8']!);
    const agreement = rankAgreement(planScores['fp32']!, planScores['int8']!);
    // The same recipe on the spread copy, same documents: less tie-prone, reported beside rho (not instead).
    const spread = (await spreadCopyAgreement(model.name, [VARIANTS[1].file], threads, request))?.[0];
    spearmanRows.push({
      model: model.label,
      documents: request.documents.length,
      rho,
      maxAbsDiffOverRange: agreement.maxAbsDiffOverRange,
      ...(spread === undefined ? {} : { spreadRho: spread.spearman, spreadMaxAbsDiffOverRange: spread.maxAbsDiffOverRange }),
    });
    log(
      `${model.label}: Spearman int8 vs fp32 ${rho.toFixed(4)} over ${request.documents.length} documents` +
        (spread === undefined ? ' (no spread copy)' : `; spread copy ${spread.spearman.toFixed(4)}`),
    );
  }
}

async function latency(words: string[], rows: LatencyRow[]): Promise<void> {
  const plan = [
    { model: MODELS[1], sizes: quick ? { 10: 5, 100: 2, 1000: 1 } : { 10: 15, 100: 5, 1000: 2 } },
    { model: MODELS[0], sizes: quick ? { 10: 3, 100: 1 } : { 10: 8, 100: 3, 1000: 1 } },
  ];
  for (const { model, sizes } of plan) {
    const folder = path.join(MODELS_DIR, model.name);
    const planned = await loadOnnxCrossEncoder({ id: model.name, folder, variant: 'int8', threads, ...BATCH });
    const oneSession = await loadOnnxCrossEncoder({ id: model.name, folder, variant: 'int8', threads, inWorkerThread: false, ...BATCH });
    await planned.smallRequestSessionReady(); // steady state: it loads in the background after the pool
    await planned.score('warm up', ['warm up document', 'another']);
    await oneSession.score('warm up', ['warm up document', 'another']);
    for (const [size, count] of Object.entries(sizes)) {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < count; i++) {
        const request = benchRequest(words, Number(size), 100 + i);
        a.push((await timed(() => planned.score(request.query, request.documents))).seconds * 1000);
        b.push((await timed(() => oneSession.score(request.query, request.documents))).seconds * 1000);
      }
      const row: LatencyRow = {
        threads,
        model: `${model.label} int8`,
        documents: Number(size),
        samples: count,
        oursP50Ms: percentile(a, 50),
        oursP95Ms: percentile(a, 95),
        oneSessionP50Ms: percentile(b, 50),
        oneSessionP95Ms: percentile(b, 95),
      };
      rows.push(row);
      log(`${row.model} ${size} docs: p50 ${fmt(row.oursP50Ms, 0)} ms (one session ${fmt(row.oneSessionP50Ms, 0)} ms), ${count} samples`);
    }
    await planned.close();
    await oneSession.close();
  }
}

async function main(): Promise<void> {
  if (out === undefined || !Number.isInteger(threads) || threads < 1)
    throw new Error('usage: bench-at-threads.ts --threads N --out FILE [--quick] [--extras]');
  if (!existsSync(path.join(MODELS_DIR, 'minilm-l6', 'onnx', 'model_quantized.onnx')))
    throw new Error('bench models missing: run `npm run bench` (it builds them)');
  const notes: string[] = [];
  const loadStart = loadavg();
  const peers = await startPeers(notes);
  const words = readWords(path.join(MODELS_DIR, 'minilm-l6', 'vocab.txt'));
  const run: ThreadRun = {
    threads,
    quick,
    versions: peers.versions,
    notes,
    loadAverageStart: loadStart,
    loadAverageEnd: loadStart,
    throughput: [],
    spearman: [],
    latency: [],
  };
  await throughput(peers, words, run.throughput, run.spearman);
  await peers.client?.close();
  await latency(words, run.latency);
  if (extras) run.extras = await measureExtras({ threads, quick, words, log });
  run.loadAverageEnd = loadavg();
  writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
}

await main();
