import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'rerank-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Exit code and output of one of the repo's own tool binaries. */
async function tool(name: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(join(ROOT, 'node_modules/.bin', name), args, { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('npm run lint', () => {
  it('runs the format check, then ESLint', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['lint']).toBe('biome format . && eslint .');
  });

  it('fails on an unformatted file under the repo formatter settings, and passes it once formatted', async () => {
    // The repo's biome.json in a folder of its own (no git there, so no ignore file to read).
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
    delete config['$schema'];
    writeFileSync(join(scratch, 'biome.json'), JSON.stringify({ ...config, vcs: { enabled: false } }));
    writeFileSync(join(scratch, 'messy.ts'), 'export const a = {b:1,\n  c: "two"}\n');
    const messy = await tool('biome', ['format', '.'], scratch);
    expect(messy.code).toBe(1);
    expect(messy.output).toMatch(/messy\.ts/);
    writeFileSync(join(scratch, 'messy.ts'), "export const a = { b: 1, c: 'two' };\n");
    expect((await tool('biome', ['format', '.'], scratch)).code).toBe(0);
  }, 60_000);

  it('fails on a suppression that no longer matches, so a fix must prune its entry', async () => {
    const suppressions = join(scratch, 'eslint-suppressions.json');
    writeFileSync(suppressions, JSON.stringify({ 'shared/core/normalize-results.ts': { 'max-lines': { count: 1 } } }));
    const stale = await tool('eslint', ['--suppressions-location', suppressions, 'shared/core/normalize-results.ts'], ROOT);
    expect(stale.code).toBe(2);
    expect(stale.output).toMatch(/suppressions left that do not occur anymore/);
  }, 120_000);
});
