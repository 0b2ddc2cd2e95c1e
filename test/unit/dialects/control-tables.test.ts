import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { controlSpellings } from '../../../shared/dialects/control-spellings.js';
import { DIALECTS } from '../../../shared/dialects/dialects.js';
import { TABLES_END, TABLES_START, controlTables } from '../../support/control-tables.js';

const API_MD = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe("docs/api.md's request-control tables", () => {
  it('are the ones the dialect declarations and FAMILY_CONTROLS give (regenerate them with controlTables())', () => {
    const start = API_MD.indexOf(TABLES_START);
    const end = API_MD.indexOf(TABLES_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(API_MD.slice(start, end + TABLES_END.length)).toBe(controlTables());
  });

  it('list every dialect once', () => {
    expect(controlSpellings().map((row) => row.dialect)).toEqual(Object.keys(DIALECTS));
  });
});
