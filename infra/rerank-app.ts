import type { App } from 'aws-cdk-lib';
import { resolveDeployHubModels, type ResolveDeployHubOptions } from './config/rerank-models.js';
import { readRerankSettings } from './config/rerank-settings.js';
import { addNagPacks } from './nag/nag-packs.js';
import { RerankStack } from './stacks/rerank-stack.js';

export interface RerankAppOptions extends ResolveDeployHubOptions {
  readonly projectRoot: string;
  /** Account/region when the CLI names them (cdk deploy does, from the profile); otherwise environment-agnostic. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * What `cdk synth|deploy` builds (infra/app.ts): context -> Hub ids in rerank:models pulled into the model cache
 * (no network when cached) -> validated settings -> one stack per stage. Asynchronous only for the pull.
 */
export async function addRerankStack(app: App, options: RerankAppOptions): Promise<RerankStack> {
  const env = options.env ?? process.env;
  // cdk-nag's AwsSolutions and Serverless packs: an unacknowledged finding fails synth.
  addNagPacks(app);
  const context = await resolveDeployHubModels((key) => app.node.tryGetContext(key), { ...options, env });
  const settings = readRerankSettings(context);
  return new RerankStack(app, `Rerank-${settings.stage}`, {
    settings,
    projectRoot: options.projectRoot,
    description: `Rerank service (${settings.stage}): HTTP API, ONNX scoring functions, SQS chunk queue, DynamoDB jobs table`,
    env: { account: env['CDK_DEFAULT_ACCOUNT'], region: env['CDK_DEFAULT_REGION'] },
  });
}
