import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadServiceConfig } from '../../../../shared/config/service-config.js';
import {
  isCompletePull,
  ModelPullError,
  modelCacheDir,
  PROVENANCE_FILE,
  resolveHubModels,
  type ResolveHubModelsOptions,
} from '../../../../shared/scoring/model-pull/index.js';
import { loadOnnxCrossEncoder } from '../../../../shared/scoring/onnx-cross-encoder.js';
import { FIXTURE_MODEL_DIR, loadGolden } from '../fixture-model.js';
import { startFakeHub, type FakeHub } from './fake-hub-server.js';
import { FIXTURE_COMMIT, fixtureHubRepo } from './fixture-hub-repo.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A fetch that fails the test if anything asks the network. */
const noNetwork: typeof fetch = (input) => Promise.reject(new Error(`unexpected request: ${String(input)}`));

describe('Hub repo ids in a RERANK_MODELS spec', () => {
  let hub: FakeHub;
  let cacheDir: string;
  const options = (overrides: Partial<ResolveHubModelsOptions> = {}): ResolveHubModelsOptions => ({
    root: PROJECT_ROOT,
    cacheDir,
    endpoint: hub.endpoint,
    ...overrides,
  });

  beforeAll(async () => {
    hub = await startFakeHub({ 'cross-encoder/fixture': fixtureHubRepo() });
  });
  afterAll(async () => {
    await hub.close();
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'rerank-model-cache-'));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('pulls a missing repo into its cache folder and lists that folder, leaving other entries as written', async () => {
    // Act
    const spec = await resolveHubModels('mini=hf:cross-encoder/fixture:quantized,bm25=lexical,blend=hybrid:mini+bm25', options());

    // Assert
    const folder = path.join(cacheDir, 'cross-encoder', 'fixture', 'main', 'quantized');
    expect(spec).toBe(`mini=${folder},bm25=lexical,blend=hybrid:mini+bm25`);
    expect(loadServiceConfig({ RERANK_MODELS: spec, RERANK_CODE_ROOT: PROJECT_ROOT }).models[0]).toEqual({
      id: 'mini',
      kind: 'folder',
      folder,
    });
    expect(JSON.parse(readFileSync(path.join(folder, PROVENANCE_FILE), 'utf8'))).toMatchObject({
      repo: 'cross-encoder/fixture',
      commit: FIXTURE_COMMIT,
    });
    expect(existsSync(path.join(folder, 'README.md'))).toBe(false);
    // The cached folder is a model the scorer runs: the fixture's golden logit, through the pulled copy.
    const golden = loadGolden().cases[0]!;
    const scorer = await loadOnnxCrossEncoder({ id: 'mini', folder, threads: 1 });
    try {
      const result = await scorer.score(golden.query, [golden.document]);
      expect(Math.abs(result.scores[0]! - golden.logit)).toBeLessThan(1e-4);
    } finally {
      await scorer.close();
    }
  });

  it('resolves a cached repo with no request at all, even with the hub gone', async () => {
    // Arrange
    const ownHub = await startFakeHub({ 'cross-encoder/fixture': fixtureHubRepo() });
    const first = await resolveHubModels('mini=hf:cross-encoder/fixture:quantized', options({ endpoint: ownHub.endpoint }));
    await ownHub.close();

    // Act
    const second = await resolveHubModels(
      'mini=hf:cross-encoder/fixture:quantized',
      options({ endpoint: ownHub.endpoint, fetch: noNetwork }),
    );

    // Assert
    expect(second).toBe(first);
  });

  it('pulls an incomplete cached folder again, keeping the LFS files whose sha256 still matches', async () => {
    // Arrange
    const spec = await resolveHubModels('mini=hf:cross-encoder/fixture:quantized', options());
    const folder = spec.slice('mini='.length);
    writeFileSync(path.join(folder, 'tokenizer_config.json'), '{"truncated":');
    expect(await isCompletePull(folder, 'cross-encoder/fixture')).toBe(false);
    const before = hub.requests.length;

    // Act
    await resolveHubModels('mini=hf:cross-encoder/fixture:quantized', options());

    // Assert
    expect(await isCompletePull(folder, 'cross-encoder/fixture')).toBe(true);
    const fetched = hub.requests.slice(before).filter((r) => r.includes('/resolve/'));
    expect(fetched).toContain(`GET /cross-encoder/fixture/resolve/${FIXTURE_COMMIT}/tokenizer_config.json`);
    expect(fetched).not.toContain(`GET /cross-encoder/fixture/resolve/${FIXTURE_COMMIT}/onnx/model_quantized.onnx`);
  });

  it("keeps one folder per revision and variant, and names the entry in model:pull's error for a variant the repo lacks", async () => {
    // Act
    const spec = await resolveHubModels(`a=hf:cross-encoder/fixture@${FIXTURE_COMMIT}:int8,b=hf:cross-encoder/fixture`, options()).catch(
      (e: unknown) => e,
    );

    // Assert: int8 falls back to model_quantized.onnx (as model:pull); fp32 is not published, model:pull's error names the entry.
    expect(spec).toBeInstanceOf(ModelPullError);
    expect((spec as Error).message).toBe(
      "RERANK_MODELS entry 'b=hf:cross-encoder/fixture': cross-encoder/fixture has no fp32 ONNX graph (looked for onnx/model.onnx, model.onnx; ONNX files in the repo: onnx/model_quantized.onnx)",
    );
    expect(await isCompletePull(path.join(cacheDir, 'cross-encoder', 'fixture', FIXTURE_COMMIT, 'int8'), 'cross-encoder/fixture')).toBe(
      true,
    );
  });

  it("fails with model:pull's error for a repo the hub does not have", async () => {
    await expect(resolveHubModels('x=hf:org/nope', options())).rejects.toThrow(
      new ModelPullError(
        `RERANK_MODELS entry 'x=hf:org/nope': repository org/nope (revision main) not found on ${hub.endpoint} (HTTP 404); check the id, or set HF_TOKEN for a private or gated repository`,
      ),
    );
  });

  it('reads a bare owner/name as a folder when it exists under the root, as a Hub repo otherwise', async () => {
    // Act
    const folderFirst = await resolveHubModels(
      'xlmr=models/xlmr-fixture,fixture=models/tinybert-l2-fixture',
      options({ fetch: noNetwork }),
    );
    const pulled = await resolveHubModels('mini=cross-encoder/fixture:quantized', options());
    const neither = resolveHubModels('x=models/not-pulled-yet', options());

    // Assert
    expect(folderFirst).toBe('xlmr=models/xlmr-fixture,fixture=models/tinybert-l2-fixture');
    expect(pulled).toBe(`mini=${path.join(cacheDir, 'cross-encoder', 'fixture', 'main', 'quantized')}`);
    await expect(neither).rejects.toThrow(
      `RERANK_MODELS entry 'x=models/not-pulled-yet' is no model folder (there is no ${path.join(PROJECT_ROOT, 'models', 'not-pulled-yet')}), and as a Hub repo id: repository models/not-pulled-yet (revision main) not found`,
    );
  });

  it.each([
    [
      'x=no-such-folder',
      /'x=no-such-folder' is neither a model folder \(there is no .*no-such-folder\) nor a Hub repo id \(hf:owner\/name\[@revision\]\[:variant\]\)/,
    ],
    ['x=hf:just-a-name', /'x=hf:just-a-name' must be x=hf:owner\/name\[@revision\]\[:variant\]/],
    ['x=hf:org/a:fp16', /variant 'fp16' cannot be served: a model folder loads fp32, quantized, int8, uint8/],
    ['x=hf:org/a@refs//pr', /has an empty, '\.' or '\.\.' part/],
    ['x=hf:org/..', /has an empty, '\.' or '\.\.' part/],
  ])('rejects %s naming the entry, before any request', async (spec, message) => {
    const result = resolveHubModels(spec, options({ fetch: noNetwork }));
    await expect(result).rejects.toThrow(ConfigError);
    await expect(resolveHubModels(spec, options({ fetch: noNetwork }))).rejects.toThrow(message);
  });

  it('a spec that still names a Hub repo is refused by the synchronous parse, not read as a folder', () => {
    expect(() => loadServiceConfig({ RERANK_MODELS: 'x=hf:org/a', RERANK_CODE_ROOT: FIXTURE_MODEL_DIR })).toThrow(
      /is a Hub repo id that was not pulled/,
    );
  });
});

describe('modelCacheDir', () => {
  it('is RERANK_MODEL_CACHE, else under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(modelCacheDir({ RERANK_MODEL_CACHE: '/srv/models', XDG_CACHE_HOME: '/x', HOME: '/home/u' })).toBe('/srv/models');
    expect(modelCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/home/u' })).toBe('/x/rerank-service/models');
    expect(modelCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/rerank-service/models');
  });
});
