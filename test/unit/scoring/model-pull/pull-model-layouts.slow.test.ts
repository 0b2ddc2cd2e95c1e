import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InterruptedDownloadError,
  MissingModelFileError,
  pullModel,
  type DownloadProgress,
} from '../../../../shared/scoring/model-pull/index.js';
import { loadFolderScorer } from '../../../../shared/scoring/load-folder-scorer.js';
import { familyFolder, loadFamilyGolden, sigmoid } from '../family-fixtures.js';
import { startFakeHub, type FakeHub, type FakeRepo } from './fake-hub-server.js';

const COMMIT = 'b'.repeat(40);
const XLMR = familyFolder('xlmr-fixture');
const file = (name: string): Buffer => readFileSync(path.join(XLMR, name));
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The XLM-R fixture laid out like an onnx-community repo: every variant side by side in onnx/. */
function onnxCommunityRepo(cutAfter?: Map<string, number>): FakeRepo {
  const onnx = file('onnx/model.onnx');
  const files = new Map([
    ['config.json', { content: file('config.json'), lfs: false }],
    ['tokenizer.json', { content: file('tokenizer.json'), lfs: true }],
    ['tokenizer_config.json', { content: file('tokenizer_config.json'), lfs: false }],
    ['onnx/model.onnx', { content: onnx, lfs: true }],
    ['onnx/model_fp16.onnx', { content: Buffer.from('fp16 graph'), lfs: true }],
    ['onnx/model_quantized.onnx', { content: Buffer.from('quantized graph'), lfs: true }],
    ['onnx/model_int8.onnx', { content: Buffer.from('int8 graph'), lfs: true }],
    ['onnx/model_uint8.onnx', { content: Buffer.from('uint8 graph'), lfs: true }],
    ['model.safetensors', { content: Buffer.alloc(2048, 3), lfs: true }],
  ]);
  return { sha: COMMIT, files, ...(cutAfter === undefined ? {} : { cutAfter }) };
}

/** A large-model layout: the graph's weights in external-data shards next to it. */
function externalDataRepo(): FakeRepo {
  return {
    sha: COMMIT,
    files: new Map([
      ['config.json', { content: Buffer.from('{"architectures":["Qwen3ForCausalLM"]}'), lfs: false }],
      ['tokenizer.json', { content: Buffer.from('{}'), lfs: false }],
      ['onnx/model.onnx', { content: Buffer.from('graph'), lfs: true }],
      ['onnx/model.onnx_data', { content: Buffer.alloc(3000, 1), lfs: true }],
      ['onnx/model.onnx_data_1', { content: Buffer.alloc(1000, 2), lfs: true }],
      ['onnx/model_fp16.onnx', { content: Buffer.from('fp16'), lfs: true }],
      ['onnx/model_fp16.onnx_data', { content: Buffer.alloc(1500, 4), lfs: true }],
    ]),
  };
}

/** A PyTorch-only repo (no ONNX anywhere), sharded safetensors plus a legacy .bin copy. */
function pytorchOnlyRepo(): FakeRepo {
  return {
    sha: COMMIT,
    files: new Map([
      ['config.json', { content: file('config.json'), lfs: false }],
      ['tokenizer.json', { content: file('tokenizer.json'), lfs: true }],
      ['tokenizer_config.json', { content: file('tokenizer_config.json'), lfs: false }],
      ['sentencepiece.bpe.model', { content: Buffer.alloc(100, 9), lfs: true }],
      ['model-00001-of-00002.safetensors', { content: Buffer.alloc(500, 5), lfs: true }],
      ['model-00002-of-00002.safetensors', { content: Buffer.alloc(500, 6), lfs: true }],
      ['model.safetensors.index.json', { content: Buffer.from('{"weight_map":{}}'), lfs: false }],
      ['pytorch_model.bin', { content: Buffer.alloc(1000, 7), lfs: true }],
      ['tf_model.h5', { content: Buffer.alloc(1000, 8), lfs: true }],
    ]),
  };
}

describe('model:pull and the Hub layouts of the reranker families', () => {
  let hub: FakeHub;
  let out: string;
  const cuts = new Map<string, number>();

  beforeAll(async () => {
    hub = await startFakeHub({
      'onnx-community/xlmr': onnxCommunityRepo(),
      'onnx-community/xlmr-flaky': onnxCommunityRepo(cuts),
      'onnx-community/big-llm': externalDataRepo(),
      'BAAI/pytorch-only': pytorchOnlyRepo(),
    });
  });
  afterAll(async () => {
    await hub.close();
  });
  beforeEach(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'model-pull-layouts-'));
  });
  afterEach(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it.each([
    ['fp32', 'onnx/model.onnx'],
    ['fp16', 'onnx/model_fp16.onnx'],
    ['quantized', 'onnx/model_quantized.onnx'],
    ['int8', 'onnx/model_int8.onnx'],
    ['uint8', 'onnx/model_uint8.onnx'],
  ] as const)('--variant %s pulls %s and nothing else heavy', async (variant, expected) => {
    // Act
    const pulled = await pullModel({ repo: 'onnx-community/xlmr', destination: out, variant, endpoint: hub.endpoint });

    // Assert
    expect(pulled.onnxFile).toBe(expected);
    expect(pulled.files.map((f) => f.file).filter((f) => f.endsWith('.onnx'))).toEqual([expected]);
    expect(existsSync(path.join(out, 'model.safetensors'))).toBe(false);
  });

  it('pulls an XLM-R fixture that then scores exactly like the committed one', async () => {
    // Arrange
    const golden = loadFamilyGolden('xlmr-fixture');
    const c = golden.cases[0]!;

    // Act
    await pullModel({ repo: 'onnx-community/xlmr', destination: out, endpoint: hub.endpoint });
    const scorer = await loadFolderScorer({ id: 'pulled', folder: out, threads: 1 });
    const result = await scorer.score(c.query, [c.document]);
    await scorer.close?.();

    // Assert
    expect(Math.abs(sigmoid(result.scores[0]!) - c.score)).toBeLessThan(1e-4);
  });

  it('pulls every external-data shard of the chosen graph, verified, and none of another variant', async () => {
    // Act
    const fp32 = await pullModel({ repo: 'onnx-community/big-llm', destination: out, endpoint: hub.endpoint });

    // Assert
    expect(fp32.files.map((f) => f.file)).toEqual([
      'config.json',
      'tokenizer.json',
      'onnx/model.onnx',
      'onnx/model.onnx_data',
      'onnx/model.onnx_data_1',
    ]);
    expect(fp32.files.every((f) => f.verifiedBy !== 'none')).toBe(true);
    expect(readFileSync(path.join(out, 'onnx', 'model.onnx_data_1'))).toEqual(Buffer.alloc(1000, 2));
    expect(existsSync(path.join(out, 'onnx', 'model_fp16.onnx_data'))).toBe(false);
  });

  it('resumes a download that broke off, with a Range request, and verifies the whole file', async () => {
    // Arrange: the graph's first transfer drops after 300,000 bytes.
    cuts.set('onnx/model.onnx', 300_000);
    const progress: DownloadProgress[] = [];

    // Act
    const pulled = await pullModel({
      repo: 'onnx-community/xlmr-flaky',
      destination: out,
      endpoint: hub.endpoint,
      onProgress: (p) => progress.push(p),
    });

    // Assert
    const graph = pulled.files.find((f) => f.file === 'onnx/model.onnx')!;
    expect(graph.verifiedBy).toBe('sha256');
    expect(graph.sha256).toBe(sha256(file('onnx/model.onnx')));
    expect(hub.ranges.some((r) => r !== undefined && /^bytes=[1-9]\d*-$/.test(r))).toBe(true);
    expect(progress.filter((p) => p.file === 'onnx/model.onnx').at(-1)?.receivedBytes).toBe(file('onnx/model.onnx').length);
    expect(existsSync(path.join(out, 'onnx', 'model.onnx.part'))).toBe(false);
  });

  it('keeps the partial file when every attempt breaks off, and the next pull resumes it', async () => {
    // Arrange
    cuts.set('onnx/model.onnx', 200_000);

    // Act
    const first = await pullModel({ repo: 'onnx-community/xlmr-flaky', destination: out, endpoint: hub.endpoint, attempts: 1 }).catch(
      (e: unknown) => e,
    );
    const partBytes = readFileSync(path.join(out, 'onnx', 'model.onnx.part')).length;
    const second = await pullModel({ repo: 'onnx-community/xlmr-flaky', destination: out, endpoint: hub.endpoint });

    // Assert: whatever reached the disk before the drop is kept and asked for no more.
    expect(first).toBeInstanceOf(InterruptedDownloadError);
    expect(partBytes).toBeGreaterThan(0);
    expect(partBytes).toBeLessThanOrEqual(200_000);
    expect(hub.ranges.at(-1)).toBe(`bytes=${partBytes}-`);
    expect(second.files.find((f) => f.file === 'onnx/model.onnx')?.sha256).toBe(sha256(file('onnx/model.onnx')));
  });

  it('says what to do for a repo without any ONNX export, and pulls its PyTorch checkpoint with --pytorch', async () => {
    // Act
    const refused = await pullModel({ repo: 'BAAI/pytorch-only', destination: out, endpoint: hub.endpoint }).catch((e: unknown) => e);
    const pulled = await pullModel({ repo: 'BAAI/pytorch-only', destination: out, endpoint: hub.endpoint, pytorch: true });

    // Assert
    expect(refused).toBeInstanceOf(MissingModelFileError);
    expect((refused as Error).message).toMatch(/publishes no ONNX export.*\n.*--pytorch[\s\S]*scripts\/model\/export-onnx\.py/);
    expect(pulled.onnxFile).toBeUndefined();
    expect(pulled.files.map((f) => f.file).sort()).toEqual(
      [
        'config.json',
        'model-00001-of-00002.safetensors',
        'model-00002-of-00002.safetensors',
        'model.safetensors.index.json',
        'sentencepiece.bpe.model',
        'tokenizer.json',
        'tokenizer_config.json',
      ].sort(),
    );
  });
});
