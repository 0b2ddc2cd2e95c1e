import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_BATCH_LIMITS } from '../../shared/batches/batch-limits.js';
import { planCorpusChunks } from '../../shared/batches/corpus-chunks.js';
import { queryStoredCorpus } from '../../shared/batches/corpus-query.js';
import { CorpusShardStore } from '../../shared/batches/corpus-shards.js';
import { DEFAULT_MODEL_ID, FIXTURE_MODEL_ID, loadServiceConfig } from '../../shared/config/service-config.js';
import type { OnnxBiEncoder } from '../../shared/scoring/bi-encoder/index.js';
import { loadScorers } from '../../shared/runtime/load-scorers.js';
import type { BenchFolderFileStore } from './bench-folder-file-store.js';
import type { BatchEngine } from '../../shared/batches/batch-engine.js';
import type { Scorer } from '../../shared/core/scorer.js';

/** What the scenario borrows from batch-bench-scenarios.ts (handed in, so the two files do not import each other). */
export interface BenchHelpers {
  readonly documentText: (i: number) => string;
  readonly queryText: (i: number) => string;
  readonly writeLines: (path: string, count: number, line: (i: number) => string) => Promise<void>;
  readonly engineOver: (scorers: readonly Scorer[], files: BenchFolderFileStore) => BatchEngine;
  readonly runBatch: (engine: BatchEngine, inputFileId: string, pairs: number, shape: string) => Promise<{ totalMs: number; status?: string }>;
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
export function storedCorpusReport(result: Pick<StoredCorpusResult, 'peakRssKb'> & { readonly stored?: StoredCorpusFigures }, machine: string): string[] {
  const f = result.stored!;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const rate = f.documents / (f.analysisMs / 1000);
  const perLineMs = f.manyLinesMs / f.lines;
  const perQueryGroupMs = f.groupMs / f.lines;
  const million = 1_000_000 / f.documents;
  return [
    STORED_CORPUS_HEADING,
    '',
    `Machine: ${machine}. Default model (use-lite-bm25: USE-lite fp32 embeddings + BM25 term counts stored per shard), one corpus of`,
    `${f.documents.toLocaleString('en-US')} short documents (12-40 words), engine as above (in-process queue, files on disk); one process, peak RSS its maxRSS.`,
    '',
    '| phase | figure |',
    '| --- | --- |',
    `| analysis (first one-line batch: every document encoded once, ${f.shards} shards stored) | ${s(f.analysisMs)} = ${rate.toFixed(0)} documents/s; ${f.documentsEncoded.toLocaleString('en-US')} documents encoded |`,
    `| stored size | ${(f.storedBytesPerDocument / 1024).toFixed(2)} KiB per document (512 fp32 + term counts) = ${((f.storedBytesPerDocument * 1_000_000) / 2 ** 30).toFixed(1)} GiB per million |`,
    `| one-line batch over the analysed corpus, create to completed | ${s(f.oneLineMs)} |`,
    `| ${f.lines}-line batch over it, create to completed | ${s(f.manyLinesMs)} (${perLineMs.toFixed(0)} ms a line) |`,
    `| the same ${f.lines} queries as one group pass (queryStoredCorpus: each shard read once for all) | ${s(f.groupMs)} (${perQueryGroupMs.toFixed(0)} ms a query) |`,
    `| texts the bi-encoder encoded after the analysis | ${f.encodedAfterAnalysis} (the lines' ${f.distinctQueries} distinct queries, each about once: ${f.encodedAfterAnalysis <= f.distinctQueries ? 'no document encoded again' : 'MORE: documents were encoded again'}) |`,
    `| peak RSS | ${Math.round(result.peakRssKb / 1024)} MB |`,
    '',
    `Extrapolated to 1,000,000 documents on this machine (linear in documents; x${million.toFixed(0)}): analysis ${(1_000_000 / rate / 60).toFixed(0)} min;`,
    `one line ${s(f.oneLineMs * million)}; 1,000 lines ${((perLineMs * million * 1000) / 60_000).toFixed(0)} min line by line, ${((perQueryGroupMs * million * 1000) / 60_000).toFixed(0)} min as grouped passes;`,
    `stored analysis ${((f.storedBytesPerDocument * 1_000_000) / 2 ** 30).toFixed(1)} GiB. Peak RSS does not grow with the corpus (one shard per task, a bounded shard cache).`,
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
  /** A one-line batch over the analysed corpus, from create to completed. */
  readonly oneLineMs: number;
  /** A `lines`-line batch over it, from create to completed (each line's chunks read their shards). */
  readonly manyLinesMs: number;
  /** The same queries as one group (queryStoredCorpus: one pass per shard for all of them), for comparison. */
  readonly groupMs: number;
  /** Texts encoded after the analysis, and the distinct queries among the lines (equal or fewer: no document encoded again). */
  readonly encodedAfterAnalysis: number;
  readonly distinctQueries: number;
  readonly shards: number;
  readonly storedBytesPerDocument: number;
}

const OWNER = 'bench';

/**
 * The default model (use-lite-bm25) over one corpus of `50,000 / scale` short documents: analysis, then a one-line
 * batch from create, then a `1,000 / scale`-line batch, then the same queries as one group pass. The bi-encoder's
 * counter says how many documents were encoded after the analysis (none, if the stored shards are used).
 */
export async function storedCorpusScenario(files: BenchFolderFileStore, scratch: string, scale: number, helpers: BenchHelpers): Promise<StoredCorpusResult> {
  const { documentText, queryText, writeLines, engineOver, runBatch } = helpers;
  const documents = Math.round(Number(process.env['BENCH_STORED_DOCUMENTS'] ?? 50_000) / scale);
  const lines = Math.round(Number(process.env['BENCH_STORED_LINES'] ?? 1_000) / scale);
  const workers = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
  const config = loadServiceConfig({ RERANK_MODELS: '' });
  const scorers = await loadScorers(config.models.filter((m) => m.id !== FIXTURE_MODEL_ID), workers);
  const biEncoder = scorers.find((s) => s.id === 'use-lite') as OnnxBiEncoder;
  const hybrid = scorers.find((s) => s.id === DEFAULT_MODEL_ID)!;
  try {
    const corpusPath = join(scratch, 'corpus.jsonl');
    await writeLines(corpusPath, documents, (i) => JSON.stringify(`${documentText(i)} item ${i}`));
    const corpus = files.adopt(corpusPath, OWNER, 'user_data');
    const input = async (name: string, count: number, first: number) => {
      const path = join(scratch, `${name}.jsonl`);
      await writeLines(path, count, (q) =>
        JSON.stringify({ custom_id: `q${q}`, method: 'POST', url: '/v1/rerank', body: { model: DEFAULT_MODEL_ID, query: queryText(first + q), documents_file_id: corpus.id, top_n: 10 } }),
      );
      return files.adopt(path, OWNER, 'batch');
    };
    const engine = engineOver(scorers, files);
    const encodedAt = () => biEncoder.embeddingStats.encoded;

    const start = encodedAt();
    const analysis = await runBatch(engine, (await input('analyse', 1, 0)).id, documents, `1 x ${documents}`);
    const documentsEncoded = encodedAt() - start - 1;
    const afterAnalysis = encodedAt();
    const one = await runBatch(engine, (await input('one', 1, 1)).id, documents, `1 x ${documents}`);
    const many = await runBatch(engine, (await input('many', lines, 2)).id, lines * documents, `${lines} x ${documents}`);
    // Texts the bi-encoder encoded after the analysis: the lines' queries (each about once), and documents only if a
    // stored shard was not used (a shard is hundreds of documents).
    const distinctQueries = new Set(Array.from({ length: lines + 1 }, (_, q) => queryText(1 + q))).size;
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
      oneLineMs: one.totalMs,
      manyLinesMs: many.totalMs,
      groupMs,
      encodedAfterAnalysis,
      distinctQueries,
      shards: plan.chunks.length,
      storedBytesPerDocument: storedBytes / documents,
    };
    return { shape: `${lines} x ${documents}`, totalMs: analysis.totalMs + one.totalMs + many.totalMs, peakRssKb: process.resourceUsage().maxRSS, status: many.status ?? '-', stored: figures };
  } finally {
    await Promise.all(scorers.map((s) => s.close?.()));
  }
}
