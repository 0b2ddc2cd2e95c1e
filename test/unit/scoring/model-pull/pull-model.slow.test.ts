import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKSUMS_FILE,
  ChecksumMismatchError,
  MissingModelFileError,
  pullModel,
  RepoNotFoundError,
  type DownloadProgress,
} from '../../../../shared/scoring/model-pull/index.js';
import { loadOnnxCrossEncoder } from '../../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, loadGolden } from '../fixture-model.js';
import { startFakeHub, type FakeHub, type FakeRepo } from './fake-hub-server.js';

const COMMIT = 'a'.repeat(40);
const fixtureFile = (name: string): Buffer => readFileSync(path.join(FIXTURE_MODEL_DIR, name));

/** Our committed fixture model laid out as a hub repo, plus files model:pull must leave alone. */
function fixtureRepo(corrupt?: string): FakeRepo {
  const files = new Map([
    ['config.json', { content: fixtureFile('config.json'), lfs: false }],
    ['tokenizer.json', { content: fixtureFile('tokenizer.json'), lfs: false }],
    ['tokenizer_config.json', { content: fixtureFile('tokenizer_config.json'), lfs: false }],
    ['special_tokens_map.json', { content: fixtureFile('special_tokens_map.json'), lfs: false }],
    ['vocab.txt', { content: fixtureFile('vocab.txt'), lfs: false }],
    ['README.md', { content: fixtureFile('README.md'), lfs: false }],
    ['onnx/model_quantized.onnx', { content: fixtureFile('onnx/model_quantized.onnx'), lfs: true }],
    ['pytorch_model.bin', { content: Buffer.alloc(4096, 7), lfs: true }],
  ]);
  return { sha: COMMIT, files, ...(corrupt === undefined ? {} : { corrupt: new Set([corrupt]) }) };
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('pullModel against a local hub', () => {
  let hub: FakeHub;
  let out: string;

  beforeAll(async () => {
    hub = await startFakeHub({
      'cross-encoder/fixture': fixtureRepo(),
      'cross-encoder/corrupted': fixtureRepo('onnx/model_quantized.onnx'),
      'cross-encoder/corrupted-config': fixtureRepo('tokenizer.json'),
    });
  });
  afterAll(async () => {
    await hub.close();
  });
  beforeEach(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'model-pull-'));
  });
  afterEach(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('downloads only what the scorer needs, verified, with a checksum manifest, into a loadable folder', async () => {
    // Arrange
    const progress: DownloadProgress[] = [];

    // Act
    const pulled = await pullModel({
      repo: 'cross-encoder/fixture',
      destination: out,
      variant: 'quantized',
      endpoint: hub.endpoint,
      token: 'hf_test',
      onProgress: (p) => progress.push(p),
    });

    // Assert
    expect(pulled.commit).toBe(COMMIT);
    expect(pulled.onnxFile).toBe('onnx/model_quantized.onnx');
    expect(pulled.files.map((f) => [f.file, f.verifiedBy])).toEqual([
      ['config.json', 'git-sha1'],
      ['tokenizer.json', 'git-sha1'],
      ['tokenizer_config.json', 'git-sha1'],
      ['special_tokens_map.json', 'git-sha1'],
      ['onnx/model_quantized.onnx', 'sha256'],
    ]);
    expect(readdirSync(out).sort()).toEqual([
      CHECKSUMS_FILE,
      'config.json',
      'model-pull.json',
      'onnx',
      'special_tokens_map.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    const manifest = readFileSync(path.join(out, CHECKSUMS_FILE), 'utf8').trim().split('\n');
    expect(manifest).toHaveLength(5);
    for (const line of manifest) {
      const [hash, file] = line.split('  ');
      expect(sha256(path.join(out, file!))).toBe(hash);
      expect(sha256(path.join(FIXTURE_MODEL_DIR, file!))).toBe(hash);
    }
    const onnxProgress = progress.filter((p) => p.file === 'onnx/model_quantized.onnx');
    expect(onnxProgress.length).toBeGreaterThan(1);
    expect(onnxProgress.at(-1)).toMatchObject({
      receivedBytes: fixtureFile('onnx/model_quantized.onnx').length,
      totalBytes: fixtureFile('onnx/model_quantized.onnx').length,
    });
    expect(hub.requests.filter((r) => r.includes('/resolve/')).every((r) => r.includes(`/resolve/${COMMIT}/`))).toBe(true);
    expect(hub.requests.some((r) => r.includes('pytorch_model.bin') || r.includes('vocab.txt'))).toBe(false);
    expect(hub.authorizations).toContain('Bearer hf_test');

    const scorer = await loadOnnxCrossEncoder({ id: 'pulled', folder: out, threads: 1 });
    const golden = loadGolden().cases[0]!;
    const result = await scorer.score(golden.query, [golden.document]);
    await scorer.close();
    expect(Math.abs(result.scores[0]! - golden.logit)).toBeLessThan(1e-4);
  });

  it('keeps files that already match the hub sha256 on a second pull', async () => {
    // Arrange
    await pullModel({ repo: 'cross-encoder/fixture', destination: out, variant: 'quantized', endpoint: hub.endpoint });
    const before = hub.requests.length;

    // Act
    const again = await pullModel({ repo: 'cross-encoder/fixture', destination: out, variant: 'quantized', endpoint: hub.endpoint });

    // Assert
    expect(again.files.find((f) => f.file === 'onnx/model_quantized.onnx')?.skipped).toBe(true);
    expect(hub.requests.slice(before).some((r) => r.includes('model_quantized.onnx'))).toBe(false);
  });

  it('detects a corrupted LFS download, reports both hashes and leaves no file behind', async () => {
    // Act
    const pulling = pullModel({ repo: 'cross-encoder/corrupted', destination: out, variant: 'quantized', endpoint: hub.endpoint });

    // Assert
    await expect(pulling).rejects.toBeInstanceOf(ChecksumMismatchError);
    await expect(pulling).rejects.toThrow(
      /onnx\/model_quantized\.onnx: sha256 mismatch \(hub says [0-9a-f]{64}, downloaded [0-9a-f]{64}\)/,
    );
    expect(existsSync(path.join(out, 'onnx', 'model_quantized.onnx'))).toBe(false);
    expect(existsSync(path.join(out, 'onnx', 'model_quantized.onnx.part'))).toBe(false);
    expect(existsSync(path.join(out, CHECKSUMS_FILE))).toBe(false);
  });

  it('detects a corrupted regular (non-LFS) file by its git blob sha1', async () => {
    // Act / Assert
    await expect(
      pullModel({ repo: 'cross-encoder/corrupted-config', destination: out, variant: 'quantized', endpoint: hub.endpoint }),
    ).rejects.toThrow(/tokenizer\.json: git-sha1 mismatch/);
  });

  it('says clearly when the repository does not exist', async () => {
    // Act
    const pulling = pullModel({ repo: 'cross-encoder/no-such-model', destination: out, endpoint: hub.endpoint });

    // Assert
    await expect(pulling).rejects.toBeInstanceOf(RepoNotFoundError);
    await expect(pulling).rejects.toThrow(`repository cross-encoder/no-such-model (revision main) not found on ${hub.endpoint} (HTTP 404)`);
  });

  it('names the ONNX files the repo does have when the asked variant is missing', async () => {
    // Act / Assert
    await expect(pullModel({ repo: 'cross-encoder/fixture', destination: out, variant: 'fp32', endpoint: hub.endpoint })).rejects.toThrow(
      new MissingModelFileError(
        'cross-encoder/fixture has no fp32 ONNX graph (looked for onnx/model.onnx, model.onnx; ONNX files in the repo: onnx/model_quantized.onnx)',
      ),
    );
  });

  it('runs as npm run model:pull with progress output and a clear exit status', async () => {
    // Arrange
    const run = promisify(execFile);
    const cli = path.resolve('scripts/model/pull/model-pull-cli.ts');
    const env = { ...process.env, HF_ENDPOINT: hub.endpoint };

    // Act
    const ok = await run(process.execPath, ['--import', 'tsx', cli, 'cross-encoder/fixture', '--variant', 'int8', '--out', out], { env });
    const missing = await run(process.execPath, ['--import', 'tsx', cli, 'cross-encoder/nope', '--out', out], { env }).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );

    // Assert
    expect(ok.stdout).toContain(`commit ${COMMIT}`);
    expect(ok.stderr).toMatch(/onnx\/model_quantized\.onnx {2}[\d.]+ MB \/ [\d.]+ MB {2}100%/);
    expect(ok.stderr).toContain('sha256 verified');
    expect(existsSync(path.join(out, CHECKSUMS_FILE))).toBe(true);
    expect(missing).toMatchObject({ code: 1 });
    expect((missing as { stderr: string }).stderr).toContain('model:pull: repository cross-encoder/nope (revision main) not found');
  });
});
