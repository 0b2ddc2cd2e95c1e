import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readRerankSettings } from '../../../infra/config/rerank-settings.js';
import { RerankStack } from '../../../infra/stacks/rerank-stack.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const scratchDirs: string[] = [];

/** A temporary folder removed by removeScratchDirs (assemblies hold ~100 MB of bundles each). */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

/** For afterAll in every test file that synthesizes or bundles. */
export function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The context the CLI would pass from cdk.json (an in-process App does not read cdk.json itself). */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

export interface SynthOptions {
  /** `rerank:*` overrides on top of cdk.json, as `-c` would give them. */
  readonly context?: Record<string, unknown>;
  /** Run esbuild and the packaging hooks (slow); off = assets are not built, the template is the same. */
  readonly bundle: boolean;
}

export interface SynthResult {
  readonly stack: RerankStack;
  readonly template: Template;
  readonly templateJson: Record<string, unknown>;
  /** The cloud assembly folder (outside the checkout, so a bundle cannot resolve the project's node_modules). */
  readonly outdir: string;
}

/** One in-process synth of the stack, with the CloudFormation validation left to `cdk synth` and cfn-lint. */
export function synthRerankStack(options: SynthOptions): SynthResult {
  const outdir = scratchDir('rerank-cdk-');
  const context: Record<string, unknown> = {
    ...cdkJsonContext(),
    ...options.context,
    'aws:cdk:enable-asset-metadata': true,
    ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
  };
  const app = new App({ outdir, context, builtinCloudFormationValidation: false });
  const settings = readRerankSettings((key) => app.node.tryGetContext(key));
  const stack = new RerankStack(app, `Rerank-${settings.stage}`, { settings, projectRoot: PROJECT_ROOT });
  const assembly = app.synth();
  const templateJson = assembly.getStackByName(stack.stackName).template as Record<string, unknown>;
  return { stack, template: Template.fromJSON(templateJson), templateJson, outdir };
}

export interface FunctionAsset {
  readonly logicalId: string;
  readonly dir: string;
  readonly environment: Record<string, unknown>;
  readonly layers: readonly unknown[];
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> }>;

/** Each Lambda function's code folder in a synthesized assembly (from the aws:asset:path metadata). */
export function functionAssets(outdir: string, templateJson: Record<string, unknown>): FunctionAsset[] {
  return Object.entries(templateJson['Resources'] as Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
    .map(([logicalId, resource]) => {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (typeof assetPath !== 'string') throw new Error(`${logicalId} has no aws:asset:path metadata`);
      const environment = (resource.Properties?.['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      return { logicalId, dir: path.resolve(outdir, assetPath), environment, layers: (resource.Properties?.['Layers'] as unknown[]) ?? [] };
    });
}

export function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** What Lambda counts against the 250 MB limit: the unzipped bytes of the code (plus layers). */
export function unzippedBytes(dir: string): number {
  return listFiles(dir).reduce((sum, file) => sum + statSync(file).size, 0);
}

// Functions share most bytes (runtime, model): deflate each distinct content once.
const deflatedSizes = new Map<string, number>();

/** Close to the zip CDK uploads: deflated bytes plus zip's local and central headers per file. */
export function zippedBytesEstimate(dir: string): number {
  return listFiles(dir).reduce((sum, file) => {
    const content = readFileSync(file);
    const key = createHash('sha256').update(content).digest('hex');
    const deflated = deflatedSizes.get(key) ?? deflateRawSync(content, { level: 6 }).length;
    deflatedSizes.set(key, deflated);
    return sum + Math.min(deflated, content.length) + 30 + 46 + 2 * Buffer.byteLength(path.relative(dir, file));
  }, 22);
}

export const MB = 1024 * 1024;
/** Lambda zip package limits (layers included): 250 MB unzipped, 50 MB zipped for a direct upload. */
export const LAMBDA_UNZIPPED_LIMIT = 250 * MB;
export const LAMBDA_ZIPPED_LIMIT = 50 * MB;
