import { closeSync, cpSync, ftruncateSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRerankSettings, RerankSettingsError } from '../../infra/config/rerank-settings.js';
import { LAMBDA_UNZIPPED_LIMIT_BYTES } from '../../infra/packaging/scorer-bundle.js';
import { AUTO_HEADROOM_BYTES, choosePackaging, estimateUnzippedBytes } from '../../infra/packaging/scorer-packaging.js';
import { listFiles, PROJECT_ROOT, removeScratchDirs, scratchDir, synthRerankStack } from './support/synth-rerank.js';

afterAll(removeScratchDirs);

const MB = 1024 * 1024;
const FIXTURE = 'models/tinybert-l2-fixture';

/**
 * A model folder of `bytes` apparent size: the fixture's config and tokenizer, and a sparse model.onnx that takes no
 * disk (the estimate counts apparent sizes, as a zip would hold them).
 */
function bigModelFolder(bytes: number): string {
  const folder = path.join(scratchDir('rerank-big-model-'), 'big');
  cpSync(path.join(PROJECT_ROOT, FIXTURE), folder, { recursive: true, filter: (src) => !src.endsWith('.onnx') });
  mkdirSync(path.join(folder, 'onnx'), { recursive: true });
  const fd = openSync(path.join(folder, 'onnx', 'model.onnx'), 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return folder;
}

const functionOf = (resources: Record<string, { Properties: Record<string, unknown> }>, name: string) =>
  Object.entries(resources).find(([id]) => id.startsWith(`${name}Function`))![1].Properties;

describe('rerank:packaging', () => {
  it('is auto by default and accepts only auto, zip or image', () => {
    const settings = (packaging?: string) =>
      readRerankSettings(
        (key) => ({ 'rerank:alarmEmail': 'none', ...(packaging === undefined ? {} : { 'rerank:packaging': packaging }) })[key],
      );
    expect(settings().packaging).toBe('auto');
    expect(settings('image').packaging).toBe('image');
    expect(() => settings('docker')).toThrow(RerankSettingsError);
    expect(() => settings('docker')).toThrow(/rerank:packaging must be one of auto, zip, image/);
  });

  it('auto picks the image from the limit less the headroom; zip and image are taken as given', () => {
    const threshold = LAMBDA_UNZIPPED_LIMIT_BYTES - AUTO_HEADROOM_BYTES;
    expect(choosePackaging('auto', threshold - 1).packaging).toBe('zip');
    expect(choosePackaging('auto', threshold).packaging).toBe('image');
    expect(choosePackaging('auto', threshold).reason).toMatch(/over the zip's 225 MB/);
    expect(choosePackaging('zip', 10 * LAMBDA_UNZIPPED_LIMIT_BYTES).packaging).toBe('zip');
    expect(choosePackaging('image', 1).packaging).toBe('image');
  });

  it('estimates the zip from the model folders, the pruned runtime and the docs files, without reading them', () => {
    const fixtureOnly = estimateUnzippedBytes({
      projectRoot: PROJECT_ROOT,
      architecture: 'arm64',
      folders: [{ id: 'f', source: FIXTURE, target: 'models/f' }],
    });
    const fixtureBytes = listFiles(path.join(PROJECT_ROOT, FIXTURE)).reduce((sum, f) => sum + statSync(f).size, 0);
    // The arm64 runtime is ~25 MB, the docs files ~2 MB; x64's runtime is bigger.
    expect(fixtureOnly - fixtureBytes).toBeGreaterThan(20 * MB);
    expect(fixtureOnly - fixtureBytes).toBeLessThan(40 * MB);
    const x64 = estimateUnzippedBytes({
      projectRoot: PROJECT_ROOT,
      architecture: 'x86_64',
      folders: [{ id: 'f', source: FIXTURE, target: 'models/f' }],
    });
    expect(x64).toBeGreaterThan(fixtureOnly);
    const big = bigModelFolder(300 * MB);
    const withBig = estimateUnzippedBytes({
      projectRoot: PROJECT_ROOT,
      architecture: 'arm64',
      folders: [{ id: 'big', source: big, target: 'models/big' }],
    });
    expect(withBig).toBeGreaterThan(300 * MB);
  });

  it('auto keeps the default deployment (what npm start serves) in zips', () => {
    const { stack, templateJson } = synthRerankStack({ bundle: false });
    expect(stack.packaging.packaging).toBe('zip');
    const resources = templateJson['Resources'] as Record<string, { Properties: Record<string, unknown> }>;
    for (const name of ['Api', 'Worker', 'DeadLetter']) {
      expect(functionOf(resources, name)['Runtime']).toBe('nodejs24.x');
      expect(functionOf(resources, name)['PackageType']).toBeUndefined();
    }
  });

  it('auto turns a deployment whose model is over the zip limit into images, and says why at synth', () => {
    // A 300 MB fp32-sized model (sparse). Template only: bundling would hard-link it into the image's staging folder.
    const big = bigModelFolder(300 * MB);
    const { stack, templateJson, outdir } = synthRerankStack({ bundle: false, context: { 'rerank:models': `big=${big},bm25=lexical` } });
    expect(stack.packaging.packaging).toBe('image');
    expect(stack.packaging.reason).toMatch(/^rerank:packaging=auto: ~3\d\d MB .* container image$/);
    const resources = templateJson['Resources'] as Record<string, { Properties: Record<string, unknown> }>;
    for (const name of ['Api', 'Worker', 'DeadLetter']) {
      expect(functionOf(resources, name)['PackageType']).toBe('Image');
      expect((functionOf(resources, name)['Environment'] as { Variables: Record<string, string> }).Variables['RERANK_MODELS']).toBe(
        'big=models/big,bm25=lexical',
      );
    }
    const info = stack.node.metadata.filter((m) => m.type === 'aws:cdk:info').map((m) => String(m.data));
    expect(info).toContain(stack.packaging.reason);
    // Nothing of the model was written into the assembly.
    expect(listFiles(outdir).reduce((sum, f) => sum + statSync(f).size, 0)).toBeLessThan(5 * MB);
  });
});
