import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { API_KEY_PATTERN, apiKeyDigest } from '../../../shared/auth/api-key.js';
import { cleanServerEnv } from '../../support/start-dev-server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = 'scripts/ops/keys/keys-cli.ts';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `npm run keys -- ...` the way npm does (tsx), from the project root, without throwing on a non-zero exit. */
export async function runKeysCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { ...cleanServerEnv(), ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/**
 * create -> list -> revoke -> list through the CLI against one target, asserting the key is printed once (by
 * create) and appears nowhere else: not in list output, not in what the target stored (`storedText`).
 */
export async function assertKeysCliRoundTrip(
  target: readonly string[],
  storedText: () => Promise<string>,
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const name = `round trip ${Date.now()}`;
  const created = await runKeysCli(
    ['create', '--name', name, '--rate', '30', '--max-jobs', '2', '--max-queued-pairs', '7000', ...target],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toMatch(/shown only once/);
  const key = created.stdout.match(/rk-[0-9A-Za-z]{40}/)?.[0] ?? '';
  expect(key).toMatch(API_KEY_PATTERN);
  const keyId = created.stdout.match(/id ([0-9a-f]{16})/)?.[1] ?? '';
  expect(keyId).toBe(apiKeyDigest(key).slice(0, 16));

  const listed = await runKeysCli(['list', ...target], env);
  expect(listed.code, listed.stderr).toBe(0);
  const row = listed.stdout.split('\n').find((line) => line.startsWith(keyId)) ?? '';
  expect(row).toContain(name);
  expect(row).toContain(key.slice(0, 6));
  expect(row).toMatch(/\s30\s+2\s+7000$/);
  expect(row).toMatch(/\s-\s/); // not revoked

  const json = await runKeysCli(['list', '--json', ...target], env);
  expect(JSON.parse(json.stdout)).toContainEqual(
    expect.objectContaining({ keyId, name, rateLimitPerMinute: 30, maxConcurrentJobs: 2, maxQueuedPairs: 7000 }),
  );

  const revoked = await runKeysCli(['revoke', keyId, ...target], env);
  expect(revoked.code, revoked.stderr).toBe(0);
  expect((await runKeysCli(['revoke', keyId, ...target], env)).code).toBe(1);
  const after = await runKeysCli(['list', ...target], env);
  const revokedRow = after.stdout.split('\n').find((line) => line.startsWith(keyId)) ?? '';
  expect(revokedRow).toMatch(/\d{4}-\d\d-\d\dT[\d:]+Z\s+\d{4}-\d\d-\d\dT[\d:]+Z/);

  const stored = await storedText();
  expect(stored).toContain(apiKeyDigest(key));
  for (const text of [listed.stdout, listed.stderr, json.stdout, revoked.stdout, after.stdout, stored]) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(3));
  }
}
