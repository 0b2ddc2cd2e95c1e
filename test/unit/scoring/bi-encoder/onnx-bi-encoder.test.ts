import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine, loadOnnxBiEncoder, readBiEncoderFolder, type OnnxBiEncoder } from '../../../../shared/scoring/bi-encoder/index.js';
import { readModelFamily } from '../../../../shared/scoring/model-folder.js';
import { ModelFolderError } from '../../../../shared/scoring/model-folder.js';
import { USE_LITE_DIR } from './use-lite-golden.js';

const FIXTURE_CROSS_ENCODER_DIR = path.resolve(USE_LITE_DIR, '../tinybert-l2-fixture');

describe('loadOnnxBiEncoder: scoring', () => {
  let scorer: OnnxBiEncoder;

  beforeAll(async () => {
    scorer = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1, batchSize: 4 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('ranks the relevant document first and returns scores in input order', async () => {
    // Arrange
    const documents = [
      'The mitochondria is the powerhouse of the cell.',
      'Paris is the capital and largest city of France.',
      'Bananas are rich in potassium.',
    ];

    // Act
    const batch = await scorer.score('what is the capital of france', documents);

    // Assert
    expect(batch.scores).toHaveLength(3);
    expect(Math.max(...batch.scores)).toBe(batch.scores[1]);
    for (const score of batch.scores) {
      expect(score).toBeGreaterThanOrEqual(-1);
      expect(score).toBeLessThanOrEqual(1);
    }
  });

  it('gives the same score to a document whatever the batch it lands in', async () => {
    // Arrange: batchSize 4 splits 10 documents of different lengths into several ONNX runs
    const documents = Array.from({ length: 10 }, (_, i) => `document ${i} ${'about rivers and bridges '.repeat(i)}`);

    // Act
    const together = await scorer.score('rivers of paris', documents);
    const alone = await Promise.all(documents.map((document) => scorer.score('rivers of paris', [document])));

    // Assert: so requests may be split into chunks
    expect(scorer.candidateRelative).toBe(false);
    alone.forEach((single, i) => expect(Math.abs(single.scores[0]! - together.scores[i]!)).toBeLessThan(1e-6));
  });

  it('counts the query and document tokens it read (after the 128-token cut)', async () => {
    // Act
    const batch = await scorer.score('hello', ['hello', 'x '.repeat(500)]);

    // Assert
    expect(batch.tokens).toBe(scorer.tokenize('hello').length * 2 + 128);
  });

  it('handles empty documents, empty query and no documents', async () => {
    expect(await scorer.score('query', [])).toEqual({ scores: [], tokens: 0 });
    const withEmpty = await scorer.score('', ['', 'text']);
    expect(withEmpty.scores[0]).toBeCloseTo(1, 5); // two empty texts embed identically
    expect(Number.isFinite(withEmpty.scores[1])).toBe(true);
  });

  it("tells a corpus analysis' progress after each model run, and stores the same shard as without it", async () => {
    // Arrange: batchSize 4 cuts 10 documents into three runs
    const documents = Array.from({ length: 10 }, (_, i) => `document ${i} ${'about rivers and bridges '.repeat(i)}`);
    const heard: number[] = [];

    // Act
    const followed = await scorer.documentAnalysis.analyse(documents, undefined, async (done) => void heard.push(done));
    const plain = await scorer.documentAnalysis.analyse(documents);

    // Assert
    // Costliest run first: the counts grow by at most a run's 4 documents, to all of them.
    expect(heard.length).toBe(3);
    expect(heard.at(-1)).toBe(10);
    heard.forEach((done, i) => expect(done - (heard[i - 1] ?? 0)).toBeGreaterThan(0));
    heard.forEach((done, i) => expect(done - (heard[i - 1] ?? 0)).toBeLessThanOrEqual(4));
    expect(followed.vectors?.data).toEqual(plain.vectors?.data);
    expect(followed.tokens).toEqual(plain.tokens);
  });

  it('refuses to score after close', async () => {
    const other = await loadOnnxBiEncoder({ id: 'closing', folder: USE_LITE_DIR, threads: 1 });
    await other.close();
    await other.close(); // idempotent
    await expect(other.score('q', ['d'])).rejects.toThrow(/closed/);
  });
});

describe('cosine', () => {
  it('is the normalised dot product and 0 for a zero vector', () => {
    expect(cosine(Float32Array.of(1, 0), Float32Array.of(0, 2))).toBe(0);
    expect(cosine(Float32Array.of(3, 4), Float32Array.of(6, 8))).toBeCloseTo(1, 12);
    expect(cosine(Float32Array.of(0, 0), Float32Array.of(1, 1))).toBe(0);
  });
});

describe('bi-encoder model folder', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'bi-encoder-folder-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('reads models/use-lite', async () => {
    const folder = await readBiEncoderFolder(USE_LITE_DIR);
    expect(folder.onnxPath).toBe(path.join(USE_LITE_DIR, 'onnx/model.onnx'));
    expect(folder.vocabulary).toHaveLength(8000);
    expect(folder).toMatchObject({ maxLength: 128, dimensions: 512, outputName: 'sentence_embedding', reservedSymbols: 6 });
  });

  it('tells bi-encoder folders from cross-encoder folders', async () => {
    expect(await readModelFamily(USE_LITE_DIR)).toBe('bi-encoder');
    expect(await readModelFamily(FIXTURE_CROSS_ENCODER_DIR)).toBe('cross-encoder');
  });

  it('rejects a cross-encoder folder and a folder without a model, naming the problem', async () => {
    await expect(readBiEncoderFolder(FIXTURE_CROSS_ENCODER_DIR)).rejects.toThrow(/rerank_kind/);
    const noModel = path.join(scratch, 'no-model');
    await cp(USE_LITE_DIR, noModel, { recursive: true, filter: (source) => !source.endsWith('.onnx') });
    await expect(readBiEncoderFolder(noModel)).rejects.toThrow(ModelFolderError);
    await expect(readBiEncoderFolder(noModel)).rejects.toThrow(/no ONNX model/);
  });

  it('rejects a malformed vocab.json', async () => {
    const broken = path.join(scratch, 'broken-vocab');
    await cp(USE_LITE_DIR, broken, { recursive: true, filter: (source) => !source.endsWith('.onnx') });
    await writeFile(path.join(broken, 'vocab.json'), '[["a", "not a number"]]');
    await expect(readBiEncoderFolder(broken, { modelFile: 'vocab.json' })).rejects.toThrow(/vocab.json entry 0/);
  });
});

describe('loadOnnxBiEncoder: a corpus shared by many queries is encoded once', () => {
  let cached: OnnxBiEncoder;
  let uncached: OnnxBiEncoder;
  const corpus = Array.from(
    { length: 12 },
    (_, i) => `document ${i} about ${['rivers', 'compilers', 'bread', 'tides'][i % 4]} and ${'more '.repeat(i)}`,
  );

  beforeAll(async () => {
    cached = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1, batchSize: 4 });
    uncached = await loadOnnxBiEncoder({ id: 'use-lite', folder: USE_LITE_DIR, threads: 1, batchSize: 4, embeddingCacheEntries: 0 });
  });
  afterAll(async () => {
    await Promise.all([cached.close(), uncached.close()]);
  });

  it('reuses the documents for every later query, with the same scores and token counts as encoding them again', async () => {
    const queries = ['how do compilers work', 'baking bread at home', 'ocean tides', 'how do compilers work'];
    for (const [q, query] of queries.entries()) {
      // Chunks of one corpus, as a batch sends them.
      for (const chunk of [corpus.slice(0, 5), corpus.slice(5)]) {
        const [a, b] = await Promise.all([cached.score(query, chunk), uncached.score(query, chunk)]);
        expect(a.tokens).toBe(b.tokens);
        a.scores.forEach((score, i) => expect(score).toBeCloseTo(b.scores[i]!, 6));
      }
      // Every document is encoded once, and each distinct query once.
      expect(cached.embeddingStats.encoded).toBe(corpus.length + Math.min(q + 1, 3));
    }
    expect(uncached.embeddingStats.reused).toBe(0);
  });

  it('encodes a document repeated inside one request once', async () => {
    const before = cached.embeddingStats.encoded;
    await cached.score('a new query about rivers', ['same text here', 'same text here', 'same text here']);
    expect(cached.embeddingStats.encoded - before).toBe(2);
  });
});
