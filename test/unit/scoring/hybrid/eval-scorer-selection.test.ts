import { describe, expect, it } from 'vitest';
import { EVAL_SCORERS, selectEvalScorers } from '../../../../scripts/eval/eval-scorers.js';

describe('npm run eval -- --only', () => {
  const names = (only?: string[]) => selectEvalScorers(only).map((f) => f.name);

  it('runs every scorer without --only', () => {
    expect(names()).toEqual(EVAL_SCORERS.map((f) => f.name));
  });

  it('takes a served model id as well as a row name, and runs what that scorer needs first', () => {
    expect(names(['use-lite-bm25'])).toEqual(['use-lite', 'use-lite-bm25 (new default)']);
    expect(names(['bm25', 'random'])).toEqual(['random', 'bm25']);
    expect(names(['minmax(use-lite+bm25) (old default)'])).toEqual([
      'bm25-candidates (old bm25)',
      'use-lite',
      'minmax(use-lite+bm25) (old default)',
    ]);
  });

  it('refuses a name that matches no scorer, listing the scorers', () => {
    expect(() => selectEvalScorers(['use-lite-bm2'])).toThrow(/--only: no scorer named 'use-lite-bm2'; the scorers are 'random', /);
  });
});
