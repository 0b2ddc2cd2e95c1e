import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { ModelPullError } from '../shared/scoring/model-pull/index.js';
import { DeployModelsError } from './config/rerank-models.js';
import { RerankSettingsError } from './config/rerank-settings.js';
import { addRerankStack } from './rerank-app.js';

/** Entry of `cdk synth|deploy` (cdk.json): see addRerankStack. */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  await addRerankStack(new App(), { projectRoot });
} catch (error) {
  // A deployer's mistake (bad context, a repo the hub does not have, a failed download) is one clear line and a
  // non-zero exit, as model:pull gives it; anything else is a bug and keeps its stack trace.
  if (!(error instanceof ModelPullError || error instanceof DeployModelsError || error instanceof RerankSettingsError)) throw error;
  console.error(error instanceof ModelPullError ? `model:pull: ${error.message}` : error.message);
  // exit() rather than exitCode: the App would otherwise synthesize an empty assembly on the way out.
  process.exit(1);
}
