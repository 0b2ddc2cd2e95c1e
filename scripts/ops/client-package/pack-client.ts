/**
 * `npm run client:pack [-- --out <dir>]`: the client SDK (shared/client) as an npm package another project installs -
 * compiled to JavaScript with type declarations, its own package.json, README and LICENSE, no dependencies - packed by
 * `npm pack` into <dir> (default dist/, which git ignores: nothing lands untracked in the repository). Prints the path.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Builds and packs into `destination`; returns the .tgz path. The build folder is removed afterwards. */
export function packClient(destination: string): string {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines?: unknown };
  const build = mkdtempSync(join(tmpdir(), 'rerank-client-build-'));
  try {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'shared/client/tsconfig.build.json'), '--outDir', join(build, 'dist')], {
      stdio: 'inherit',
    });
    const manifest = {
      name: 'rerank-service-client',
      version: root.version,
      description: 'Client for the rerank service: OpenAI-compatible, DashScope and chat-based rerank dialects, async jobs',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      types: './dist/index.d.ts',
      files: ['dist', 'README.md', 'LICENSE'],
      engines: root.engines,
      license: 'Apache-2.0',
    };
    writeFileSync(join(build, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(join(ROOT, 'shared/client/README.md'), join(build, 'README.md'));
    copyFileSync(join(ROOT, 'LICENSE'), join(build, 'LICENSE'));
    mkdirSync(destination, { recursive: true });
    const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: build, encoding: 'utf8' });
    return join(destination, out.trim().split('\n').at(-1) ?? '');
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  // `--out <dir>`; a bare directory (the older spelling) is still read.
  const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
  console.log(packClient(resolve(values.out ?? positionals[0] ?? join(ROOT, 'dist'))));
}
