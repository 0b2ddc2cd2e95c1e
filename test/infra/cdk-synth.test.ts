import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfnLint } from './support/cfn-lint.js';
import { expectScorerBundleLayout, expectWithinLambdaLimits } from './support/lambda-bundle.js';
import { PROJECT_ROOT, functionAssets, removeScratchDirs, scratchDir } from './support/synth-rerank.js';

/**
 * `cdk synth` exactly as CI and a deployer run it (the pinned 2.x CLI, cdk.json, esbuild bundling, CDK's own
 * template validation with errors on), with no AWS credentials and every proxy pointing at a closed port:
 * anything that tried the network would fail. Then cfn-lint and the Lambda size limits on its output.
 */
let outdir: string;
let templateJson: Record<string, unknown>;
let synth: { status: number | null; output: string };

function offlineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^AWS_|^CDK_/.test(key) && !/proxy$/i.test(key)) env[key] = value;
  }
  const deadProxy = 'http://127.0.0.1:9';
  return {
    ...env,
    HTTP_PROXY: deadProxy,
    HTTPS_PROXY: deadProxy,
    http_proxy: deadProxy,
    https_proxy: deadProxy,
    NO_PROXY: '',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_CONFIG_FILE: '/dev/null',
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
  };
}

beforeAll(() => {
  outdir = scratchDir('rerank-cdk-cli-');
  const cli = path.join(PROJECT_ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk');
  const result = spawnSync(process.execPath, [cli, 'synth', '--quiet', '--no-notices', '--output', outdir], {
    cwd: PROJECT_ROOT,
    env: offlineEnv(),
    encoding: 'utf8',
    timeout: 240_000,
  });
  synth = { status: result.status, output: `${result.stdout}\n${result.stderr}` };
  if (result.status === 0) templateJson = JSON.parse(readFileSync(path.join(outdir, 'Rerank-dev.template.json'), 'utf8'));
}, 300_000);

afterAll(removeScratchDirs);

describe('cdk synth (pinned 2.x CLI, offline, no credentials)', () => {
  it('synthesizes the stack from cdk.json', () => {
    expect(synth.status, synth.output.slice(-4000)).toBe(0);
    expect(synth.output).not.toMatch(/\[Warning\]|Template validation found issues/);
    const functions = functionAssets(outdir, templateJson);
    // Five scoring functions (API, the chunk queue's worker and dead-letter consumer, the batch task queue's) and the
    // edge authorizer; cdk-nag's packs ran in the synth (infra/app.ts) and passed.
    expect(functions).toHaveLength(6);
  });

  it('keeps every function within the Lambda zip limits (250 MB unzipped, 50 MB zipped)', () => {
    const sizes = expectWithinLambdaLimits(functionAssets(outdir, templateJson));
    // Pruned to one platform the ONNX runtime is ~25 MB (arm64), far from the ~290 MB of all platforms.
    for (const size of sizes) expect(size.unzippedMb, size.logicalId).toBeLessThan(100);
    expect(sizes.find((s) => s.logicalId.startsWith('EdgeAuth'))!.unzippedMb).toBeLessThan(5);
  });

  it('ships only linux/arm64 onnxruntime binaries and the model folder in every function', () => {
    const scorers = functionAssets(outdir, templateJson).filter((a) => !a.logicalId.startsWith('EdgeAuth'));
    expect(scorers).toHaveLength(5);
    for (const asset of scorers) expectScorerBundleLayout(asset, 'arm64', 'models/tinybert-l2-fixture');
  });

  it('passes cfn-lint (W3005 ignored: CDK writes redundant DependsOn)', (ctx) => {
    const lint = cfnLint(outdir, 'Rerank-dev');
    if (lint === 'not-installed') return ctx.skip('cfn-lint not installed (it is required when CI=true)');
    expect(lint.status, lint.output).toBe(0);
    // cfn-lint takes about a minute on this template on a busy 2-core machine.
  }, 240_000);
});
