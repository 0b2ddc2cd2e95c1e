import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../../scripts/support/list-files.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const SOURCE_DIRS = ['shared', 'functions', 'infra', 'scripts', 'test'];
/** Relative module specifiers: static imports and re-exports, side-effect imports, `import(...)`. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.[^']+)'/g;

/** Every scripts/ file some source file of the repository imports (so it is a module, not something a person runs). */
function importedFiles(): Set<string> {
  const sources = [...listFiles(ROOT, SOURCE_DIRS, (name) => /\.(ts|js|mjs)$/.test(name)), 'vitest.config.ts', 'eslint.config.js'];
  const imported = new Set<string>();
  for (const file of sources) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      imported.add(normalize(join(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'))));
    }
  }
  return imported;
}

/** What a person (or CI) runs: every .py and .sh under scripts/, and every .ts there no file imports. */
function entryScripts(): string[] {
  const imported = importedFiles();
  return listFiles(ROOT, ['scripts'], (name) => /\.(ts|py|sh)$/.test(name)).filter(
    (file) => !file.endsWith('.ts') || !imported.has(normalize(file)),
  );
}

describe('scripts/ index', () => {
  it('names every entry script in package.json, docs/development.md or scripts/README.md', () => {
    const index = ['package.json', 'docs/development.md', 'scripts/README.md']
      .map((file) => readFileSync(join(ROOT, file), 'utf8'))
      .join('\n');
    const entries = entryScripts();
    // A scan that found nothing would pass while checking nothing.
    expect(entries).toContain('scripts/serve/dev-server.ts');
    expect(entries).toContain('scripts/model/golden.py');
    expect(entries.filter((file) => !index.includes(file))).toEqual([]);
  });

  it('bench/README.md indexes every report in bench/', () => {
    const index = readFileSync(join(ROOT, 'bench/README.md'), 'utf8');
    const reports = readdirSync(join(ROOT, 'bench'), { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'README.md' && entry.name !== 'out')
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    expect(reports).toContain('report.md');
    expect(reports.filter((report) => !index.includes(`](${report})`))).toEqual([]);
  });

  it('eval/README.md indexes every report in eval/', () => {
    const index = readFileSync(join(ROOT, 'eval/README.md'), 'utf8');
    const reports = readdirSync(join(ROOT, 'eval')).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect(reports).toContain('fine-tuning.md');
    expect(reports.filter((report) => !index.includes(`](${report})`))).toEqual([]);
  });

  it("docs/development.md's layout names every top-level folder of shared/, one line each", () => {
    const layout = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
    const folders = readdirSync(join(ROOT, 'shared'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders).toContain('core');
    expect(folders.filter((folder) => !new RegExp(`^  ${folder}/ +\\S`, 'm').test(layout))).toEqual([]);
  });
});
