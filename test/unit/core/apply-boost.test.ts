import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBoost } from '../../../shared/core/apply-boost.js';
import { BoostTermMatcher } from '../../../shared/core/boost-term-matcher.js';
import type { BoostRule } from '../../../shared/core/rerank-request.js';

/** The documented rule, written the obvious quadratic way, as the oracle. */
const naiveCount = (terms: readonly string[], text: string) => terms.filter((t) => text.includes(t)).length;

describe('BoostTermMatcher', () => {
  it('counts the same contained terms as a substring search, overlaps, prefixes and duplicates included', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'ab', 'é');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 12 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }),
        fc.array(word, { maxLength: 20 }),
        (terms, noise, pieces) => {
          const matcher = new BoostTermMatcher(terms);
          for (const text of [...noise, pieces.join('')]) expect(matcher.countContained(text)).toBe(naiveCount(terms, text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts each term once per text however often it occurs', () => {
    const matcher = new BoostTermMatcher(['a', 'aa', 'aaa', 'b']);
    expect(matcher.countContained('a'.repeat(10_000))).toBe(3);
    expect(matcher.countContained('b')).toBe(1);
  });
});

describe('applyBoost', () => {
  const rule: BoostRule = {
    terms: ['Lambda', 'serverless', 'missing'],
    termWeight: 0.3,
    fields: [{ field: 'metadata.source', value: 'docs', weight: 0.5 }],
  };

  it('adds the share of contained terms (case-insensitive) and matching field weights', () => {
    const boosted = applyBoost(
      [0.1, 0.2],
      [{ text: 'AWS LAMBDA is serverless', source: { metadata: { source: 'docs' } } }, { text: 'nothing here' }],
      rule,
    );
    expect(boosted[0]).toBeCloseTo(0.1 + 0.3 * (2 / 3) + 0.5, 10);
    expect(boosted[1]).toBeCloseTo(0.2, 10);
  });

  it('reads own fields only: __proto__ or constructor paths never match', () => {
    const proto: BoostRule = { terms: [], termWeight: 0, fields: [{ field: 'constructor.name', value: 'Object', weight: 1 }] };
    expect(applyBoost([0], [{ text: 'x', source: {} }], proto)).toEqual([0]);
  });
});
