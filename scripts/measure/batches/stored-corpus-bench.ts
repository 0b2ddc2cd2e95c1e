import { loadavg } from 'node:os';
import { join } from 'node:path';
import { forEachBounded } from '../../../shared/core/for-each-bounded.js';
import { groupLinesFor } from '../../../shared/batches/corpus-line-groups.js';
import { batchTaskRunners } from '../../../shared/runtime/batch-runtime.js';
import { performance } from 'node:perf_hooks';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { planCorpusChunks } from '../../../shared/batches/corpus-chunks.js';
import { queryStoredCorpus } from '../../../shared/batches/corpus-query.js';
import { CorpusShardStore } from '../../../shared/batches/corpus-shards.js';
import { DEFAULT_MODEL_ID, FIXTURE_MODEL_ID, loadServiceConfig } from '../../../shared/config/service-config.js';
import type { OnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { loadScorers } from '../../../shared/runtime/load-scorers.js';
import type { BenchFolderFileStore } from './bench-folder-file-store.js';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import type { Scorer } from '../../../shared/core/scorer.js';

/** What the scenario borrows from batch-bench-scenarios.ts (handed in, so the two files do not import each other). */
export interface BenchHelpers {
  readonly documentText: (i: number) => string;
  readonly queryText: (i: number) => string;
  readonly writeLines: (path: string, count: number, line: (i: number) => string) => Promise<void>;
  readonly engineOver: (scorers: readonly Scorer[], files: BenchFolderFileStore) => BatchEngine;
  readonly runBatch: (
    engine: BatchEngine,
    inputFileId: string,
    pairs: number,
    shape: string,
  ) => Promise<{ totalMs: number; status?: string }>;
}

/** The scenario's result as the bench's ScenarioResult carries it. */
export interface StoredCorpusResult {
  readonly shape: string;
  readonly totalMs: number;
  readonly peakRssKb: number;
  readonly status: string;
  readonly stored: StoredCorpusFigures;
}

/** The bench's stored-corpus section of bench/batch-report.md (replaced on every run of the scenario). */
export function storedCorpusReport(
  result: Pick<StoredCorpusResult, 'peakRssKb'> & { readonly stored?: StoredCorpusFigures },
  machine: string,
): string[] {
  const f = result.stored!;
  const s = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);
  const rate = f.documents / (f.analysisMs / 1000);
  const encoderRate = f.encoderDocuments / (f.encoderMs / 1000);
  const perLineMs = f.manyLinesMs / f.lines;
  const perQueryGroupMs = f.groupMs / f.lines;
  const million = 1_000_000 / f.documents;
  // At a million documents a group holds fewer lines (its recorded scores are bounded), so a 1,000-line batch reads
  // every shard more often: each extra pass costs about one line's time there (a line is one pass over every shard).
  const passes = (groupLines: number) => Math.ceil(1_000 / groupLines);
  const thousandAtMillionMs = (perLineMs * 1_000 + (passes(f.groupLinesAtMillion) - passes(f.groupLines)) * f.oneLineMs) * million;
  return [
    STORED_CORPUS_HEADING,
    '',
    `Machine: ${machine}; 1-minute load ${f.load[0].toFixed(1)} at the scenario's start, ${f.load[1].toFixed(1)} at its end. Default model (use-lite-bm25: USE-lite fp32`,
    `embeddings + BM25 term counts stored per shard), one corpus of ${f.documents.toLocaleString('en-US')} short documents (12-40 words), engine as above (in-process`,
    'queue, files on disk); one process, run under `nice -n 10`, peak RSS its maxRSS.',
    '',
    '| phase | figure |',
    '| --- | --- |',
    `| the encoder alone, warm (same model, ${f.encoderDocuments.toLocaleString('en-US')} documents of the same kind in shard-sized chunks, the engine's runners at once) | ${s(f.encoderMs)} = **${encoderRate.toFixed(0)} documents/s** |`,
    `| analysis (first one-line batch: every document encoded once, ${f.shards} shards stored) | ${s(f.analysisMs)} = **${rate.toFixed(0)} documents/s** (${((100 * rate) / encoderRate).toFixed(0)}% of the encoder's rate); ${f.documentsEncoded.toLocaleString('en-US')} documents encoded |`,
    `| stored size | ${(f.storedBytesPerDocument / 1024).toFixed(2)} KiB per document (512 fp32 + term counts) = ${((f.storedBytesPerDocument * 1_000_000) / 2 ** 30).toFixed(1)} GiB per million |`,
    `| one-line batch over the analysed corpus, create to completed (median of ${f.oneLineRuns.length}: ${f.oneLineRuns.map((ms) => ms.toFixed(0)).join(', ')} ms) | **${s(f.oneLineMs)}** |`,
    `| ${f.lines}-line batch over it, create to completed (lines grouped ${f.groupLines} at a time: one task per shard for a group) | **${s(f.manyLinesMs)}** (${perLineMs.toFixed(1)} ms a line) |`,
    `| the same ${f.lines} queries as one bare group pass (queryStoredCorpus: each shard read once for all, no engine) | ${s(f.groupMs)} (${perQueryGroupMs.toFixed(1)} ms a query) |`,
    `| texts the bi-encoder encoded after the analysis | ${f.encodedAfterAnalysis} (the ${f.queryLines} lines' queries, each at most once: ${f.encodedAfterAnalysis <= f.queryLines ? 'no document encoded again' : 'MORE: documents were encoded again'}) |`,
    `| peak RSS | ${Math.round(result.peakRssKb / 1024)} MB |`,
    '',
    `Extrapolated to 1,000,000 documents on this machine (linear in documents; x${million.toFixed(0)}): analysis ${(1_000_000 / rate / 60).toFixed(0)} min (the encoder alone`,
    `${(1_000_000 / encoderRate / 60).toFixed(0)} min); one line ${s(f.oneLineMs * million)}; 1,000 lines ${(thousandAtMillionMs / 60_000).toFixed(0)} min (groups of ${f.groupLinesAtMillion} there, so ${passes(f.groupLinesAtMillion)} passes over the shards`,
    `instead of ${passes(f.groupLines)}: each extra pass counted at one line's time); stored analysis ${((f.storedBytesPerDocument * 1_000_000) / 2 ** 30).toFixed(1)} GiB. Peak RSS: one shard per task, a`,
    `bounded shard cache, and a group's recorded scores bounded (16M scores, ~128 MB, whatever the corpus).`,
    '',
  ];
}

export const STORED_CORPUS_HEADING = '## Stored corpus analysis (`npm run bench:batch -- --only stored-corpus-default`)';

/** What the stored-corpus scenario measures, phase by phase, in one process over one corpus. */
export interface StoredCorpusFigures {
  readonly documents: number;
  readonly lines: number;
  /** A first one-line batch over the corpus: the analysis (every document encoded once) plus that line. */
  readonly analysisMs: number;
  readonly documentsEncoded: number;
  /** The bi-encoder alone encoding `encoderDocuments` of the same kind of documents, with the engine's runners' concurrency. */
  readonly encoderMs: number;
  readonly encoderDocuments: number;
  /** One-line batches over the analysed corpus, from create to completed (each its own query): their median, and each. */
  readonly oneLineMs: number;
  readonly oneLineRuns: readonly number[];
  /** Lines a group holds over this corpus (one task per shard for the group), and at a million documents. */
  readonly groupLines: number;
  readonly groupLinesAtMillion: number;
  /** The 1-minute load average at the start and the end of the scenario (the machine is shared). */
  readonly load: readonly [number, number];
  /** A `lines`-line batch over it, from create to completed (its lines grouped: each shard read once per group). */
  readonly manyLinesMs: number;
  /** The same queries as one group (queryStoredCorpus: one pass per shard for all of them), for comparison. */
  readonly groupMs: number;
  /** Texts encoded after the analysis, and the lines run since (each line's query is encoded at most once: no document again). */
  readonly encodedAfterAnalysis: number;
  readonly queryLines: number;
  readonly shards: number;
  readonly storedBytesPerDocument: number;
}

const OWNER = 'bench';
/** One-line batches timed after the analysis (each its own query): the report gives their median. */
const ONE_LINE_RUNS = 5;

/**
 * The default model (use-lite-bm25) over one corpus of `50,000 / scale` short documents: analysis, then a one-line
 * batch from create, then a `1,000 / scale`-line batch, then the same queries as one group pass. The bi-encoder's
 * counter says how many documents were encoded after the analysis (none, if the stored shards are used).
 */
export async function storedCorpusScenario(
  files: BenchFolderFileStore,
  scratch: string,
  scale: number,
  helpers: BenchHelpers,
): Promise<StoredCorpusResult> {
  const { documentText, queryText, writeLines, engineOver, runBatch } = helpers;
  const documents = Math.round(Number(process.env['BENCH_STORED_DOCUMENTS'] ?? 50_000) / scale);
  const lines = Math.round(Number(process.env['BENCH_STORED_LINES'] ?? 1_000) / scale);
  const workers = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
  const config = loadServiceConfig({ RERANK_MODELS: '' });
  const scorers = await loadScorers(
    config.models.filter((m) => m.id !== FIXTURE_MODEL_ID),
    workers,
  );
  const biEncoder = scorers.find((s) => s.id === 'use-lite') as OnnxBiEncoder;
  const hybrid = scorers.find((s) => s.id === DEFAULT_MODEL_ID)!;
  try {
    const corpusPath = join(scratch, 'corpus.jsonl');
    await writeLines(corpusPath, documents, (i) => JSON.stringify(`${documentText(i)} item ${i}`));
    const corpus = files.adopt(corpusPath, OWNER, 'user_data');
    const input = async (name: string, count: number, first: number) => {
      const path = join(scratch, `${name}.jsonl`);
      await writeLines(path, count, (q) =>
        JSON.stringify({
          custom_id: `q${q}`,
          method: 'POST',
          url: '/v1/rerank',
          body: { model: DEFAULT_MODEL_ID, query: queryText(first + q), documents_file_id: corpus.id, top_n: 10 },
        }),
      );
      return files.adopt(path, OWNER, 'batch');
    };
    const engine = engineOver(scorers, files);
    const encodedAt = () => biEncoder.embeddingStats.encoded;

    const loadAtStart = loadavg()[0]!;
    const start = encodedAt();
    const analysis = await runBatch(engine, (await input('analyse', 1, 0)).id, documents, `1 x ${documents}`);
    const documentsEncoded = encodedAt() - start - 1;
    // The encoder's own rate on this machine, warm (after the analysis): the same model on documents of the same kind
    // (not in the corpus), in chunks of the corpus' own shard size, four per runner as the engine's runners take
    // them - what "analysis in about its encoding time" is measured against.
    const runners = batchTaskRunners(workers);
    const shardOf = Math.round(documents / (await planCorpusChunks(files, corpus.id, OWNER, DEFAULT_BATCH_LIMITS)).chunks.length);
    const encoderDocuments = Math.min(documents, 4 * runners * shardOf);
    const sample = Array.from({ length: encoderDocuments }, (_, i) => `${documentText(documents + i)} item ${documents + i}`);
    const encoderStarted = performance.now();
    await forEachBounded(
      Array.from({ length: Math.ceil(encoderDocuments / shardOf) }, (_, k) => sample.slice(k * shardOf, (k + 1) * shardOf)),
      runners,
      async (texts) => {
        await biEncoder.encode(texts);
      },
    );
    const encoderMs = performance.now() - encoderStarted;

    const afterAnalysis = encodedAt();
    const oneLineRuns: number[] = [];
    for (let run = 0; run < ONE_LINE_RUNS; run++)
      oneLineRuns.push(
        (await runBatch(engine, (await input(`one-${run}`, 1, lines + 10 + run)).id, documents, `1 x ${documents}`)).totalMs,
      );
    const many = await runBatch(engine, (await input('many', lines, 2)).id, lines * documents, `${lines} x ${documents}`);
    // Texts the bi-encoder encoded after the analysis: the lines' queries (each about once), and documents only if a
    // stored shard was not used (a shard is hundreds of documents).
    const queryLines = lines + ONE_LINE_RUNS;
    const encodedAfterAnalysis = encodedAt() - afterAnalysis;

    const plan = await planCorpusChunks(files, corpus.id, OWNER, DEFAULT_BATCH_LIMITS);
    const shards = new CorpusShardStore(files, { maxDocumentChars: 65_536, maxCorpusLineBytes: DEFAULT_BATCH_LIMITS.maxCorpusLineBytes });
    const groupStarted = performance.now();
    const queries = Array.from({ length: lines }, (_, q) => ({ query: queryText(2 + q), topN: 10, activation: 'none' as const }));
    await queryStoredCorpus(shards, hybrid.documentAnalysis!, { fileId: corpus.id, version: corpus.version, chunks: plan.chunks }, queries);
    const groupMs = performance.now() - groupStarted;
    const storedBytes = files.derivedBytes(corpus.id);

    const figures: StoredCorpusFigures = {
      documents,
      lines,
      analysisMs: analysis.totalMs,
      documentsEncoded,
      encoderMs,
      encoderDocuments,
      oneLineMs: [...oneLineRuns].sort((a, b) => a - b)[Math.floor(ONE_LINE_RUNS / 2)]!,
      oneLineRuns,
      groupLines: groupLinesFor(documents, DEFAULT_BATCH_LIMITS.corpusGroupLines),
      groupLinesAtMillion: groupLinesFor(1_000_000, DEFAULT_BATCH_LIMITS.corpusGroupLines),
      load: [loadAtStart, loadavg()[0]!],
      manyLinesMs: many.totalMs,
      groupMs,
      encodedAfterAnalysis,
      queryLines,
      shards: plan.chunks.length,
      storedBytesPerDocument: storedBytes / documents,
    };
    return {
      shape: `${lines} x ${documents}`,
      totalMs: analysis.totalMs + oneLineRuns.reduce((a, b) => a + b, 0) + many.totalMs,
      peakRssKb: process.resourceUsage().maxRSS,
      status: many.status ?? '-',
      stored: figures,
    };
  } finally {
    await Promise.all(scorers.map((s) => s.close?.()));
  }
}
