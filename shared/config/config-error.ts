/** A setting the operator can fix: start-up prints its message as one line (scripts/serve/startup-failure.ts). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
