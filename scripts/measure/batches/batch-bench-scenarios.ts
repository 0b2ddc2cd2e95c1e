import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BatchEngine } from '../../../shared/batches/batch-engine.js';
import { isTerminal } from '../../../shared/batches/batch-model.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { loadFolderScorer } from '../../../shared/scoring/load-folder-scorer.js';
import { BenchFolderFileStore } from './bench-folder-file-store.js';
import { batchTaskRunners } from '../../../shared/runtime/batch-runtime.js';
import { loadScorers } from '../../../shared/runtime/load-scorers.js';
import { DEFAULT_MODEL_ID, FIXTURE_MODEL_ID, loadServiceConfig } from '../../../shared/config/service-config.js';
import type { OnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { engineOverStore } from './engine-over-store.js';
import { storedCorpusScenario, type StoredCorpusFigures } from './stored-corpus-bench.js';

export const SCENARIOS = [
  'bare-tinybert',
  'batch-tinybert',
  'corpus-bm25',
  'many-bm25',
  'shared-corpus-default',
  'stored-corpus-default',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface ScenarioResult {
  readonly shape: string;
  readonly totalMs: number;
  readonly createMs?: number;
  readonly pairsPerSecond?: number;
  readonly peakRssKb: number;
  readonly status?: string;
  readonly completed?: number;
  readonly failed?: number;
  /** Shared corpus: texts the bi-encoder encoded, and texts it took from its embedding cache. */
  readonly encoded?: number;
  readonly reused?: number;
  /** Stored corpus: the phases' figures (stored-corpus-bench.ts). */
  readonly stored?: StoredCorpusFigures;
}

const ROOT = resolve(import.meta.dirname, '../../..');
const OWNER = 'bench';
const WORKERS = Number(process.env['RERANK_LOCAL_WORKERS'] ?? 2);
/** The engine's runners, as the runtime sets them (batchTaskRunners): reading a range overlaps another chunk's scoring. */
const RUNNERS = batchTaskRunners(WORKERS);
const WORDS = (
  'neural network gradient ranking search query lambda queue python library panda bamboo transformer attention ' +
  'river mountain coffee recipe weather engine battery garden music history protein market'
).split(' ');

/** Deterministic document text of 12-40 words. */
export const documentText = (i: number): string =>
  Array.from({ length: 12 + ((i * 37) % 29) }, (_, j) => WORDS[(i * 7 + j * 3 + (i >> 3)) % WORDS.length]).join(' ');
export const queryText = (i: number): string =>
  `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 1) % WORDS.length]} ${WORDS[(i * 11 + 2) % WORDS.length]}`;

export async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const stream = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!stream.write(`${line(i)}\n`)) await once(stream, 'drain');
  stream.end();
  await once(stream, 'finish');
}

const peakRssKb = (): number => process.resourceUsage().maxRSS;

async function tinyBert(): Promise<Scorer> {
  return loadFolderScorer({ id: 'tinybert-l2-fixture', folder: resolve(ROOT, 'models/tinybert-l2-fixture'), threads: WORKERS });
}

export function engineOver(scorers: Scorer | readonly Scorer[], files: BenchFolderFileStore): BatchEngine {
  return engineOverStore(Array.isArray(scorers) ? scorers : [scorers as Scorer], files);
}

/** Creates the batch, then waits for its end; create time is the call's own. */
export async function runBatch(engine: BatchEngine, inputFileId: string, pairs: number, shape: string): Promise<ScenarioResult> {
  const started = performance.now();
  const created = await engine.create(OWNER, { inputFileId, endpoint: '/v1/rerank', completionWindow: '24h' });
  const createMs = performance.now() - started;
  let view = created;
  while (!isTerminal(view.batch.status)) {
    await new Promise((r) => setTimeout(r, 20));
    view = (await engine.find(created.batch.id, OWNER)) ?? view;
  }
  const totalMs = performance.now() - started;
  return {
    shape,
    createMs,
    totalMs,
    pairsPerSecond: pairs / (totalMs / 1000),
    peakRssKb: peakRssKb(),
    status: view.batch.status,
    ...view.counts,
  };
}

export async function runScenario(name: ScenarioName, quick: boolean): Promise<ScenarioResult> {
  const scale = quick ? 10 : 1;
  const scratch = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  try {
    const files = new BenchFolderFileStore(join(scratch, 'files'));
    const requests = (name === 'many-bm25' ? 10_000 : 1_000) / scale;
    const docsPerRequest = 100;
    const requestDocs = (r: number) => Array.from({ length: docsPerRequest }, (_, d) => documentText(r * docsPerRequest + d));
    if (name === 'bare-tinybert') {
      const scorer = await tinyBert();
      const started = performance.now();
      let next = 0;
      // The same requests with the same concurrency as the engine's runners.
      await Promise.all(
        Array.from({ length: RUNNERS }, async () => {
          for (let r = next++; r < requests; r = next++) await scorer.score(queryText(r), requestDocs(r));
        }),
      );
      const totalMs = performance.now() - started;
      await scorer.close?.();
      return {
        shape: `${requests} x ${docsPerRequest}`,
        totalMs,
        pairsPerSecond: (requests * docsPerRequest) / (totalMs / 1000),
        peakRssKb: peakRssKb(),
      };
    }
    if (name === 'shared-corpus-default') {
      // 1,000 queries over one 1,000-document corpus with the default model: its bi-encoder half should encode the
      // corpus once, not once per query.
      const documents = 1_000 / scale;
      const queries = 1_000 / scale;
      const config = loadServiceConfig({ RERANK_MODELS: '' });
      const scorers = await loadScorers(
        config.models.filter((m) => m.id !== FIXTURE_MODEL_ID),
        WORKERS,
      );
      const corpusPath = join(scratch, 'corpus.jsonl');
      await writeLines(corpusPath, documents, (i) => JSON.stringify(documentText(i)));
      const corpus = files.adopt(corpusPath, OWNER, 'user_data');
      const inputPath = join(scratch, 'input.jsonl');
      await writeLines(inputPath, queries, (q) =>
        JSON.stringify({
          custom_id: `q${q}`,
          method: 'POST',
          url: '/v1/rerank',
          body: { model: DEFAULT_MODEL_ID, query: queryText(q), documents_file_id: corpus.id, top_n: 10 },
        }),
      );
      const input = files.adopt(inputPath, OWNER, 'batch');
      const result = await runBatch(engineOver(scorers, files), input.id, queries * documents, `${queries} x ${documents} (one corpus)`);
      const biEncoder = scorers.find((scorer) => scorer.id === 'use-lite') as OnnxBiEncoder;
      await Promise.all(scorers.map((scorer) => scorer.close?.()));
      return { ...result, ...biEncoder.embeddingStats };
    }
    if (name === 'stored-corpus-default')
      return await storedCorpusScenario(files, scratch, scale, {
        documentText,
        queryText,
        writeLines,
        engineOver: (scorers, store) => engineOver(scorers, store),
        runBatch,
      });
    if (name === 'corpus-bm25') {
      const documents = 1_000_000 / scale;
      const corpusPath = join(scratch, 'corpus.jsonl');
      await writeLines(corpusPath, documents, (i) => JSON.stringify(documentText(i)));
      const corpus = files.adopt(corpusPath, OWNER, 'user_data');
      const inputPath = join(scratch, 'input.jsonl');
      await writeLines(inputPath, 1, () =>
        JSON.stringify({
          custom_id: 'q',
          method: 'POST',
          url: '/v1/rerank',
          body: { model: 'bm25', query: 'neural ranking python library', documents_file_id: corpus.id, top_n: 10 },
        }),
      );
      const input = files.adopt(inputPath, OWNER, 'batch');
      return await runBatch(engineOver(createBm25Scorer({ id: 'bm25' }), files), input.id, documents, `1 x ${documents}`);
    }
    const scorer = name === 'batch-tinybert' ? await tinyBert() : createBm25Scorer({ id: 'bm25' });
    const inputPath = join(scratch, 'input.jsonl');
    await writeLines(inputPath, requests, (r) =>
      JSON.stringify({
        custom_id: `r${r}`,
        method: 'POST',
        url: '/v1/rerank',
        body: { query: queryText(r), documents: requestDocs(r), top_n: 10 },
      }),
    );
    const input = files.adopt(inputPath, OWNER, 'batch');
    const result = await runBatch(engineOver(scorer, files), input.id, requests * docsPerRequest, `${requests} x ${docsPerRequest}`);
    await scorer.close?.();
    return result;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
