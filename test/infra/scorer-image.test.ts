import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCORER_DOCKERFILE } from '../../infra/packaging/scorer-image.js';
import { httpApiEvent, invokeBundle, sqsEvent } from './support/invoke-bundle.js';
import { expectScorerBundleLayout } from './support/lambda-bundle.js';
import { parseDockerfile } from './support/dockerfile.js';
import { functionAssets, PROJECT_ROOT, removeScratchDirs, synthRerankStack, type FunctionAsset, type SynthResult } from './support/synth-rerank.js';

/**
 * `rerank:packaging=image`: the scoring functions become container images built from the zip's exact contents.
 * Synth stages the build context (no Docker here: the image itself is built by `cdk deploy`); these tests prove the
 * template, the staged context against the Dockerfile, and that the staged code runs as the image's CMD names it.
 * One bundled synth for this machine's architecture, with the small TinyBERT fixture, and one template-only zip synth
 * of the same configuration to compare with.
 */
const nodeArch = process.arch === 'arm64' ? 'arm64' : 'x64';
const context = {
  'rerank:architecture': nodeArch === 'arm64' ? 'arm64' : 'x86_64',
  'rerank:models': 'fixture=models/tinybert-l2-fixture,bm25=lexical',
};
const SCORERS = ['Api', 'Worker', 'DeadLetter'] as const;
type Props = Record<string, unknown>;

let image: SynthResult;
let zip: SynthResult;
let assets: Record<(typeof SCORERS)[number], FunctionAsset>;

const functionProps = (synth: SynthResult, name: string): Props => {
  const found = Object.entries(synth.template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(`${name}Function`));
  expect(found, `one ${name} function`).toHaveLength(1);
  return (found[0]![1] as { Properties: Props }).Properties;
};

const without = (props: Props, keys: readonly string[]): Props => Object.fromEntries(Object.entries(props).filter(([key]) => !keys.includes(key)));

beforeAll(() => {
  image = synthRerankStack({ bundle: true, context: { ...context, 'rerank:packaging': 'image' } });
  zip = synthRerankStack({ bundle: false, context: { ...context, 'rerank:packaging': 'zip' } });
  const all = functionAssets(image.outdir, image.templateJson);
  const find = (name: string): FunctionAsset => all.find((a) => a.logicalId.startsWith(`${name}Function`))!;
  assets = { Api: find('Api'), Worker: find('Worker'), DeadLetter: find('DeadLetter') };
}, 180_000);

afterAll(removeScratchDirs);

describe('scoring functions as container images (rerank:packaging=image)', () => {
  it('are image functions from an asset, with no runtime or handler', () => {
    expect(image.stack.packaging.packaging).toBe('image');
    for (const name of SCORERS) {
      const props = functionProps(image, name);
      expect(props['PackageType'], name).toBe('Image');
      expect(props['Runtime'], name).toBeUndefined();
      expect(props['Handler'], name).toBeUndefined();
      // The bootstrap's container-assets repository, tagged with the asset's hash.
      const uri = JSON.stringify((props['Code'] as { ImageUri: unknown }).ImageUri);
      expect(uri, name).toMatch(/container-assets-\$\{AWS::AccountId\}-\$\{AWS::Region\}:[0-9a-f]{64}/);
    }
    // The edge authorizer carries no model: it stays a zip.
    expect(functionProps(image, 'EdgeAuth')['Runtime']).toBe('nodejs24.x');
  });

  it('keep everything but the code as the zip functions have it: env, role, logs, tracing, concurrency, arch, memory, timeout', () => {
    for (const name of SCORERS) {
      const imageProps = functionProps(image, name);
      const zipProps = functionProps(zip, name);
      expect(zipProps['Runtime']).toBe('nodejs24.x');
      expect(without(imageProps, ['Code', 'PackageType'])).toEqual(without(zipProps, ['Code', 'Handler', 'Runtime']));
      expect(Object.keys(imageProps)).toEqual(
        expect.arrayContaining(['Environment', 'Role', 'LoggingConfig', 'TracingConfig', 'ReservedConcurrentExecutions', 'Architectures', 'MemorySize', 'Timeout']),
      );
    }
    const env = (functionProps(image, 'Api')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(env['RERANK_MODELS']).toBe('fixture=models/fixture,bm25=lexical');
    expect(env['RERANK_THREADS']).toBe('2');
  });

  it('publish an image per function for the function architecture, from a staged folder with the Dockerfile', () => {
    const manifest = JSON.parse(readFileSync(path.join(image.outdir, `${image.stack.stackName}.assets.json`), 'utf8')) as {
      dockerImages: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
    };
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(3);
    for (const { source } of images) {
      expect(source.platform).toBe(nodeArch === 'arm64' ? 'linux/arm64' : 'linux/amd64');
      expect(existsSync(path.join(image.outdir, source.directory, source.dockerFile ?? 'Dockerfile'))).toBe(true);
    }
    // The staging folders were removed once CDK had copied them into the assembly.
    expect(readdirSync(image.outdir).filter((f) => f.startsWith('rerank-image-staging'))).toEqual([]);
  });

  it('stage the zip layout (index.mjs, one linux/<arch> onnxruntime, models/<id>) and every path the Dockerfile copies', () => {
    const dockerfile = parseDockerfile(readFileSync(path.join(PROJECT_ROOT, SCORER_DOCKERFILE), 'utf8'));
    for (const name of SCORERS) {
      const asset = assets[name];
      expect(readFileSync(path.join(asset.dir, 'Dockerfile'), 'utf8')).toBe(readFileSync(path.join(PROJECT_ROOT, SCORER_DOCKERFILE), 'utf8'));
      expectScorerBundleLayout(asset, nodeArch, 'models/fixture');
      expect(existsSync(path.join(asset.dir, 'models', 'fixture', 'config.json'))).toBe(true);
      for (const source of dockerfile.copySources) expect(existsSync(path.join(asset.dir, source)), `${name}: COPY ${source}`).toBe(true);
    }
  });

  it("run as the image's CMD names them: the API scores with the fixture, the worker scores a chunk", () => {
    const dockerfile = parseDockerfile(readFileSync(path.join(PROJECT_ROOT, SCORER_DOCKERFILE), 'utf8'));
    // CMD ["index.handler"]: the module index(.mjs) in LAMBDA_TASK_ROOT and its export `handler`, which invokeBundle calls.
    expect(dockerfile.cmd).toEqual(['index.handler']);
    expect(existsSync(path.join(assets.Api.dir, 'index.mjs'))).toBe(true);
    const { results, ortEntry } = invokeBundle(assets.Api, [
      httpApiEvent('POST', '/v1/rerank', { model: 'fixture', query: 'python http library', documents: ['urllib does HTTP', 'bananas'], top_n: 1 }),
    ]);
    expect(ortEntry.startsWith(path.join(assets.Api.dir, 'node_modules', 'onnxruntime-node'))).toBe(true);
    const response = results[0] as { statusCode: number; body: string };
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ model: 'fixture', results: [expect.objectContaining({ index: expect.any(Number) })] });
    const chunk = { jobId: 'job-1', chunkIndex: 0, offset: 0, model: 'fixture', query: 'q', documents: ['a', 'b'] };
    expect(invokeBundle(assets.Worker, [sqsEvent(chunk)]).results[0]).toEqual({ batchItemFailures: [] });
  });
});
