import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { DocumentedBlock } from './documented-commands.js';
import { cleanServerEnv } from './start-dev-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * Runs a documented client snippet as a reader pastes it, against `baseUrl` instead of http://localhost:3000, with
 * RERANK_KEY set: Python with python3; TypeScript type-checked as a reader's strict project would, then run. Its
 * scratch folder is under the checkout (gitignored), so the snippet finds the project's node_modules. Answers stdout.
 */
export async function runClientSnippet(block: DocumentedBlock, baseUrl: string, key: string): Promise<string> {
  const work = join(ROOT, '.tmp');
  mkdirSync(work, { recursive: true });
  const dir = mkdtempSync(join(work, 'docs-clients-'));
  const env = { ...cleanServerEnv(), RERANK_KEY: key };
  const text = block.text.replaceAll('http://localhost:3000', baseUrl);
  try {
    if (block.lang === 'python') {
      writeFileSync(join(dir, 'client.py'), text);
      return (await run('python3', ['client.py'], { cwd: dir, env })).stdout;
    }
    writeFileSync(join(dir, 'client.mts'), text);
    const strict = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, ...strict, '--skipLibCheck', '--types', 'node', 'client.mts'], { cwd: dir, env });
    return (await run(process.execPath, ['--import', 'tsx', 'client.mts'], { cwd: dir, env })).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
