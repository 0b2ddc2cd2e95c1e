import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DOCS_PACKAGE_FILES } from '../../shared/http/api-docs-page.js';

/** Lambda architecture name -> Node's `process.arch`, which names onnxruntime-node's binary folders. */
const NODE_ARCH = { arm64: 'arm64', x86_64: 'x64' } as const;

export type LambdaArchitectureName = keyof typeof NODE_ARCH;

export class ScorerBundleError extends Error {
  override readonly name = 'ScorerBundleError';
}

/** Where the ONNX runtime's files come from: the project's own node_modules (no network, the version tests ran). */
export interface OnnxRuntimeSource {
  readonly packageDir: string;
  readonly commonDir: string;
  /** `bin/napi-v*` folders relative to packageDir that hold a linux/<arch> binary. */
  readonly binaryDirs: readonly string[];
}

function packageRoot(entry: string, name: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === name && existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new ScorerBundleError(`cannot find the ${name} package folder above ${entry}`);
}

export function locateOnnxRuntime(projectRoot: string, architecture: LambdaArchitectureName): OnnxRuntimeSource {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  const packageDir = path.dirname(require.resolve('onnxruntime-node/package.json'));
  // onnxruntime-common's exports hide its package.json: resolve its entry and walk up to the package root.
  const commonDir = packageRoot(createRequire(path.join(packageDir, 'package.json')).resolve('onnxruntime-common'), 'onnxruntime-common');
  const arch = NODE_ARCH[architecture];
  const binRoot = path.join(packageDir, 'bin');
  const binaryDirs = readdirSync(binRoot)
    .filter((napi) => /^napi-v\d+$/.test(napi) && existsSync(path.join(binRoot, napi, 'linux', arch)))
    .map((napi) => path.join('bin', napi, 'linux', arch));
  if (binaryDirs.length === 0) {
    throw new ScorerBundleError(`onnxruntime-node in ${packageDir} ships no linux/${arch} binary for Lambda ${architecture}`);
  }
  return { packageDir, commonDir, binaryDirs };
}

/** Lambda's unzipped limit for a function's code plus layers (this code uses no layers). */
export const LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024;
/** Lambda's limit for a container image (uncompressed, base image included). */
export const LAMBDA_IMAGE_LIMIT_BYTES = 10 * 1024 * 1024 * 1024;

// Fails the bundling step itself, so `cdk synth`/`deploy` stops before uploading code Lambda would reject.
const SIZE_GUARD = [
  "const fs=require('fs'),p=require('path');let t=0;",
  'const walk=(d)=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const f=p.join(d,e.name);if(e.isDirectory())walk(f);else t+=fs.statSync(f).size;}};',
  'walk(process.argv[1]);const limit=Number(process.argv[2]);',
  "if(t>=limit){console.error('function code is '+(t/1048576).toFixed(1)+' MB unzipped, over the Lambda limit of '+(limit/1048576)+' MB: use a smaller (e.g. int8) model or a container image (rerank:packaging=image or auto)');process.exit(1);}",
].join('');

/**
 * GET /docs reads Swagger UI's script and styles at run time (not bundled by esbuild): copy just those
 * files (~2 MB of the package's ~10 MB) where the function's `createRequire` resolves them.
 */
function docsPageCommands(projectRoot: string, out: string): string[] {
  const source = path.dirname(createRequire(path.join(projectRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
  const target = path.join(out, 'node_modules', 'swagger-ui-dist');
  return [`mkdir -p ${quote(target)}`, ...DOCS_PACKAGE_FILES.map((file) => `cp ${quote(path.join(source, file))} ${quote(target)}/`)];
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Shell commands run after esbuild (commandHooks.afterBundling, local bundling, no Docker):
 * onnxruntime-node stays external and only its JS plus the one linux/<arch> binary are copied, not the
 * ~290 MB of every platform; each model folder is copied to models/<id> so RERANK_MODELS resolves it
 * against LAMBDA_TASK_ROOT exactly as the local server resolves it against the checkout.
 */
export function scorerBundleCommands(options: {
  readonly outputDir: string;
  readonly projectRoot: string;
  readonly architecture: LambdaArchitectureName;
  /** Model folders to copy: source (absolute or relative to the project root) -> target under the code root. */
  readonly folders: readonly { readonly id: string; readonly source: string; readonly target: string }[];
  /** The size guard's limit: the zip's 250 MB (default) or a container image's 10 GB. */
  readonly sizeLimitBytes?: number;
  /**
   * Hard-link model files instead of copying them (falling back to a copy across file systems): an image's staging
   * folder is read once by CDK's asset staging, so a 1 GB model need not be written twice.
   */
  readonly linkModels?: boolean;
}): string[] {
  const ort = locateOnnxRuntime(options.projectRoot, options.architecture);
  const out = options.outputDir;
  const copies = options.folders.map((folder) => {
    const source = path.resolve(options.projectRoot, folder.source);
    if (!existsSync(path.join(source, 'config.json'))) {
      throw new ScorerBundleError(
        `model folder ${source} (model ${folder.id}) has no config.json: rerank:models must name Hugging Face ONNX folders`,
      );
    }
    const target = path.join(out, folder.target);
    const copy = `cp -R ${quote(source)}/. ${quote(target)}/`;
    if (options.linkModels !== true) return [`mkdir -p ${quote(target)}`, copy];
    // `cp -l` is GNU; elsewhere (or across devices) it fails before linking anything, and the copy starts clean.
    return [
      `mkdir -p ${quote(target)}`,
      `cp -Rl ${quote(source)}/. ${quote(target)}/ 2>/dev/null || { rm -rf ${quote(target)} && mkdir -p ${quote(target)} && ${copy}; }`,
    ];
  });
  const ortOut = path.join(out, 'node_modules', 'onnxruntime-node');
  return [
    `mkdir -p ${quote(path.join(ortOut, 'dist'))}`,
    `cp ${quote(path.join(ort.packageDir, 'package.json'))} ${quote(ortOut)}/`,
    // Only the runtime JavaScript: no .d.ts, source maps, sources or install scripts.
    `cp ${quote(path.join(ort.packageDir, 'dist'))}/*.js ${quote(path.join(ortOut, 'dist'))}/`,
    ...ort.binaryDirs.flatMap((dir) => [
      `mkdir -p ${quote(path.join(ortOut, dir))}`,
      `cp -R ${quote(path.join(ort.packageDir, dir))}/. ${quote(path.join(ortOut, dir))}/`,
    ]),
    `mkdir -p ${quote(path.join(out, 'node_modules', 'onnxruntime-common'))}`,
    `cp -R ${quote(path.join(ort.commonDir, 'package.json'))} ${quote(path.join(ort.commonDir, 'dist'))} ${quote(path.join(out, 'node_modules', 'onnxruntime-common'))}/`,
    ...copies.flat(),
    ...docsPageCommands(options.projectRoot, out),
    `node -e ${quote(SIZE_GUARD)} ${quote(out)} ${options.sizeLimitBytes ?? LAMBDA_UNZIPPED_LIMIT_BYTES}`,
  ];
}
