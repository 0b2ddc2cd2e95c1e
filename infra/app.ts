import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { readRerankSettings } from './config/rerank-settings.js';
import { addNagPacks } from './nag/nag-packs.js';
import { RerankStack } from './stacks/rerank-stack.js';

/** Entry of `cdk synth|deploy` (cdk.json): context -> validated settings -> one stack per stage. */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = new App();
// cdk-nag's AwsSolutions and Serverless packs: an unacknowledged finding fails synth.
addNagPacks(app);
const settings = readRerankSettings((key) => app.node.tryGetContext(key));

new RerankStack(app, `Rerank-${settings.stage}`, {
  settings,
  projectRoot,
  description: `Rerank service (${settings.stage}): HTTP API, ONNX scoring functions, SQS chunk queue, DynamoDB jobs table`,
  // Environment-agnostic unless the CLI names an account/region (cdk deploy does, from the profile).
  env: { account: process.env['CDK_DEFAULT_ACCOUNT'], region: process.env['CDK_DEFAULT_REGION'] },
});
