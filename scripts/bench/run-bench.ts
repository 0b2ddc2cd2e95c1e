/**
 * `npm run bench [-- --quick]`: measures the ONNX cross-encoder scorer and its Python peers in one run, on the
 * same machine, graphs and inputs; prints figures and writes bench/report.md + bench/throughput.svg
 * (raw numbers: bench/out/results.json). Not part of `npm test`: it takes minutes and its numbers are noisy.
 *
 * Models: random-weight BERT cross-encoders with the exact shapes of ms-marco-MiniLM-L-6-v2 and
 * ms-marco-TinyBERT-L-2-v2 (scripts/model/build-random-shapes.py, built on first run into bench/.models/).
 * Env: BENCH_PYTHON (default /tmp/mlvenv/bin/python if present, else python3), BENCH_THREADS (default: all CPUs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { readModelFolder } from '../../shared/scoring/model-folder.js';
import { crossEncoderSessionOptions, loadOnnxCrossEncoder } from '../../shared/scoring/onnx-cross-encoder.js';
import { createPairTokenizer } from '../../shared/scoring/pair-tokenizer.js';
import { benchRequest, readWords, type BenchRequest } from './bench-documents.js';
import { fmt, median, percentile, timed } from './bench-stats.js';
import { runPadded, type Padding } from './padded-baseline.js';
import { benchPython, PythonPeerClient } from './python-peer-client.js';
import { writeReport, type BenchResults, type ThroughputRow } from './report-writer.js';
import { concurrentLoad } from './worker-concurrency.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODELS_DIR = path.join(ROOT, 'bench', '.models');
const quick = process.argv.includes('--quick');
const threads = Number(process.env['BENCH_THREADS'] ?? availableParallelism());
const BATCH = { batchSize: 8, maxBatchTokens: 8 * 512 };

const MODELS = [
  { name: 'minilm-l6', label: 'MiniLM-L6', docs: quick ? 24 : 96, reps: quick ? 2 : 3 },
  { name: 'tinybert-l2', label: 'TinyBERT-L2', docs: quick ? 64 : 256, reps: quick ? 2 : 3 },
] as const;
const VARIANTS = [
  { name: 'fp32', file: 'onnx/model.onnx' },
  { name: 'int8', file: 'onnx/model_quantized.onnx' },
] as const;

function log(line: string): void {
  console.log(line);
}

function ensureModels(python: string): string | undefined {
  const missing = MODELS.filter((m) => !existsSync(path.join(MODELS_DIR, m.name, 'onnx', 'model_quantized.onnx')));
  if (missing.length === 0) return undefined;
  log(`building random-weight models (${missing.map((m) => m.name).join(', ')}) with ${python} ...`);
  const built = spawnSync(python, [path.join(ROOT, 'scripts/model/build-random-shapes.py'), '--out', MODELS_DIR], { stdio: 'inherit' });
  return built.status === 0 ? undefined : `could not build bench models with ${python} (exit ${built.status})`;
}

async function startPeers(python: string): Promise<{ client?: PythonPeerClient; versions: Record<string, string | null>; note?: string }> {
  try {
    const client = PythonPeerClient.start(python, path.join(ROOT, 'scripts/bench/python-peers.py'));
    const hello = await client.ask<{ versions: Record<string, string | null> }>({ cmd: 'hello' });
    return { client, versions: hello.versions };
  } catch (error) {
    return { versions: {}, note: `Python peers unavailable (${python}): ${(error as Error).message}` };
  }
}

async function main(): Promise<void> {
  const python = benchPython();
  const buildProblem = ensureModels(python);
  if (buildProblem !== undefined) throw new Error(`${buildProblem}; run scripts/model/build-random-shapes.py with a Python that has torch + transformers`);
  mkdirSync(path.join(ROOT, 'bench', 'out'), { recursive: true });
  const peers = await startPeers(python);
  const notes: string[] = peers.note === undefined ? [] : [peers.note];
  const ortPeer = peers.versions['onnxruntime'] !== null && peers.versions['onnxruntime'] !== undefined && peers.client !== undefined;
  const stPeer = peers.versions['sentence_transformers'] !== null && peers.versions['sentence_transformers'] !== undefined && ortPeer;
  if (peers.client !== undefined && !ortPeer) notes.push(`Python onnxruntime not importable with ${python}: ${String(peers.versions['onnxruntime_error'])}`);
  if (peers.client !== undefined && !stPeer) {
    notes.push(`sentence-transformers not importable with ${python}: ${String(peers.versions['sentence_transformers_error'])}`);
  }
  const results: BenchResults = {
    quick,
    machine: { cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`, memoryGb: totalmem() / 2 ** 30, node: process.version, threads },
    versions: { onnxruntimeNode: ort.env.versions.common, ...peers.versions },
    notes,
    throughput: [],
    padding: [],
    sessionOptions: [],
    latency: [],
    coldStart: [],
    concurrency: [],
  };
  const words = readWords(path.join(MODELS_DIR, 'minilm-l6', 'vocab.txt'));

  // 1. Throughput: ours vs Python onnxruntime vs CrossEncoder, interleaved rep by rep so machine noise hits all alike.
  for (const model of MODELS) {
    const folder = path.join(MODELS_DIR, model.name);
    const request = benchRequest(words, model.docs, 1);
    for (const variant of VARIANTS) {
      const scorer = await loadOnnxCrossEncoder({ id: model.name, folder, modelFile: variant.file, threads, ...BATCH });
      const folderInfo = await readModelFolder(folder, { modelFile: variant.file });
      const tokenizer = createPairTokenizer({ ...folderInfo, padTokenId: folderInfo.config.padTokenId });
      await scorer.score(request.query, request.documents.slice(0, 8)); // warm-up
      const useSt = stPeer && variant.name === 'fp32';
      if (ortPeer) await peers.client!.ask({ cmd: 'load', runtime: 'ort', folder, onnx: variant.file, threads, ...BATCH });
      if (useSt) await peers.client!.ask({ cmd: 'load', runtime: 'st', folder, threads, ...BATCH });
      const ours: number[] = [];
      const tokenize: number[] = [];
      const pyOrt: number[] = [];
      const pyTokenize: number[] = [];
      const st: number[] = [];
      let tokens = 0;
      const checksums: Record<string, number> = {};
      for (let rep = 0; rep < model.reps; rep++) {
        const run = await timed(() => scorer.score(request.query, request.documents));
        ours.push(run.seconds);
        tokens = run.value.tokens;
        checksums['ours'] = run.value.scores.reduce((a, b) => a + b, 0);
        tokenize.push(
          (await timed(async () => {
            const q = tokenizer.pieces(request.query);
            return request.documents.map((d) => tokenizer.assemble(q, tokenizer.pieces(d)));
          })).seconds,
        );
        if (ortPeer) {
          const r = await peers.client!.ask<{ seconds: number; tokenizeSeconds: number; checksum: number }>({ cmd: 'run', runtime: 'ort', ...request });
          pyOrt.push(r.seconds);
          pyTokenize.push(r.tokenizeSeconds);
          checksums['ort'] = r.checksum;
        }
        if (useSt) {
          const r = await peers.client!.ask<{ seconds: number; checksum: number }>({ cmd: 'run', runtime: 'st', ...request });
          st.push(r.seconds);
          checksums['st'] = r.checksum;
        }
      }
      await scorer.close();
      const pps = (samples: number[]): number | undefined => (samples.length === 0 ? undefined : request.documents.length / median(samples));
      const row: ThroughputRow = {
        model: model.label,
        variant: variant.name,
        documents: request.documents.length,
        meanTokens: tokens / request.documents.length,
        reps: model.reps,
        oursPairsPerSecond: pps(ours)!,
        pythonOrtPairsPerSecond: pps(pyOrt),
        crossEncoderPairsPerSecond: pps(st),
        tokenizeShare: median(tokenize) / median(ours),
        pythonTokenizeShare: pyOrt.length > 0 ? median(pyTokenize) / median(pyOrt) : undefined,
        meanScore: { ours: checksums['ours']! / request.documents.length, ort: mean(checksums['ort'], request), st: mean(checksums['st'], request) },
      };
      results.throughput.push(row);
      log(
        `${model.label} ${variant.name}: ours ${fmt(row.oursPairsPerSecond)} pairs/s, python ort ${fmt(row.pythonOrtPairsPerSecond)}, ` +
          `CrossEncoder ${fmt(row.crossEncoderPairsPerSecond)}; tokenization ${fmt(row.tokenizeShare * 100)}% (${request.documents.length} docs, ` +
          `mean ${fmt(row.meanTokens, 0)} tokens, median of ${model.reps})`,
      );
    }
  }
  await peers.client?.close();

  // 2. Length-aware batching vs padding, and session options, on one raw session per model (int8).
  for (const model of MODELS) {
    const folder = path.join(MODELS_DIR, model.name);
    const variant = VARIANTS[1];
    const request = benchRequest(words, model.docs, 1);
    const info = await readModelFolder(folder, { modelFile: variant.file });
    const tokenizer = createPairTokenizer({ ...info, padTokenId: info.config.padTokenId });
    const q = tokenizer.pieces(request.query);
    // Padding to 512 is slow by design: compare on a subset so the bench stays minutes long. It must span
    // several token-budget batches (4,096 / 512 = 8 rows), or every strategy pads one batch to 512 alike.
    const pairs = benchRequest(words, 64, 1).documents.map((d) => tokenizer.assemble(q, tokenizer.pieces(d)));
    const session = await ort.InferenceSession.create(info.onnxPath, crossEncoderSessionOptions(threads));
    const strategies: { name: string; padding: Padding }[] = [
      { name: 'length-aware (sorted, per-batch padding, token budget)', padding: { kind: 'length-aware', ...BATCH } },
      { name: 'input order, padded to batch longest (CrossEncoder.predict)', padding: { kind: 'batch-longest', batchSize: BATCH.batchSize } },
      { name: 'input order, padded to max length 512', padding: { kind: 'max-length', maxLength: info.maxLength, batchSize: BATCH.batchSize } },
    ];
    const samples = strategies.map(() => [] as number[]);
    const padded: number[] = [];
    await runPadded(session, pairs.slice(0, 8), strategies[0]!.padding);
    for (let rep = 0; rep < (quick ? 1 : 2); rep++) {
      for (const [i, s] of strategies.entries()) {
        const run = await timed(() => runPadded(session, pairs, s.padding));
        samples[i]!.push(run.seconds);
        padded[i] = run.value.paddedTokens;
      }
    }
    await session.release();
    const base = median(samples[0]!);
    strategies.forEach((s, i) => {
      const seconds = median(samples[i]!);
      results.padding.push({ model: `${model.label} int8`, strategy: s.name, pairsPerSecond: pairs.length / seconds, paddedTokens: padded[i]!, speedupOfLengthAware: seconds / base });
      log(`${model.label} int8 ${s.name}: ${fmt(pairs.length / seconds)} pairs/s, ${padded[i]} padded tokens, length-aware is ${fmt(seconds / base, 2)}x faster`);
    });

    const chosenOptions = crossEncoderSessionOptions(threads);
    const configs: { name: string; options: ort.InferenceSession.SessionOptions; batchSize?: number }[] = [
      { name: `chosen: ${threads} intra-op threads, sequential, graph 'all', mem pattern off, batch 8`, options: chosenOptions },
      { name: "graph optimization 'basic'", options: { ...chosenOptions, graphOptimizationLevel: 'basic' } },
      { name: 'mem pattern on', options: { ...chosenOptions, enableMemPattern: true } },
      { name: 'intra-op spinning off', options: { ...chosenOptions, extra: { session: { intra_op: { allow_spinning: '0' } } } } },
      ...(threads > 1 ? [{ name: '1 intra-op thread', options: crossEncoderSessionOptions(1) }] : []),
      { name: 'batch size 32', options: chosenOptions, batchSize: 32 },
      { name: 'batch size 64', options: chosenOptions, batchSize: 64 },
    ];
    const subset = pairs.slice(0, model.name === 'minilm-l6' ? (quick ? 12 : 32) : quick ? 32 : 96);
    const sessions = await Promise.all(configs.map((c) => ort.InferenceSession.create(info.onnxPath, c.options)));
    const optionSamples = configs.map(() => [] as number[]);
    const paddingFor = (i: number): Padding => ({ kind: 'length-aware', maxBatchTokens: BATCH.maxBatchTokens, batchSize: configs[i]!.batchSize ?? BATCH.batchSize });
    for (const [i, s] of sessions.entries()) await runPadded(s, subset.slice(0, 4), paddingFor(i));
    for (let rep = 0; rep < 2; rep++) {
      for (const [i, s] of sessions.entries()) optionSamples[i]!.push((await timed(() => runPadded(s, subset, paddingFor(i)))).seconds);
    }
    await Promise.all(sessions.map((s) => s.release()));
    const chosen = median(optionSamples[0]!);
    configs.forEach((c, i) => {
      const seconds = median(optionSamples[i]!);
      results.sessionOptions.push({ model: `${model.label} int8`, config: c.name, pairsPerSecond: subset.length / seconds, relativeToChosen: chosen / seconds });
    });
    log(`${model.label} int8 session options: ${results.sessionOptions.filter((r) => r.model.startsWith(model.label)).map((r) => `${r.config} ${fmt(r.relativeToChosen, 2)}x`).join('; ')}`);
  }

  // 3. Latency p50/p95 at 10, 100, 1,000 documents (int8, the variants a sync API would serve).
  const latencyPlan = [
    { model: MODELS[1], sizes: quick ? { 10: 8, 100: 3, 1000: 1 } : { 10: 20, 100: 8, 1000: 3 } },
    { model: MODELS[0], sizes: quick ? { 10: 5, 100: 2 } : { 10: 10, 100: 3, 1000: 1 } },
  ];
  for (const plan of latencyPlan) {
    const scorer = await loadOnnxCrossEncoder({ id: plan.model.name, folder: path.join(MODELS_DIR, plan.model.name), variant: 'int8', threads, ...BATCH });
    await scorer.score('warm up', ['warm up document']);
    for (const [size, count] of Object.entries(plan.sizes)) {
      const ms: number[] = [];
      for (let i = 0; i < count; i++) {
        const request = benchRequest(words, Number(size), 100 + i);
        ms.push((await timed(() => scorer.score(request.query, request.documents))).seconds * 1000);
      }
      results.latency.push({ model: `${plan.model.label} int8`, documents: Number(size), samples: count, p50Ms: percentile(ms, 50), p95Ms: percentile(ms, 95) });
      log(`${plan.model.label} int8 latency ${size} docs: p50 ${fmt(percentile(ms, 50), 0)} ms, p95 ${fmt(percentile(ms, 95), 0)} ms (${count} samples)`);
    }
    await scorer.close();
  }

  // 4. Cold start in fresh processes.
  for (const model of MODELS) {
    for (const variant of VARIANTS) {
      const runs: { importMs: number; loadMs: number; firstScoreMs: number }[] = [];
      for (let i = 0; i < (quick ? 1 : 3); i++) {
        const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/cold-start-probe.ts'), path.join(MODELS_DIR, model.name), variant.file, String(threads)], { encoding: 'utf8' });
        runs.push(JSON.parse(out.trim().split('\n').pop()!));
      }
      const row = {
        model: `${model.label} ${variant.name}`,
        runs: runs.length,
        importMs: median(runs.map((r) => r.importMs)),
        loadMs: median(runs.map((r) => r.loadMs)),
        firstScoreMs: median(runs.map((r) => r.firstScoreMs)),
      };
      results.coldStart.push(row);
      log(`${row.model} cold start: import ${fmt(row.importMs, 0)} ms, load ${fmt(row.loadMs, 0)} ms, first 10-doc request ${fmt(row.firstScoreMs, 0)} ms`);
    }
  }

  // 5. Worker-thread inference under concurrent requests (local server).
  const concurrencyModel = MODELS[1];
  const large: BenchRequest = benchRequest(words, 200, 7);
  const small: BenchRequest = benchRequest(words, 10, 8);
  const setups = [
    { name: `in-thread (${threads} intra-op threads)`, options: { threads } },
    { name: `1 worker thread x ${threads} intra-op threads`, options: { threads, inWorkerThread: true, workers: 1 } },
    ...(threads > 1 ? [{ name: `${threads} worker threads x 1 intra-op thread`, options: { threads: 1, inWorkerThread: true, workers: threads } }] : []),
  ];
  for (const setup of setups) {
    const scorer = await loadOnnxCrossEncoder({ id: 'c', folder: path.join(MODELS_DIR, concurrencyModel.name), variant: 'int8', ...BATCH, ...setup.options });
    await scorer.score(small.query, small.documents);
    const alone: number[] = [];
    for (let i = 0; i < (quick ? 5 : 15); i++) alone.push((await timed(() => scorer.score(small.query, small.documents))).seconds * 1000);
    const load = await concurrentLoad(scorer, large, small, quick ? 4 : 8);
    await scorer.close();
    results.concurrency.push({ setup: setup.name, model: `${concurrencyModel.label} int8`, aloneP50Ms: median(alone), ...load });
    log(
      `${setup.name}: 10-doc alone p50 ${fmt(median(alone), 1)} ms; under load p50 ${fmt(load.smallP50Ms, 0)} / p95 ${fmt(load.smallP95Ms, 0)} ms, ` +
        `event-loop delay p99 ${fmt(load.eventLoopDelayP99Ms, 0)} ms, ${fmt(load.pairsPerSecond, 0)} pairs/s`,
    );
  }

  writeFileSync(path.join(ROOT, 'bench', 'out', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const written = writeReport(results, path.join(ROOT, 'bench'));
  log(`wrote ${written.join(', ')}`);
}

function mean(checksum: number | undefined, request: BenchRequest): number | undefined {
  return checksum === undefined ? undefined : checksum / request.documents.length;
}

await main();
