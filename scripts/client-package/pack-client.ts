/**
 * `npm run client:pack [-- <dest dir>]`: the client SDK (shared/client) as an npm package another project installs -
 * compiled to JavaScript with type declarations, its own package.json, no dependencies - packed by `npm pack`.
 * Prints the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Builds and packs into `destination`; returns the .tgz path. The build folder is removed afterwards. */
export function packClient(destination: string): string {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines?: unknown };
  const build = mkdtempSync(join(tmpdir(), 'rerank-client-build-'));
  try {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'shared/client/tsconfig.build.json'), '--outDir', join(build, 'dist')], { stdio: 'inherit' });
    const manifest = {
      name: 'rerank-service-client',
      version: root.version,
      description: 'Client for the rerank service: OpenAI-compatible, DashScope and chat-based rerank dialects, async jobs',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      types: './dist/index.d.ts',
      files: ['dist'],
      engines: root.engines,
      license: 'Apache-2.0',
    };
    writeFileSync(join(build, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: build, encoding: 'utf8' });
    return join(destination, out.trim().split('\n').at(-1) ?? '');
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(packClient(resolve(process.argv[2] ?? '.')));
}
