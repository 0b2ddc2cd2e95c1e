import { spawnSync } from 'node:child_process';

/**
 * Fails loudly when a server's runtime is missing. Tests must FAIL (not skip) on a machine without it:
 * CI machines have both, so a missing tool there is a broken machine, not an optional feature.
 */
export function requireTool(command: string, args: readonly string[], what: string, hint: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error !== undefined || result.status !== 0) {
    const detail = result.error?.message ?? (result.stderr || `exit code ${result.status}`).trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} is not available (${command} ${args.join(' ')}: ${detail}). ${hint}`);
  }
}
