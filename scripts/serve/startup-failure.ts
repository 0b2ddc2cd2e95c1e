import { ConfigError } from '../../shared/config/service-config.js';
import { ModelFolderError } from '../../shared/scoring/model-folder.js';
import { ModelPullError } from '../../shared/scoring/model-pull/index.js';

/** Where `npm start` was asked to listen, for the one line a listen failure gets. */
export interface ListenTarget {
  readonly port: number;
  readonly host: string;
}

const errnoCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;

/**
 * The one line `npm start` prints for a failure the person starting it can fix (a setting, a model,
 * a port), instead of a stack trace; undefined for anything else, which is a bug and keeps its stack.
 */
export function startupFailureLine(error: unknown, target: ListenTarget): string | undefined {
  if (error instanceof ConfigError) return `configuration: ${error.message} (docs/configuration.md lists every setting)`;
  if (error instanceof ModelPullError) return `model:pull: ${error.message}`;
  if (error instanceof ModelFolderError) return `RERANK_MODELS: ${error.message}`;
  const where = `${target.host}:${target.port}`;
  switch (errnoCode(error)) {
    case 'EADDRINUSE':
      return `port ${target.port} is already in use on ${target.host}: stop what listens there, or start on another port, e.g. PORT=${target.port + 1} npm start`;
    case 'EACCES':
      return `not allowed to listen on ${where} (ports below 1024 need privileges): start on another port, e.g. PORT=3000 npm start`;
    case 'ERR_SOCKET_BAD_PORT':
      return `PORT must be a whole number from 0 to 65535, got '${process.env['PORT'] ?? ''}'`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `cannot listen on ${where}: HOST is not an address of this machine (HOST=127.0.0.1 or HOST=0.0.0.0)`;
    default:
      return undefined;
  }
}
