/**
 * The bench sections measured once per run (at the largest thread count): length-aware batching vs
 * padding, ONNX Runtime session options, quantization variants, cold start and concurrent requests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { readModelFolder } from '../../../shared/scoring/model-folder.js';
import { loadOnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { onnxSessionOptions } from '../../../shared/scoring/onnx-runtime/session-options.js';
import { createPairTokenizer, type EncodedPair } from '../../../shared/scoring/pair-tokenizer.js';
import { benchRequest, type BenchRequest } from './bench-documents.js';
import { BATCH, MODELS, MODELS_DIR, VARIANTS } from './bench-models.js';
import type { Extras, OptionRow, QuantizationRow } from './bench-results.js';
import { fmt, median, timed } from './bench-stats.js';
import { runPadded, type Padding } from './padded-baseline.js';
import { rankAgreement } from './rank-correlation.js';
import { spreadCopyAgreement } from './spread-copy-agreement.js';
import { concurrentLoad } from './worker-concurrency.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface ExtrasInput {
  readonly threads: number;
  readonly quick: boolean;
  readonly words: string[];
  readonly log: (line: string) => void;
}

async function tokenizedPairs(
  folder: string,
  file: string,
  request: BenchRequest,
): Promise<{ pairs: EncodedPair[]; onnxPath: string; maxLength: number }> {
  const info = await readModelFolder(folder, { modelFile: file });
  const tokenizer = createPairTokenizer({ ...info, padTokenId: info.config.padTokenId });
  const q = tokenizer.pieces(request.query);
  return {
    pairs: request.documents.map((d) => tokenizer.assemble(q, tokenizer.pieces(d))),
    onnxPath: info.onnxPath,
    maxLength: info.maxLength,
  };
}

async function padding(input: ExtrasInput, rows: Extras['padding']): Promise<void> {
  for (const model of MODELS) {
    // Padding to 512 is slow by design: a subset that still spans several token-budget batches.
    const { pairs, onnxPath, maxLength } = await tokenizedPairs(
      path.join(MODELS_DIR, model.name),
      VARIANTS[1].file,
      benchRequest(input.words, input.quick ? 24 : 64, 1),
    );
    const session = await ort.InferenceSession.create(onnxPath, onnxSessionOptions(input.threads));
    const strategies: { name: string; padding: Padding }[] = [
      { name: 'length-aware (sorted, per-batch padding, token budget)', padding: { kind: 'length-aware', ...BATCH } },
      {
        name: 'input order, padded to batch longest (CrossEncoder.predict)',
        padding: { kind: 'batch-longest', batchSize: BATCH.batchSize },
      },
      { name: 'input order, padded to max length 512', padding: { kind: 'max-length', maxLength, batchSize: BATCH.batchSize } },
    ];
    const samples = strategies.map(() => [] as number[]);
    const padded: number[] = [];
    await runPadded(session, pairs.slice(0, 8), strategies[0]!.padding);
    for (let rep = 0; rep < (input.quick ? 1 : 2); rep++) {
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
      rows.push({
        model: `${model.label} int8`,
        strategy: s.name,
        pairsPerSecond: pairs.length / seconds,
        paddedTokens: padded[i]!,
        speedupOfLengthAware: seconds / base,
      });
    });
    input.log(
      `${model.label} padding: ${rows
        .filter((r) => r.model.startsWith(model.label))
        .map((r) => `${fmt(r.speedupOfLengthAware, 2)}x`)
        .join(' / ')}`,
    );
  }
}

/**
 * Session options on raw sessions, sequential batches: first what each plan session runs (1 intra-op
 * thread) with one thing changed, then one N-thread session with the parallel-loop knobs the issue names.
 */
async function sessionOptions(input: ExtrasInput, rows: OptionRow[]): Promise<void> {
  const n = input.threads;
  const one = onnxSessionOptions(1);
  const many = onnxSessionOptions(n);
  const configs: { name: string; options: ort.InferenceSession.SessionOptions; batchSize?: number; base?: boolean }[] = [
    { name: "plan session: 1 intra-op thread, graph 'all', mem pattern off, batch 8", options: one, base: true },
    { name: "graph optimization 'extended'", options: { ...one, graphOptimizationLevel: 'extended' } },
    { name: "graph optimization 'basic'", options: { ...one, graphOptimizationLevel: 'basic' } },
    { name: 'graph optimization disabled', options: { ...one, graphOptimizationLevel: 'disabled' } },
    { name: 'mem pattern on', options: { ...one, enableMemPattern: true } },
    { name: 'batch size 4', options: one, batchSize: 4 },
    { name: 'batch size 16', options: one, batchSize: 16 },
    { name: 'batch size 32', options: one, batchSize: 32 },
    ...(n > 1
      ? [
          { name: `one session, ${n} intra-op threads (pre-plan default)`, options: many },
          {
            name: `one session, ${n} threads, spinning off`,
            options: { ...many, extra: { session: { intra_op: { allow_spinning: '0' } } } },
          },
          {
            name: `one session, ${n} threads, dynamic_block_base 4`,
            options: { ...many, extra: { session: { dynamic_block_base: '4' } } },
          },
        ]
      : []),
  ];
  for (const model of MODELS) {
    const request = benchRequest(input.words, model.name === 'minilm-l6' ? (input.quick ? 8 : 32) : input.quick ? 32 : 96, 3);
    const { pairs, onnxPath } = await tokenizedPairs(path.join(MODELS_DIR, model.name), VARIANTS[1].file, request);
    const samples = configs.map(() => [] as number[]);
    for (const [i, c] of configs.entries()) {
      // One session at a time: every config gets the same CPUs.
      const session = await ort.InferenceSession.create(onnxPath, c.options);
      const paddingFor: Padding = { kind: 'length-aware', maxBatchTokens: BATCH.maxBatchTokens, batchSize: c.batchSize ?? BATCH.batchSize };
      await runPadded(session, pairs.slice(0, 4), paddingFor);
      for (let rep = 0; rep < (input.quick ? 1 : 2); rep++)
        samples[i]!.push((await timed(() => runPadded(session, pairs, paddingFor))).seconds);
      await session.release();
    }
    const base = median(samples[0]!);
    configs.forEach((c, i) => {
      const seconds = median(samples[i]!);
      rows.push({ model: `${model.label} int8`, config: c.name, pairsPerSecond: pairs.length / seconds, relative: base / seconds });
    });
    input.log(
      `${model.label} session options: ${rows
        .filter((r) => r.model.startsWith(model.label))
        .map((r) => `${r.config} ${fmt(r.relative, 2)}x`)
        .join('; ')}`,
    );
  }
}

/** What each variant file is: onnx/variants/variants.json, written by scripts/measure/scoring/quantize-variants.py. */
function variantFiles(folder: string): { variant: string; file: string; description: string }[] {
  const manifest = path.join(folder, 'onnx', 'variants', 'variants.json');
  const described = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { shipped?: string; variants?: Record<string, string> })
    : {};
  return [
    { variant: 'fp32', file: 'onnx/model.onnx', description: 'fp32 (reference)' },
    { variant: 'int8', file: 'onnx/model_quantized.onnx', description: `shipped model_quantized.onnx: ${described.shipped ?? 'int8'}` },
    ...Object.entries(described.variants ?? {})
      .filter(([name]) => existsSync(path.join(folder, 'onnx', 'variants', `${name}.onnx`)))
      .map(([name, what]) => ({ variant: name, file: `onnx/variants/${name}.onnx`, description: what })),
  ];
}

/** Quantized variants built by scripts/measure/scoring/quantize-variants.py into onnx/variants/ (only fp32 and int8 when absent). */
async function quantization(input: ExtrasInput, rows: QuantizationRow[]): Promise<void> {
  for (const model of MODELS) {
    const folder = path.join(MODELS_DIR, model.name);
    const files = variantFiles(folder);
    const request = benchRequest(input.words, model.name === 'minilm-l6' ? (input.quick ? 16 : 48) : input.quick ? 64 : 192, 11);
    // Speed samples interleave the variants repetition by repetition (the machine is shared), ratios per repetition.
    const scorers = [];
    for (const v of files) {
      const scorer = await loadOnnxCrossEncoder({ id: v.variant, folder, modelFile: v.file, threads: input.threads, ...BATCH });
      await scorer.score(request.query, request.documents.slice(0, 4));
      scorers.push(scorer);
    }
    const seconds: number[][] = files.map(() => []);
    const scores: number[][] = files.map(() => []);
    for (let rep = 0; rep < (input.quick ? 2 : 3); rep++) {
      for (const [i, scorer] of scorers.entries()) {
        const run = await timed(() => scorer.score(request.query, request.documents));
        seconds[i]!.push(run.seconds);
        scores[i] = run.value.scores;
      }
    }
    await Promise.all(scorers.map((s) => s.close()));
    const spread = await spreadCopyAgreement(
      model.name,
      files.map((f) => f.file),
      input.threads,
      request,
    );
    files.forEach((v, i) => {
      const agreement = rankAgreement(scores[0]!, scores[i]!);
      rows.push({
        model: model.label,
        variant: v.variant,
        description: v.description,
        megabytes: statSync(path.join(folder, v.file)).size / 2 ** 20,
        pairsPerSecond: request.documents.length / median(seconds[i]!),
        relativeToFp32: median(seconds[0]!.map((fp32, rep) => fp32 / seconds[i]![rep]!)),
        spearmanVsFp32: agreement.spearman,
        maxAbsDiffVsFp32: agreement.maxAbsDiff,
        maxAbsDiffOverRange: agreement.maxAbsDiffOverRange,
        ...(spread?.[i] === undefined ? {} : { spreadSpearmanVsFp32: spread[i].spearman }),
      });
      const row = rows[rows.length - 1]!;
      input.log(
        `${model.label} ${v.variant}: ${fmt(row.pairsPerSecond)} pairs/s (${fmt(row.relativeToFp32, 2)}x fp32), Spearman ${row.spearmanVsFp32.toFixed(4)}` +
          (row.spreadSpearmanVsFp32 === undefined ? '' : `, spread copy ${row.spreadSpearmanVsFp32.toFixed(4)}`),
      );
    });
  }
}

async function coldStart(input: ExtrasInput, rows: Extras['coldStart']): Promise<void> {
  for (const model of MODELS) {
    for (const variant of VARIANTS) {
      const runs: { importMs: number; loadMs: number; firstScoreMs: number }[] = [];
      for (let i = 0; i < (input.quick ? 1 : 3); i++) {
        const out = execFileSync(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(ROOT, 'scripts/measure/scoring/cold-start-probe.ts'),
            path.join(MODELS_DIR, model.name),
            variant.file,
            String(input.threads),
          ],
          { encoding: 'utf8' },
        );
        runs.push(JSON.parse(out.trim().split('\n').pop()!));
      }
      const row = {
        model: `${model.label} ${variant.name}`,
        runs: runs.length,
        importMs: median(runs.map((r) => r.importMs)),
        loadMs: median(runs.map((r) => r.loadMs)),
        firstScoreMs: median(runs.map((r) => r.firstScoreMs)),
      };
      rows.push(row);
      input.log(
        `${row.model} cold start: import ${fmt(row.importMs, 0)} ms, load ${fmt(row.loadMs, 0)} ms, first request ${fmt(row.firstScoreMs, 0)} ms`,
      );
    }
  }
}

async function concurrency(input: ExtrasInput, rows: Extras['concurrency']): Promise<void> {
  const model = MODELS[1];
  const large = benchRequest(input.words, 200, 7);
  const small = benchRequest(input.words, 10, 8);
  const n = input.threads;
  const setups = [
    { name: `in-thread (${n} intra-op threads)`, options: { threads: n, inWorkerThread: false } },
    { name: `1 worker thread x ${n} intra-op threads`, options: { threads: n, inWorkerThread: true, workers: 1 } },
    ...(n > 1 ? [{ name: `${n} worker threads x 1 intra-op thread (the plan)`, options: { threads: n } }] : []),
  ];
  for (const setup of setups) {
    const scorer = await loadOnnxCrossEncoder({
      id: 'c',
      folder: path.join(MODELS_DIR, model.name),
      variant: 'int8',
      ...BATCH,
      ...setup.options,
    });
    await scorer.score(small.query, small.documents);
    const alone: number[] = [];
    for (let i = 0; i < (input.quick ? 5 : 15); i++)
      alone.push((await timed(() => scorer.score(small.query, small.documents))).seconds * 1000);
    const load = await concurrentLoad(scorer, large, small, input.quick ? 3 : 8);
    await scorer.close();
    rows.push({ setup: setup.name, model: `${model.label} int8`, aloneP50Ms: median(alone), ...load });
    input.log(
      `${setup.name}: 10 docs alone ${fmt(median(alone), 1)} ms, under load p50 ${fmt(load.smallP50Ms, 0)} ms, ${fmt(load.pairsPerSecond, 0)} pairs/s`,
    );
  }
}

export async function measureExtras(input: ExtrasInput): Promise<Extras> {
  const extras: Extras = { threads: input.threads, padding: [], sessionOptions: [], quantization: [], coldStart: [], concurrency: [] };
  await sessionOptions(input, extras.sessionOptions);
  await quantization(input, extras.quantization);
  await padding(input, extras.padding);
  await coldStart(input, extras.coldStart);
  await concurrency(input, extras.concurrency);
  return extras;
}
