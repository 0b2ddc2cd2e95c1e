import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageHandler, imageModule, SCORER_DOCKERFILE } from '../../infra/packaging/scorer-image.js';
import { cfnLint } from './support/cfn-lint.js';
import { parseDockerfile } from './support/dockerfile.js';
import { httpApiEvent, invokeBundle, sqsEvent } from './support/invoke-bundle.js';
import { expectScorerBundleLayout } from './support/lambda-bundle.js';
import {
  functionAssets,
  PROJECT_ROOT,
  removeScratchDirs,
  synthRerankStack,
  type FunctionAsset,
  type SynthResult,
} from './support/synth-rerank.js';

/**
 * `rerank:packaging=image`: the scoring functions run from one container image holding what their zips hold.
 * Synth stages the build context (no Docker here: `cdk deploy` builds the image); these tests prove the template,
 * the staged context against the Dockerfile, and that each function's image command loads and answers from it.
 * One bundled synth for this machine's architecture with the small TinyBERT fixture, and one template-only zip
 * synth of the same configuration to compare with.
 */
const nodeArch = process.arch === 'arm64' ? 'arm64' : 'x64';
const context = {
  'rerank:architecture': nodeArch === 'arm64' ? 'arm64' : 'x86_64',
  'rerank:models': 'fixture=models/tinybert-l2-fixture,bm25=lexical',
};
const ENTRIES = {
  Api: 'functions/api/handler.ts',
  Worker: 'functions/workers/task-worker.ts',
  DeadLetter: 'functions/workers/dead-letter.ts',
  // Each queue pair's functions run the same two handler files.
  BatchWorker: 'functions/workers/task-worker.ts',
  BatchDeadLetter: 'functions/workers/dead-letter.ts',
} as const;
const SCORERS = Object.keys(ENTRIES) as (keyof typeof ENTRIES)[];
type Props = Record<string, unknown>;

let image: SynthResult;
let zip: SynthResult;
let assets: Record<keyof typeof ENTRIES, FunctionAsset>;

const functionProps = (synth: SynthResult, name: string): Props => {
  const found = Object.entries(synth.template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(`${name}Function`));
  expect(found, `one ${name} function`).toHaveLength(1);
  return (found[0]![1] as { Properties: Props }).Properties;
};

const without = (props: Props, keys: readonly string[]): Props =>
  Object.fromEntries(Object.entries(props).filter(([key]) => !keys.includes(key)));
const assetManifest = () =>
  JSON.parse(readFileSync(path.join(image.outdir, `${image.stack.stackName}.assets.json`), 'utf8')) as {
    dockerImages: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
  };
const imageAssetHash = (): string => {
  const hashes = Object.keys(assetManifest().dockerImages);
  expect(hashes).toHaveLength(1);
  return hashes[0]!;
};
const commandOf = (props: Props): string[] => (props['ImageConfig'] as { Command: string[] }).Command;

beforeAll(() => {
  image = synthRerankStack({ bundle: true, context: { ...context, 'rerank:packaging': 'image' } });
  zip = synthRerankStack({ bundle: false, context: { ...context, 'rerank:packaging': 'zip' } });
  const all = functionAssets(image.outdir, image.templateJson);
  const find = (name: string): FunctionAsset => all.find((a) => a.logicalId.startsWith(`${name}Function`))!;
  assets = {
    Api: find('Api'),
    Worker: find('Worker'),
    DeadLetter: find('DeadLetter'),
    BatchWorker: find('BatchWorker'),
    BatchDeadLetter: find('BatchDeadLetter'),
  };
}, 180_000);

afterAll(removeScratchDirs);

describe('scoring functions as a container image (rerank:packaging=image)', () => {
  it('are image functions of one image asset, each with its own command, and no runtime or handler', () => {
    expect(image.stack.packaging.packaging).toBe('image');
    const uris = new Set<string>();
    for (const name of SCORERS) {
      const props = functionProps(image, name);
      expect(props['PackageType'], name).toBe('Image');
      expect(props['Runtime'], name).toBeUndefined();
      expect(props['Handler'], name).toBeUndefined();
      expect(commandOf(props), name).toEqual([imageHandler(ENTRIES[name])]);
      // The bootstrap's container-assets repository, tagged with the image asset's hash (what cdk deploy pushes).
      const uri = JSON.stringify((props['Code'] as { ImageUri: unknown }).ImageUri);
      expect(uri, name).toContain('container-assets-${AWS::AccountId}-${AWS::Region}');
      expect(uri, name).toContain(`:${imageAssetHash()}`);
      uris.add(uri);
    }
    expect(uris.size).toBe(1);
    // The edge authorizer carries no model: it stays a zip.
    expect(functionProps(image, 'EdgeAuth')['Runtime']).toBe('nodejs24.x');
  });

  it('keep everything but the code as the zip functions have it: env, role, logs, tracing, concurrency, arch, memory, timeout', () => {
    for (const name of SCORERS) {
      const imageProps = functionProps(image, name);
      const zipProps = functionProps(zip, name);
      expect(zipProps['Runtime']).toBe('nodejs24.x');
      expect(without(imageProps, ['Code', 'PackageType', 'ImageConfig'])).toEqual(without(zipProps, ['Code', 'Handler', 'Runtime']));
      expect(Object.keys(imageProps)).toEqual(
        expect.arrayContaining([
          'Environment',
          'Role',
          'LoggingConfig',
          'TracingConfig',
          'ReservedConcurrentExecutions',
          'Architectures',
          'MemorySize',
          'Timeout',
        ]),
      );
    }
    const env = (functionProps(image, 'Api')['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(env['RERANK_MODELS']).toBe('fixture=models/fixture,bm25=lexical');
    expect(env['RERANK_THREADS']).toBe('2');
  });

  it('publish one image for the functions architecture, from a staged folder with the Dockerfile', () => {
    const images = Object.values(assetManifest().dockerImages);
    expect(images).toHaveLength(1);
    const { source } = images[0]!;
    expect(source.platform).toBe(nodeArch === 'arm64' ? 'linux/arm64' : 'linux/amd64');
    expect(path.resolve(image.outdir, source.directory)).toBe(assets.Api.dir);
    expect(readFileSync(path.join(assets.Api.dir, source.dockerFile ?? 'Dockerfile'), 'utf8')).toBe(
      readFileSync(path.join(PROJECT_ROOT, SCORER_DOCKERFILE), 'utf8'),
    );
    // The staging folder was removed once CDK had copied it into the assembly.
    expect(readdirSync(image.outdir).filter((f) => f.startsWith('rerank-image-staging'))).toEqual([]);
  });

  it('stage every bundle, one linux/<arch> onnxruntime, models/<id>, and every path the Dockerfile copies', () => {
    const dir = assets.Api.dir;
    expect(new Set(Object.values(assets).map((a) => a.dir)).size).toBe(1);
    expectScorerBundleLayout(assets.Api, nodeArch, 'models/fixture', Object.values(ENTRIES).map(imageModule));
    expect(existsSync(path.join(dir, 'models', 'fixture', 'config.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'index.mjs'))).toBe(false);
    const dockerfile = parseDockerfile(readFileSync(path.join(dir, 'Dockerfile'), 'utf8'));
    for (const source of dockerfile.copySources) expect(existsSync(path.join(dir, source)), `COPY ${source}`).toBe(true);
  });

  it('run as their image commands name them: the API scores with the fixture, the worker and dead-letter consumer take a chunk', () => {
    const command = (name: keyof typeof ENTRIES): string => commandOf(functionProps(image, name))[0]!;
    const { results, ortEntry } = invokeBundle(
      assets.Api,
      [
        httpApiEvent('POST', '/v1/rerank', {
          model: 'fixture',
          query: 'python http library',
          documents: ['urllib does HTTP', 'bananas'],
          top_n: 1,
        }),
      ],
      command('Api'),
    );
    expect(ortEntry.startsWith(path.join(assets.Api.dir, 'node_modules', 'onnxruntime-node'))).toBe(true);
    const response = results[0] as { statusCode: number; body: string };
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      model: 'fixture',
      results: [expect.objectContaining({ index: expect.any(Number) })],
    });
    const chunk = { jobId: 'job-1', chunkIndex: 0, offset: 0, model: 'fixture', query: 'q', documents: ['a', 'b'] };
    expect(invokeBundle(assets.Worker, [sqsEvent(chunk)], command('Worker')).results[0]).toEqual({ batchItemFailures: [] });
    expect(invokeBundle(assets.DeadLetter, [sqsEvent({ jobId: 'job-1', chunkIndex: 0 }, 3)], command('DeadLetter')).results[0]).toEqual({
      batchItemFailures: [],
    });
  });

  it('pass cfn-lint (W3005 ignored: CDK writes redundant DependsOn)', (ctx) => {
    const lint = cfnLint(image.outdir, image.stack.stackName);
    if (lint === 'not-installed') return ctx.skip('cfn-lint not installed (it is required when CI=true)');
    expect(lint.status, lint.output).toBe(0);
  }, 240_000);
});
