import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertKeysCliRoundTrip, runKeysCli } from './keys-cli-round-trip.js';

const scratchDirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'rerank-keys-cli-'));
  scratchDirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run keys (local key file)', () => {
  it('creates, lists and revokes; the key is printed once and stored nowhere', async () => {
    const file = join(scratch(), '.rerank', 'keys.json');
    await assertKeysCliRoundTrip(['--file', file], async () => readFileSync(file, 'utf8'));
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('without --file writes the file RERANK_KEYS_FILE names, as the server reads it', async () => {
    const file = join(scratch(), 'keys.json');

    const created = await runKeysCli(['create', '--name', 'from-env'], { RERANK_KEYS_FILE: file });

    expect(created.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('from-env');
  });

  it('--table without a region says where to give one (--region or AWS_REGION), with exit code 2', async () => {
    // No region anywhere in the AWS chain: no AWS_* variables (runKeysCli drops them) and no profile files.
    const home = scratch();
    const env = { HOME: home, AWS_CONFIG_FILE: join(home, 'config'), AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials') };
    const result = await runKeysCli(['list', '--table', 'Rerank-JobsTable'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--region <region>.*AWS_REGION/);
    expect(result.stderr).not.toMatch(/^keys: Region is missing$/m);
  });

  it('explains itself and refuses bad usage with exit code 2', async () => {
    const help = await runKeysCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/create --name <name>/);
    expect(help.stdout).toMatch(/--table <name>/);
    const file = join(scratch(), 'keys.json');
    for (const args of [
      ['create', '--file', file],
      ['create', '--name', 'x', '--rate', '0', '--file', file],
      ['frobnicate'],
      ['list', '--endpoint', 'http://x'],
    ]) {
      const result = await runKeysCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--help/);
    }
    expect((await runKeysCli(['revoke', 'ffffffffffffffff', '--file', file])).code).toBe(1);
  });
});
