import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPathEscapes, findScriptEscapes, findTsEscapes } from '../../support/paths-outside-repo.js';

// A user's clone has nothing beside it: no test, script or library file may read above the repository root.
const ROOT = resolve(import.meta.dirname, '../../..');

describe('paths inside the repository', () => {
  it('no file in test/, scripts/, shared/, functions/ or infra/ resolves a path above the root', () => {
    expect(findPathEscapes(ROOT, ['test', 'scripts', 'shared', 'functions', 'infra'])).toEqual([]);
  });

  it('catches the forms such a path takes in TypeScript', () => {
    const file = resolve(ROOT, 'test/support/fixture.ts');
    const code = [
      "import { join, resolve } from 'node:path';",
      "export const SPECS = resolve(import.meta.dirname, '../../../shared/specs');",
      "const ROOT = resolve(import.meta.dirname, '../..');",
      "export const SEEDS = join(ROOT, '..', 'shared', 'seeds');",
      "export const CWD = resolve(process.cwd(), '../shared');",
      "export const URL_FORM = new URL('../../../shared/x.json', import.meta.url);",
      // Inside the root, or not known statically (temp folders, the home directory): never reported.
      "export const FIXTURES = resolve(ROOT, 'test/fixtures');",
      "export const TEMP = join(tmpdir(), '..', 'x');",
    ].join('\n');
    expect(findTsEscapes(ROOT, file, code).map((e) => [e.line, e.resolvesTo])).toEqual([
      [2, '../shared/specs'],
      [4, '../shared/seeds'],
      [5, '../shared'],
      [6, '../shared/x.json'],
    ]);
  });

  it('catches them in Python and shell scripts', () => {
    const py = [
      'ROOT = Path(__file__).resolve().parents[2]',
      'UP = Path(__file__).resolve().parents[3]',
      'SPECS = ROOT / ".." / "shared"',
      'OK = ROOT / "models"',
    ].join('\n');
    expect(findScriptEscapes(ROOT, resolve(ROOT, 'scripts/model/x.py'), py).map((e) => [e.line, e.resolvesTo])).toEqual([
      [2, '..'],
      [3, '../shared'],
    ]);
    expect(
      findScriptEscapes(ROOT, resolve(ROOT, 'scripts/ci/x.sh'), 'cd "$(dirname "$0")/../.."\ncd "$(dirname "$0")/../../..\n').map(
        (e) => e.line,
      ),
    ).toEqual([2]);
  });
});
