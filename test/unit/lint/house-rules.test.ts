import { existsSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own eslint.config.js on virtual files: the size budgets and the comment wording must bite on new code.
const eslint = new ESLint({ cwd: process.cwd() });

// Loading the TypeScript parser and config takes seconds on a busy machine.
const SLOW = 60_000;

async function ruleHits(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

/** A function of `lines` lines, its signature and closing brace included (what the rule counts). */
const longFunction = (lines: number): string =>
  `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;

/** A file of `count` one-line declarations. */
const longFile = (count: number): string => Array.from({ length: count }, (_, i) => `export const c${i} = ${i};\n`).join('');

describe('the size budgets', () => {
  it(
    'fail a new shared/, functions/ or infra/ file over 300 lines, and not one of 300',
    async () => {
      expect(await ruleHits('shared/core/fixture.ts', longFile(301))).toEqual(['max-lines']);
      expect(await ruleHits('functions/api/fixture.ts', longFile(301))).toEqual(['max-lines']);
      expect(await ruleHits('infra/constructs/fixture.ts', longFile(301))).toEqual(['max-lines']);
      expect(await ruleHits('shared/core/fixture.ts', longFile(300))).toEqual([]);
    },
    SLOW,
  );

  it(
    'fail a new function over 60 lines, counting neither blank lines nor comments',
    async () => {
      expect(await ruleHits('shared/jobs/fixture.ts', longFunction(61))).toEqual(['max-lines-per-function']);
      expect(await ruleHits('shared/jobs/fixture.ts', longFunction(60))).toEqual([]);
      const airy = longFunction(60).replace('  return n;', '\n  // a comment\n\n  /* another */\n  return n;');
      expect(await ruleHits('shared/jobs/fixture.ts', airy)).toEqual([]);
    },
    SLOW,
  );

  it(
    'leave tests and scripts out',
    async () => {
      expect(await ruleHits('test/unit/fixture.test.ts', longFile(400) + longFunction(100))).toEqual([]);
      expect(await ruleHits('scripts/measure/fixture.ts', longFile(400) + longFunction(100))).toEqual([]);
    },
    SLOW,
  );
});

describe('the comment wording rule', () => {
  const refused = [
    'THE queue',
    'the ONE place',
    'see issue 45',
    'issue #12 measured it',
    'As before, we retry',
    'before this change it threw',
    'the old form',
  ];

  it(
    'refuses history and "THE" in comments of product code, line and block alike',
    async () => {
      for (const words of refused) {
        expect(await ruleHits('shared/core/fixture.ts', `// ${words}\nexport const a = 1;\n`), words).toEqual(['house/comment-wording']);
        expect(await ruleHits('infra/fixture.ts', `/**\n * Why.\n * ${words}\n */\nexport const a = 1;\n`), words).toEqual([
          'house/comment-wording',
        ]);
      }
    },
    SLOW,
  );

  it(
    'is case-sensitive, reads comments only, and leaves tests and scripts alone',
    async () => {
      expect(
        await ruleHits('shared/core/fixture.ts', '// the one queue both lanes share; an issue of ordering\nexport const a = 1;\n'),
      ).toEqual([]);
      expect(await ruleHits('shared/core/fixture.ts', "export const a = 'THE issue 45, as before';\n")).toEqual([]);
      expect(await ruleHits('test/unit/fixture.test.ts', '// THE test of issue 45\nexport const a = 1;\n')).toEqual([]);
    },
    SLOW,
  );
});

describe('eslint-suppressions.json', () => {
  it('names only files that exist (ESLint checks the entries of the files it lints, not of a file gone)', () => {
    const listed = Object.keys(JSON.parse(readFileSync('eslint-suppressions.json', 'utf8')) as Record<string, unknown>);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((file) => !existsSync(file))).toEqual([]);
  });
});
