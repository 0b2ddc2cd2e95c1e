import type { ServiceConfig } from '../config/service-config.js';
import { awsBackend } from './aws-backend.js';
import type { Backend } from './backend.js';
import { localBackend } from './local-backend.js';

/** The backend switch, so no other module picks one: AWS (DynamoDB, SQS, S3) or local (memory, in-process queues, a folder) for `npm start`. */
export function createBackend(config: ServiceConfig): Backend {
  return config.jobs.backend === 'aws' ? awsBackend(config) : localBackend(config);
}
