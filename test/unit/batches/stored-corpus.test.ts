import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderFileStore } from '../../../shared/adapters/local/local-folder-file-store.js';
import { DEFAULT_BATCH_LIMITS } from '../../../shared/batches/batch-limits.js';
import { planCorpusChunks, type CorpusPlan } from '../../../shared/batches/corpus-chunks.js';
import { queryStoredCorpus, type CorpusQuery } from '../../../shared/batches/corpus-query.js';
import { CorpusShardStore } from '../../../shared/batches/corpus-shards.js';
import type { Scorer } from '../../../shared/core/scorer.js';
import type { FileStore } from '../../../shared/files/file-store.js';
import { loadOnnxBiEncoder, type OnnxBiEncoder } from '../../../shared/scoring/bi-encoder/index.js';
import { createDefaultHybridScorer } from '../../../shared/scoring/hybrid/index.js';
import { createBm25Scorer } from '../../../shared/scoring/lexical/index.js';
import { InMemoryFileStore } from '../../support/in-memory-file-store.js';
import { USE_LITE_DIR } from '../scoring/bi-encoder/use-lite-golden.js';

/** Real text: the Debian package descriptions of the evaluation set (its documents) and synopses (its queries). */
const entries = readFileSync(join(USE_LITE_DIR, '../../eval/debian-descriptions.jsonl'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { query: string; documents: string[] });
const MAX_CHARS = 400;
const documents = [...new Set(entries.flatMap((e) => e.documents))].slice(0, 160);
const queries = entries.slice(0, 4).map((e) => e.query);
const corpusJsonl = documents.map((d, i) => (i % 2 === 0 ? JSON.stringify(d) : JSON.stringify({ text: d, id: i }))).join('\n') + '\n';
// Small shards (chunkCost in estimated tokens), so a corpus here is several of them.
const limits = { ...DEFAULT_BATCH_LIMITS, chunkCost: 2000 };
const shardOptions = { maxDocumentChars: MAX_CHARS, maxCorpusLineBytes: limits.maxCorpusLineBytes };

let biEncoder: OnnxBiEncoder;
let models: Record<'hybrid' | 'bi-encoder' | 'bm25', Scorer>;

beforeAll(async () => {
  // The synchronous path keeps its embedding cache (a corpus' documents are encoded once for the queries below); the
  // stored path never reads it (`encode` goes past it), so the counts below are its own.
  biEncoder = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1 });
  const bm25 = createBm25Scorer({ id: 'bm25' });
  models = { hybrid: createDefaultHybridScorer({ id: 'use-lite-bm25', model: biEncoder, lexical: bm25 }), 'bi-encoder': biEncoder, bm25 };
}, 60_000);
afterAll(async () => {
  await biEncoder?.close();
});

async function corpusIn(files: FileStore & { put?: InMemoryFileStore['put'] }): Promise<CorpusPlan> {
  const writer = await files.openWriter({ ownerKeyId: 'key-a', filename: 'corpus.jsonl', purpose: 'user_data', maxBytes: 1 << 24 });
  await writer.write(Buffer.from(corpusJsonl));
  const file = await writer.close();
  return planCorpusChunks(files, file.id, 'key-a', limits);
}

const groupOf = (texts: readonly string[], topN: number): CorpusQuery[] => texts.map((query) => ({ query, topN, activation: 'none' }));

describe('a corpus analysed once into stored shards (real USE-lite on onnxruntime, real BM25)', () => {
  it('scores every document as the synchronous path does, within 1e-5, for the default hybrid, its bi-encoder and bm25', async () => {
    const files = new InMemoryFileStore();
    const corpus = await corpusIn(files);
    expect(corpus.chunks.length).toBeGreaterThan(3);
    const cut = documents.map((d) => d.slice(0, MAX_CHARS));
    for (const [name, model] of Object.entries(models)) {
      expect(model.documentAnalysis, name).toBeDefined();
      const shards = new CorpusShardStore(files, shardOptions);
      const stored = await queryStoredCorpus(
        shards,
        model.documentAnalysis!,
        { fileId: corpus.file.id, version: corpus.file.version, chunks: corpus.chunks },
        groupOf(queries, documents.length),
      );
      for (const [q, query] of queries.entries()) {
        const sync = await model.score(query, cut);
        const { indices, rawScores } = stored[q]!;
        expect(indices).toEqual(documents.map((_, i) => i));
        const worst = Math.max(...rawScores.map((s, i) => Math.abs(s - sync.scores[i]!)));
        expect(worst, `${name}, query ${q}`).toBeLessThanOrEqual(1e-5);
        // Usage as a batch counts it: the query's tokens once per shard, and every document's.
        expect(stored[q]!.tokens, name).toBe(
          sync.tokens + (name === 'bm25' ? 0 : (corpus.chunks.length - 1) * biEncoder.tokenize(query).length),
        );
      }
    }
  }, 120_000);

  it('keeps the same top-n as the synchronous ranking, and a threshold drops what scores below it', async () => {
    const files = new InMemoryFileStore();
    const corpus = await corpusIn(files);
    const model = models.hybrid;
    const shards = new CorpusShardStore(files, shardOptions);
    const stored = await queryStoredCorpus(
      shards,
      model.documentAnalysis!,
      { fileId: corpus.file.id, version: corpus.file.version, chunks: corpus.chunks },
      [
        { query: queries[0]!, topN: 5, activation: 'none' },
        { query: queries[1]!, topN: 50, activation: 'none', threshold: 0.5 },
      ],
    );
    const sync0 = (
      await model.score(
        queries[0]!,
        documents.map((d) => d.slice(0, MAX_CHARS)),
      )
    ).scores;
    const best5 = sync0
      .map((s, i) => [s, i] as const)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, 5)
      .map(([, i]) => i)
      .sort((a, b) => a - b);
    expect(stored[0]!.indices).toEqual(best5);
    expect(stored[1]!.rawScores.every((s) => s >= 0.5)).toBe(true);
  }, 60_000);

  it('encodes no document for a second group of queries, nor after a restart over the same folder (new store, new model load)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stored-corpus-'));
    try {
      const files = new LocalFolderFileStore(dir);
      const corpus = await corpusIn(files);
      const ref = { fileId: corpus.file.id, version: corpus.file.version, chunks: corpus.chunks };
      const first = new CorpusShardStore(files, shardOptions);
      const before = biEncoder.embeddingStats.encoded;
      const firstRun = await queryStoredCorpus(first, models.hybrid.documentAnalysis!, ref, groupOf(queries.slice(0, 2), 10));
      expect(biEncoder.embeddingStats.encoded - before).toBe(documents.length + 2);
      expect(first.stats).toMatchObject({ analysed: corpus.chunks.length, analysedDocuments: documents.length });

      // A second group in the same process: its queries are encoded, no document is.
      const again = biEncoder.embeddingStats.encoded;
      await queryStoredCorpus(first, models.hybrid.documentAnalysis!, ref, groupOf(queries.slice(2), 10));
      expect(biEncoder.embeddingStats.encoded - again).toBe(queries.length - 2);

      // A restart: a new FileStore over the same folder, a freshly loaded model, a new shard store.
      const reloaded = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1, embeddingCacheEntries: 0 });
      try {
        const hybrid = createDefaultHybridScorer({ id: 'use-lite-bm25', model: reloaded, lexical: createBm25Scorer({ id: 'bm25' }) });
        expect(hybrid.documentAnalysis!.digest).toBe(models.hybrid.documentAnalysis!.digest);
        const restarted = new CorpusShardStore(new LocalFolderFileStore(dir), shardOptions);
        const afterRestart = await queryStoredCorpus(restarted, hybrid.documentAnalysis!, ref, groupOf(queries.slice(0, 2), 10));
        expect(reloaded.embeddingStats.encoded).toBe(2);
        expect(restarted.stats).toMatchObject({ analysed: 0, read: corpus.chunks.length });
        expect(afterRestart.map((r) => r.indices)).toEqual(firstRun.map((r) => r.indices));
      } finally {
        await reloaded.close();
      }

      // The bi-encoder alone and bm25 have their own stored forms (other digests): analysed once each, then reused.
      expect(new Set(Object.values(models).map((m) => m.documentAnalysis!.digest)).size).toBe(3);

      // Deleting the file deletes its shards.
      expect(await files.delete(corpus.file.id)).toBe(true);
      const { readdirSync, existsSync } = await import('node:fs');
      expect(existsSync(join(dir, 'derived', corpus.file.id)) ? readdirSync(join(dir, 'derived', corpus.file.id)) : []).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
