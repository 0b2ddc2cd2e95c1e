import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_DEFAULTS, type EnvName } from '../../../shared/config/env-vars.js';

const ROOT = join(import.meta.dirname, '../../..');
const names = Object.keys(ENV_DEFAULTS) as EnvName[];

/** The rows of docs/configuration.md's environment table: the variables named in the first cell, the backticked defaults in the second. */
function readmeRows(): { names: string[]; defaults: string[] }[] {
  const readme = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Environment variables'));
  const table = section.slice(0, section.indexOf('\n## '));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [first = '', second = ''] = line.split(' | ');
      const ticked = (cell: string) => [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1] as string);
      return { names: ticked(first), defaults: ticked(second) };
    });
}

/** Every `RERANK_*` name a file sets or reads: object keys and string literals, not identifiers that merely contain it. */
function envNamesIn(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        for (const m of readFileSync(full, 'utf8').matchAll(/(?<![A-Za-z0-9_])(RERANK_[A-Z0-9_]+)(?=\s*:|['"`\]])/g))
          found.set(m[1] as string, full);
      }
    }
  };
  walk(join(ROOT, dir));
  return found;
}

describe('the environment variables, listed once (shared/config/env-vars.ts)', () => {
  it("match docs/configuration.md's environment table: every name, and every default given in it", () => {
    const rows = readmeRows();
    const documented = rows.flatMap((r) => r.names.filter((n) => n.startsWith('RERANK_')));
    expect([...documented].sort()).toEqual([...names].sort());
    for (const row of rows) {
      if (row.names.length !== row.defaults.length) continue;
      row.names.forEach((name, i) => {
        const expected = ENV_DEFAULTS[name as EnvName];
        if (expected !== undefined) expect({ name, default: row.defaults[i] }).toEqual({ name, default: String(expected) });
      });
    }
  });

  it('hold every RERANK_* name the CDK stack, the functions and the scripts use', () => {
    for (const dir of ['infra', 'functions', 'scripts']) {
      for (const [name, file] of envNamesIn(dir))
        expect({ name, file, listed: names.includes(name as EnvName) }).toEqual({ name, file, listed: true });
    }
  });
});
