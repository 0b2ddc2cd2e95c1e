import { fileURLToPath } from 'node:url';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';

/**
 * The scoring functions' Node runtime. The zip functions run it as a managed runtime; the container image's base
 * (container/Dockerfile) must be the same major, which a test checks.
 */
export const SCORER_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** `nodejs24.x` -> 24. */
export function runtimeMajor(runtime: lambda.Runtime): number {
  const match = /^nodejs(\d+)\./.exec(runtime.name);
  if (!match) throw new Error(`${runtime.name} is not a Node.js runtime`);
  return Number(match[1]);
}

// ESM output keeps the code's `import.meta` and top-level await; bundled CommonJS dependencies still call require().
const ESM_REQUIRE_BANNER =
  "import { createRequire as __rerankCreateRequire } from 'node:module'; const require = __rerankCreateRequire(import.meta.url);";

/**
 * Node built-ins the bundle reaches through a CommonJS shim (lazy-builtins/) instead of an ESM import. An ESM bundle
 * keeps every `import` of a built-in at its top, so the AWS SDK's and the X-Ray SDK's would load node:http and
 * node:https at every cold start even though their own code is initialized only at a first AWS call (aws-backend.ts):
 * importing node:http as ESM reads each of its exports, which loads Node's bundled fetch (undici), ~0.1 s of CPU, and
 * node:https loads TLS. Through the shim they load where the code that needs them is first evaluated.
 */
export const LAZY_BUILTINS: Readonly<Record<string, string>> = Object.fromEntries(
  ['http', 'https'].flatMap((name) => {
    const shim = fileURLToPath(new URL(`./lazy-builtins/node-${name}.cjs`, import.meta.url));
    return [
      [`node:${name}`, shim],
      [name, shim],
    ];
  }),
);

/**
 * One esbuild configuration for both packagings, so a container image runs the code a zip would: ESM for the
 * runtime's Node, minified with source maps, onnxruntime-node external (its pruned copy is added beside the bundle).
 * The AWS SDK is bundled: the deployed code runs the SDK versions the tests ran, not the runtime's copy.
 */
export const SCORER_ESBUILD = {
  target: `node${runtimeMajor(SCORER_RUNTIME)}`,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  externalModules: ['onnxruntime-node'],
  alias: LAZY_BUILTINS,
  /** The file NodejsFunction writes for ESM: the zip functions' handler is `index.handler`. */
  outFile: 'index.mjs',
} as const;

/**
 * NODE_OPTIONS of the scoring functions by default: none. `--enable-source-maps` makes Node read the bundle's 2 MB
 * source map at import, ~80-100 ms of CPU on every cold start (bench/cold-start-split.md); the bundle keeps its .map
 * file, so a minified stack trace from the logs can still be mapped by hand, and SOURCE_MAPS_CONTEXT turns it on.
 */
export const SCORER_NODE_OPTIONS = '';

/** Context key that turns source-mapped stack traces on in the scoring functions (`-c rerank:sourceMaps=true`). */
export const SOURCE_MAPS_CONTEXT = 'rerank:sourceMaps';

/** NODE_OPTIONS for the context's value (absent = off); a value other than true / false fails synth naming the key. */
export function scorerNodeOptions(sourceMaps: unknown): string {
  if (sourceMaps === undefined || sourceMaps === false || sourceMaps === 'false') return SCORER_NODE_OPTIONS;
  if (sourceMaps === true || sourceMaps === 'true') return '--enable-source-maps';
  throw new Error(`${SOURCE_MAPS_CONTEXT} must be true or false, got ${JSON.stringify(sourceMaps)}`);
}

/** The same options for esbuild's own API, as NodejsFunction passes them to the esbuild CLI. */
export function scorerEsbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: SCORER_ESBUILD.target,
    outfile,
    mainFields: [...SCORER_ESBUILD.mainFields],
    banner: { js: SCORER_ESBUILD.banner },
    minify: SCORER_ESBUILD.minify,
    sourcemap: SCORER_ESBUILD.sourceMap,
    sourcesContent: SCORER_ESBUILD.sourcesContent,
    external: [...SCORER_ESBUILD.externalModules],
    alias: { ...SCORER_ESBUILD.alias },
    logLevel: 'warning',
  };
}
