import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertKeysCliRoundTrip, runKeysCli } from './keys-cli-round-trip.js';

describe('npm run keys (local key file)', () => {
  it('creates, lists and revokes; the key is printed once and stored nowhere', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rerank-keys-cli-')), '.rerank', 'keys.json');
    await assertKeysCliRoundTrip(['--file', file], async () => readFileSync(file, 'utf8'));
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('explains itself and refuses bad usage with exit code 2', async () => {
    const help = await runKeysCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/create --name <name>/);
    expect(help.stdout).toMatch(/--table <name>/);
    const file = join(mkdtempSync(join(tmpdir(), 'rerank-keys-cli-')), 'keys.json');
    for (const args of [['create', '--file', file], ['create', '--name', 'x', '--rate', '0', '--file', file], ['frobnicate'], ['list', '--endpoint', 'http://x']]) {
      const result = await runKeysCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--help/);
    }
    expect((await runKeysCli(['revoke', 'ffffffffffffffff', '--file', file])).code).toBe(1);
  });
});
