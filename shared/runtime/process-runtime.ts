import { loadServiceConfig, type ServiceConfig } from '../config/service-config.js';
import { buildOnce } from './build-once.js';
import { createServiceRuntime, type ServiceRuntime } from './service-runtime.js';

/**
 * The process's whole runtime - configuration, models, storage, auth - for the functions that serve or score (the
 * API function, the chunk and batch workers, `npm start`). The dead-letter consumer and the authorizer take smaller
 * slices of the same builder (dead-letter-runtime.ts, authorizer-runtime.ts), so they never load a model.
 */
export const serviceRuntime: () => Promise<ServiceRuntime> = buildOnce(() => createServiceRuntime(processConfig ?? loadServiceConfig()));

let processConfig: ServiceConfig | undefined;

/**
 * The configuration this process serves with, when its starter resolved it (the dev server pulls hub models into
 * folders first) instead of the environment as it is: set before the first serviceRuntime() call, never by writing
 * process.env.
 */
export function configureProcessRuntime(config: ServiceConfig): void {
  processConfig = config;
}
