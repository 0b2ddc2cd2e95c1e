import { execSync } from 'node:child_process';
import { closeSync, cpSync, ftruncateSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LAMBDA_IMAGE_LIMIT_BYTES,
  LAMBDA_UNZIPPED_LIMIT_BYTES,
  ScorerBundleError,
  locateOnnxRuntime,
  scorerBundleCommands,
} from '../../infra/packaging/scorer-bundle.js';
import { PROJECT_ROOT, removeScratchDirs, scratchDir } from './support/synth-rerank.js';

afterAll(removeScratchDirs);

const run = (commands: string[]) => {
  for (const command of commands) execSync(command, { shell: '/bin/bash', stdio: 'pipe' });
};
const bundleOptions = (outputDir: string) =>
  ({
    outputDir,
    projectRoot: PROJECT_ROOT,
    architecture: 'arm64',
    folders: [{ id: 'fixture', source: 'models/tinybert-l2-fixture', target: 'models/fixture' }],
  }) as const;

describe('scorer bundle packaging (afterBundling hook)', () => {
  it('finds a linux binary of onnxruntime-node for both Lambda architectures', () => {
    expect(locateOnnxRuntime(PROJECT_ROOT, 'arm64').binaryDirs).toEqual([expect.stringMatching(/^bin\/napi-v\d+\/linux\/arm64$/)]);
    expect(locateOnnxRuntime(PROJECT_ROOT, 'x86_64').binaryDirs).toEqual([expect.stringMatching(/^bin\/napi-v\d+\/linux\/x64$/)]);
  });

  it('copies the runtime JS, one platform binary and the model folder under models/<id>', () => {
    const out = scratchDir('rerank-hook-');
    run(scorerBundleCommands(bundleOptions(out)));
    expect(readdirSync(path.join(out, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6'))).toEqual(['linux']);
    expect(readdirSync(path.join(out, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', 'linux'))).toEqual(['arm64']);
    expect(readdirSync(path.join(out, 'models', 'fixture'))).toEqual(expect.arrayContaining(['config.json', 'tokenizer.json', 'onnx']));
  });

  it('fails bundling when the code would exceed 250 MB unzipped', () => {
    const out = scratchDir('rerank-hook-');
    const commands = scorerBundleCommands(bundleOptions(out));
    run(commands);
    // A sparse file: its apparent size counts, as it would once zipped and unpacked on Lambda.
    const fd = openSync(path.join(out, 'huge-model.onnx'), 'w');
    ftruncateSync(fd, LAMBDA_UNZIPPED_LIMIT_BYTES);
    closeSync(fd);
    expect(() => run(commands.slice(-1))).toThrow(/over the Lambda limit of 250 MB/);
  });

  it('hard-links the model files for an image staging folder, whose size guard is the 10 GB image limit', () => {
    // The model in a scratch folder on the staging folder's file system, so a link is possible.
    const model = path.join(scratchDir('rerank-hook-model-'), 'fixture');
    cpSync(path.join(PROJECT_ROOT, 'models/tinybert-l2-fixture'), model, { recursive: true });
    const out = scratchDir('rerank-hook-');
    const commands = scorerBundleCommands({
      ...bundleOptions(out),
      folders: [{ id: 'fixture', source: model, target: 'models/fixture' }],
      sizeLimitBytes: LAMBDA_IMAGE_LIMIT_BYTES,
      linkModels: true,
    });
    run(commands);
    for (const file of ['config.json', 'tokenizer.json']) {
      const staged = path.join(out, 'models', 'fixture', file);
      expect(statSync(staged).ino).toBe(statSync(path.join(model, file)).ino);
      expect(readFileSync(staged)).toEqual(readFileSync(path.join(model, file)));
    }
    // Over the zip's limit but within an image's: the guard passes.
    const fd = openSync(path.join(out, 'huge-model.onnx'), 'w');
    ftruncateSync(fd, LAMBDA_UNZIPPED_LIMIT_BYTES);
    closeSync(fd);
    expect(() => run(commands.slice(-1))).not.toThrow();
    expect(commands.at(-1)).toContain(String(LAMBDA_IMAGE_LIMIT_BYTES));
  });

  it('rejects a model folder that is not a Hugging Face folder', () => {
    expect(() =>
      scorerBundleCommands({ ...bundleOptions('/tmp/x'), folders: [{ id: 'x', source: 'models/no-such-model', target: 'models/x' }] }),
    ).toThrow(ScorerBundleError);
  });
});
