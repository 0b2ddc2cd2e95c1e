import { existsSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFolders, bundledModelsSpec, DeployModelsError, resolveDeployHubModels } from '../../infra/config/rerank-models.js';
import { readRerankSettings } from '../../infra/config/rerank-settings.js';
import { addRerankStack } from '../../infra/rerank-app.js';
import { ModelPullError } from '../../shared/scoring/model-pull/index.js';
import { startFakeHub, type FakeHub } from '../unit/scoring/model-pull/fake-hub-server.js';
import { FIXTURE_COMMIT, fixtureHubRepo } from '../unit/scoring/model-pull/fixture-hub-repo.js';
import { httpApiEvent, invokeBundle } from './support/invoke-bundle.js';
import { cdkJsonContext, functionAssets, PROJECT_ROOT, removeScratchDirs, scratchDir } from './support/synth-rerank.js';

/** Progress and "pulling ..." lines, as a deployer's terminal (not a TTY: one line per 10%) would get them. */
function captureStream(): { write(text: string): boolean; readonly text: () => string } {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text) > 0, text: () => chunks.join('') };
}

let hub: FakeHub;
beforeAll(async () => {
  hub = await startFakeHub({ 'cross-encoder/fixture': fixtureHubRepo() });
});
afterAll(async () => {
  await hub.close();
  removeScratchDirs();
});

const envFor = (cacheDir: string, endpoint = hub.endpoint) => ({
  RERANK_MODEL_CACHE: cacheDir,
  HF_ENDPOINT: endpoint,
  HOME: '/nonexistent',
});

describe('rerank:models with Hub repo ids (resolved before the settings are read)', () => {
  it('pulls a missing repo with model:pull progress, then deploys its cached folder like any folder', async () => {
    // Arrange
    const cacheDir = scratchDir('rerank-hub-cache-');
    const progress = captureStream();
    const context: Record<string, unknown> = {
      ...cdkJsonContext(),
      'rerank:models': 'mini=hf:cross-encoder/fixture:quantized,bm25=lexical',
    };

    // Act
    const resolved = await resolveDeployHubModels((key) => context[key], { projectRoot: PROJECT_ROOT, env: envFor(cacheDir), progress });
    const { deployModels } = readRerankSettings(resolved);

    // Assert
    const folder = path.join(cacheDir, 'cross-encoder', 'fixture', 'main', 'quantized');
    expect(bundledModelsSpec(deployModels)).toBe('mini=models/mini,bm25=lexical');
    expect(bundledFolders(deployModels)).toEqual([{ id: 'mini', source: folder, target: 'models/mini' }]);
    expect(progress.text()).toContain(`pulling cross-encoder/fixture@main (quantized) from ${hub.endpoint} into ${folder}\n`);
    expect(progress.text()).toMatch(/onnx\/model_quantized\.onnx {2}[\d.]+ MB \/ [\d.]+ MB {2}100%/);
    expect(progress.text()).toContain('sha256 verified');
  });

  it('stays offline once the folder is cached: the same settings with the hub stopped, and nothing printed', async () => {
    // Arrange
    const cacheDir = scratchDir('rerank-hub-cache-');
    const ownHub = await startFakeHub({ 'cross-encoder/fixture': fixtureHubRepo() });
    const context: Record<string, unknown> = {
      ...cdkJsonContext(),
      'rerank:models': `mini=hf:cross-encoder/fixture@${FIXTURE_COMMIT}:int8`,
    };
    const first = await resolveDeployHubModels((key) => context[key], {
      projectRoot: PROJECT_ROOT,
      env: envFor(cacheDir, ownHub.endpoint),
      progress: captureStream(),
    });
    await ownHub.close();
    const progress = captureStream();

    // Act
    const second = await resolveDeployHubModels((key) => context[key], {
      projectRoot: PROJECT_ROOT,
      env: envFor(cacheDir, ownHub.endpoint),
      progress,
    });

    // Assert
    expect(readRerankSettings(second).deployModels).toEqual(readRerankSettings(first).deployModels);
    expect(progress.text()).toBe('');
  });

  it('deploys a legacy rerank:modelFolder naming a repo under the repo name', async () => {
    // Arrange
    const context: Record<string, unknown> = { ...cdkJsonContext(), 'rerank:modelFolder': 'hf:cross-encoder/fixture:quantized' };

    // Act
    const resolved = await resolveDeployHubModels((key) => context[key], {
      projectRoot: PROJECT_ROOT,
      env: envFor(scratchDir('rerank-hub-cache-')),
      progress: captureStream(),
    });

    // Assert
    expect(bundledModelsSpec(readRerankSettings(resolved).deployModels)).toBe('fixture=models/fixture');
  });

  it("fails with model:pull's message for a repo the hub does not have, and with a DeployModelsError for an entry that is nothing", async () => {
    // Arrange
    const read = (models: string) => (key: string) => ({ ...cdkJsonContext(), 'rerank:models': models })[key];
    const options = { projectRoot: PROJECT_ROOT, env: envFor(scratchDir('rerank-hub-cache-')), progress: captureStream() };

    // Act / Assert
    await expect(resolveDeployHubModels(read('x=hf:org/nope'), options)).rejects.toThrow(ModelPullError);
    await expect(resolveDeployHubModels(read('x=hf:org/nope'), options)).rejects.toThrow(
      `RERANK_MODELS entry 'x=hf:org/nope': repository org/nope (revision main) not found on ${hub.endpoint}`,
    );
    await expect(resolveDeployHubModels(read('x=nothing-here'), options)).rejects.toThrow(DeployModelsError);
    await expect(resolveDeployHubModels(read('x=nothing-here'), options)).rejects.toThrow(
      /^rerank:models: RERANK_MODELS entry 'x=nothing-here' is neither a model folder/,
    );
  });
});

describe('synth of rerank:models=mini=hf:<repo> (infra/app.ts path, bundled)', () => {
  let asset: ReturnType<typeof functionAssets>[number];

  beforeAll(async () => {
    const outdir = scratchDir('rerank-cdk-hub-');
    const context = {
      ...cdkJsonContext(),
      'rerank:models': 'mini=hf:cross-encoder/fixture:quantized,bm25=lexical,blend=hybrid:mini+bm25',
      'rerank:architecture': process.arch === 'arm64' ? 'arm64' : 'x86_64',
      'aws:cdk:enable-asset-metadata': true,
    };
    const app = new App({ outdir, context, builtinCloudFormationValidation: false });
    const stack = await addRerankStack(app, {
      projectRoot: PROJECT_ROOT,
      env: envFor(scratchDir('rerank-hub-cache-')),
      progress: captureStream(),
    });
    const templateJson = app.synth().getStackByName(stack.stackName).template as Record<string, unknown>;
    asset = functionAssets(outdir, templateJson).find((a) => a.logicalId.startsWith('ApiFunction'))!;
  }, 180_000);

  it('gives the functions the spec with the pulled model under models/<id>, carried in the bundle', () => {
    expect(asset.environment['RERANK_MODELS']).toBe('mini=models/mini,bm25=lexical,blend=hybrid:mini+bm25');
    for (const file of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx', 'model-pull.json', 'checksums.sha256']) {
      expect(existsSync(path.join(asset.dir, 'models', 'mini', file)), file).toBe(true);
    }
  });

  it('the bundled API function serves the pulled model as its default', () => {
    const { results } = invokeBundle(asset, [
      httpApiEvent('POST', '/v1/rerank', {
        query: 'python http library',
        documents: ['urllib is a built-in Python library for HTTP requests', 'bananas'],
      }),
    ]);
    const response = results[0] as { statusCode: number; body: string };
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ model: 'mini', results: [expect.any(Object), expect.any(Object)] });
  });
});
