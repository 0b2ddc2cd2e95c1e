import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured logger per process. Callers log ids, counts and timings - never document text,
 * queries or credentials.
 */
export const logger = new Logger({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'rerank' });
