import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import {
  type FunctionAsset,
  LAMBDA_UNZIPPED_LIMIT,
  LAMBDA_ZIPPED_LIMIT,
  MB,
  listFiles,
  unzippedBytes,
  zippedBytesEstimate,
} from './synth-rerank.js';

export interface AssetSize {
  readonly logicalId: string;
  readonly unzippedMb: number;
  /** Upper bound (the unzipped size) unless the code is near the zipped limit, then a deflate estimate. */
  readonly zippedMb: number;
}

/** Fails when a function's code (no function here has layers; any would be counted too) is over Lambda's zip limits. */
export function expectWithinLambdaLimits(assets: readonly FunctionAsset[]): AssetSize[] {
  expect(assets.length).toBeGreaterThan(0);
  return assets.map((asset) => {
    expect(asset.layers, `${asset.logicalId} layers would count against the limit`).toEqual([]);
    const unzipped = unzippedBytes(asset.dir);
    // A zip is never much larger than its content: deflating (seconds per function) only matters near the limit.
    const zipped = unzipped < LAMBDA_ZIPPED_LIMIT * 0.95 ? unzipped : zippedBytesEstimate(asset.dir);
    expect(unzipped, `${asset.logicalId} unzipped bytes`).toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
    expect(zipped, `${asset.logicalId} zipped bytes (estimate)`).toBeLessThan(LAMBDA_ZIPPED_LIMIT);
    return { logicalId: asset.logicalId, unzippedMb: +(unzipped / MB).toFixed(1), zippedMb: +(zipped / MB).toFixed(1) };
  });
}

/**
 * The bundle holds its module(s) (index.mjs in a zip, functions/**.mjs in the image), onnxruntime-node with exactly one
 * platform (linux/<arch>) and the model folder.
 */
export function expectScorerBundleLayout(
  asset: FunctionAsset,
  nodeArch: 'x64' | 'arm64',
  modelFolder: string,
  modules: readonly string[] = ['index.mjs'],
): void {
  for (const module of modules) expect(existsSync(path.join(asset.dir, module)), module).toBe(true);
  const ortBin = path.join(asset.dir, 'node_modules', 'onnxruntime-node', 'bin');
  const platforms = readdirSync(ortBin).flatMap((napi) =>
    readdirSync(path.join(ortBin, napi)).flatMap((os) => readdirSync(path.join(ortBin, napi, os)).map((arch) => `${os}/${arch}`)),
  );
  expect(platforms).toEqual([`linux/${nodeArch}`]);
  const files = listFiles(asset.dir).map((f) => path.relative(asset.dir, f));
  expect(files.filter((f) => /\.(dll|dylib)$/.test(f))).toEqual([]);
  expect(files).toContain(path.join('node_modules', 'onnxruntime-node', 'package.json'));
  expect(files).toContain(path.join('node_modules', 'onnxruntime-common', 'package.json'));
  for (const file of ['config.json', 'tokenizer.json']) expect(files).toContain(path.join(modelFolder, file));
  expect(files.some((f) => f.startsWith(modelFolder) && f.endsWith('.onnx'))).toBe(true);
}
